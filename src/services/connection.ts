/**
 * Decides where flags come from, from the settings, the token and the workspace: a server (when `unleash.serverUrl`
 * is set, serverEvaluation.ts), or the export files in the workspace (offline mode, the default, workspaceExports.ts).
 * Evaluates again when a setting that shapes it, the token or the files change, and says why nothing can be shown.
 */
import * as vscode from 'vscode';
import type { UnleashClient } from '../api/client';
import type { ServerApprovals } from './approvals';
import { settledState, type ConnectionState } from './connectionState';
import { loadCore } from './core';
import { DisposableStore } from './disposables';
import { watchExportFiles } from './exportFilesWatch';
import type { KnownProjects } from './knownProjects';
import type { JobRunner } from '../model/jobs/jobTypes';
import type { Logger } from '../base/logger';
import { evaluateServer, type ClientOnNeed, type Evaluation } from './serverEvaluation';
import { onDidChangeConnectionSettings, readSettings, type ExtensionSettings } from './settings';
import type { TokenStore } from './tokens';
import { WorkspaceExports } from './workspaceExports';

export class Connection implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ConnectionState>();
  readonly onDidChange = this.changed.event;
  private readonly owned: DisposableStore;
  private current: ConnectionState = { state: 'loading' };
  private client: ClientOnNeed | undefined;
  private generation = 0;
  private readonly warned = new Set<string>();
  private readonly exportFiles: WorkspaceExports;

  constructor(
    private readonly tokens: TokenStore,
    private readonly approvals: ServerApprovals,
    private readonly logger: Logger,
    private readonly knownProjects?: KnownProjects,
    jobs?: JobRunner,
  ) {
    this.exportFiles = new WorkspaceExports(logger, { load: loadCore, jobs });
    this.owned = new DisposableStore(
      this.changed,
      watchExportFiles(() => {
        if (this.current.source?.kind !== 'server') void this.update();
      }),
      onDidChangeConnectionSettings(() => void this.update()),
      tokens.onDidChange(() => void this.update()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.update()),
    );
  }

  get state(): ConnectionState {
    return this.current;
  }

  /** The live client, when connected to a server: a need of it, which builds it (and loads the core bundle) the first time. */
  async serverClient(): Promise<UnleashClient | undefined> {
    return this.current.source?.kind === 'server' ? this.client?.get() : undefined;
  }

  /** The state once the first evaluation is done (settledState), waiting at most `ms`. */
  settled(ms = 5000): Promise<ConnectionState> {
    return settledState(this, ms);
  }

  /**
   * Re-reads settings, token and export files, and announces the result. A client is published only when its
   * evaluation is still the latest one (a late evaluation closes the client it built); the one it replaces is closed.
   */
  async update(): Promise<ConnectionState> {
    const generation = ++this.generation;
    const evaluated = await this.evaluate(readSettings()).catch((error: unknown): Evaluation => ({ next: { state: 'error', problem: error } }));
    if (generation !== this.generation) {
      evaluated.client?.close();
      return this.current;
    }
    this.closeClient();
    this.client = evaluated.client;
    for (const warning of evaluated.warnings ?? []) this.warnOnce(warning);
    this.announce(evaluated.next);
    return evaluated.next;
  }

  private announce(next: ConnectionState): void {
    this.current = next;
    this.changed.fire(next);
  }

  /** Builds what the settings ask for, without publishing anything (see update()). */
  private async evaluate(settings: ExtensionSettings): Promise<Evaluation> {
    if (!vscode.workspace.isTrusted) {
      // Restricted Mode: the export files only; nothing talks to a server.
      if (settings.serverUrl) this.logger.info('Restricted Mode: showing the export files; no server is contacted.');
      return { next: await this.offline() };
    }
    if (!settings.serverUrl) return { next: await this.offline() };
    return evaluateServer(settings, { tokens: this.tokens, approvals: this.approvals, logger: this.logger, knownProjects: this.knownProjects });
  }

  /** Shows a warning once per session (evaluations repeat on every settings or file change). */
  private warnOnce(warning: string): void {
    if (this.warned.has(warning)) return;
    this.warned.add(warning);
    this.logger.warn(warning);
    void vscode.window.showWarningMessage(warning);
  }

  /** The export files of the workspace (offline mode): files that all fail are announced while this evaluation is the latest. */
  private offline(): Promise<ConnectionState> {
    const generation = this.generation;
    return this.exportFiles.state((next) => {
      if (generation === this.generation) this.announce(next);
    });
  }

  private closeClient(): void {
    this.client?.close();
    this.client = undefined;
  }

  dispose(): void {
    this.closeClient();
    this.owned.dispose();
  }
}
