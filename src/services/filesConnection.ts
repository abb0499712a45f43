/**
 * The browser build's connection (vscode.dev, github.dev): the export files committed to the workspace are the only
 * source. No server, no token, no setting that names one is read. It announces the same states as the desktop's
 * (services/connection.ts), so the store, the views and the commands work unchanged.
 */
import * as vscode from 'vscode';
import { settledState, type ConnectionState } from './connectionState';
import { DisposableStore } from './disposables';
import { watchExportFiles } from './exportFilesWatch';
import type { WorkspaceExports } from './workspaceExports';

export class FilesConnection implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ConnectionState>();
  readonly onDidChange = this.changed.event;
  private readonly owned: DisposableStore;
  private current: ConnectionState = { state: 'loading' };
  private generation = 0;

  constructor(private readonly exportFiles: WorkspaceExports) {
    this.owned = new DisposableStore(this.changed, watchExportFiles(() => void this.update()));
  }

  get state(): ConnectionState {
    return this.current;
  }

  /** Never a server here. */
  async serverClient(): Promise<undefined> {
    return undefined;
  }

  settled(ms = 5000): Promise<ConnectionState> {
    return settledState(this, ms);
  }

  /** Lists the export files again and announces the result (a listing overtaken by a later one is dropped). */
  async update(): Promise<ConnectionState> {
    const generation = ++this.generation;
    const announce = (next: ConnectionState) => {
      if (generation !== this.generation) return;
      this.current = next;
      this.changed.fire(next);
    };
    const next = await this.exportFiles.state(announce).catch((error: unknown): ConnectionState => ({ state: 'error', problem: error }));
    announce(next);
    return this.current;
  }

  dispose(): void {
    this.owned.dispose();
  }
}
