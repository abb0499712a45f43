/**
 * Decides where flags come from, from the settings, the token and the workspace: a server (when `unleash.serverUrl`
 * is set, serverEvaluation.ts), or the export files in the workspace (offline mode, the default). Evaluates again when
 * a setting that shapes it, the token or the files change, and says why nothing can be shown when that is the case.
 */
import * as vscode from 'vscode';
import type { UnleashClient } from '../api/client';
import { EXPORT_FOLDER } from '../base/constants';
import { compare } from '../model/store/catalog';
import { DeferredSource } from '../model/store/deferredSource';
import { ExportFilesError } from '../model/export/exportFilesError';
import type { FlagSource } from '../model/store/flagSource';
import { joinValues } from '../model/text/intl';
import type { ExportBudget, ExportFileReader, ExportFolder, ListedFile, SkippedFile } from '../model/store/offlineFiles';
import { segmentsPathFor } from '../model/export/exportSegmentsPath';
import type { ServerApprovals } from './approvals';
import { settledState, type ConnectionState } from './connectionState';
import { loadCore } from './core';
import { DisposableStore } from './disposables';
import { watchExportFiles } from './exportFilesWatch';
import type { KnownProjects } from './knownProjects';
import type { Logger } from '../base/logger';
import { evaluateServer, type ClientOnNeed, type Evaluation } from './serverEvaluation';
import { onDidChangeConnectionSettings, readSettings, type ExtensionSettings } from './settings';
import type { TokenStore } from './tokens';

/** The `.unleash` folders of the workspace, through the editor's file system (remote and virtual workspaces too). */
function workspaceExportFolder(): ExportFolder {
  const uris = new Map<string, vscode.Uri>();
  const uriOf = (file: ListedFile) => uris.get(file.key) ?? vscode.Uri.parse(file.key);
  return {
    async list() {
      const files: ListedFile[] = [];
      for (const folder of vscode.workspace.workspaceFolders ?? []) {
        const dir = vscode.Uri.joinPath(folder.uri, EXPORT_FOLDER);
        let entries: [string, vscode.FileType][] = [];
        try {
          entries = await vscode.workspace.fs.readDirectory(dir);
        } catch {
          continue; // no export folder here
        }
        const listed = (name: string): ListedFile => {
          const uri = vscode.Uri.joinPath(dir, name);
          uris.set(uri.toString(), uri);
          return { path: vscode.workspace.asRelativePath(uri), key: uri.toString() };
        };
        // A link (even to a file) is left out.
        const regular = new Set(entries.filter(([, type]) => type === vscode.FileType.File).map(([name]) => name));
        for (const name of regular) {
          if (!name.endsWith('.json')) continue;
          const segments = regular.has(segmentsPathFor(name)) ? listed(segmentsPathFor(name)) : undefined;
          files.push({ ...listed(name), ...(segments ? { segments } : {}) });
        }
      }
      return files;
    },
    stat: async (file) => vscode.workspace.fs.stat(uriOf(file)),
    read: async (file) => vscode.workspace.fs.readFile(uriOf(file)),
  };
}

/** One log line per file left out (the files past `maxFiles` in one line): the whole reason, in English. */
function skippedLog(skipped: readonly SkippedFile[], budget: ExportBudget): string[] {
  const megabytes = (bytes: number) => Math.floor(bytes / 2 ** 20);
  const tooMany = skipped.filter((file) => file.why === 'tooMany');
  const lines = skipped.flatMap((file) => {
    switch (file.why) {
      case 'tooLarge':
        return [`Skipped ${file.path}: larger than ${megabytes(budget.maxFileBytes)} MB, the most one export file may hold.`];
      case 'overBudget':
        return [`Skipped ${file.path}: with it the export files would hold more than ${megabytes(budget.maxTotalBytes)} MB together.`];
      case 'failed':
        return [`Skipped ${file.path}: ${file.reason ?? ''}`];
      default:
        return [];
    }
  });
  if (tooMany.length > 0) {
    const names = tooMany.slice(0, 20).map((file) => file.path).join(', ');
    lines.push(`Skipped ${tooMany.length} export files after the first ${budget.maxFiles} by name: ${names}${tooMany.length > 20 ? ', …' : ''}.`);
  }
  return lines;
}

export class Connection implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ConnectionState>();
  readonly onDidChange = this.changed.event;
  private readonly owned: DisposableStore;
  private current: ConnectionState = { state: 'loading' };
  private client: ClientOnNeed | undefined;
  private generation = 0;
  private readonly warned = new Set<string>();
  /** Reads the export files, and remembers each one's result until it changes (made with the core bundle). */
  private exportFiles: ExportFileReader | undefined;

  constructor(
    private readonly tokens: TokenStore,
    private readonly approvals: ServerApprovals,
    private readonly logger: Logger,
    private readonly knownProjects?: KnownProjects,
  ) {
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

  /**
   * Lists `.unleash/*.json` of every workspace folder: no file at all is the welcome state. The files are read on
   * first need (readExportFiles).
   */
  private async offline(): Promise<ConnectionState> {
    const folder = workspaceExportFolder();
    const listed = (await folder.list()).map((file) => file.path).sort(compare);
    if (!listed.length) return { state: 'noServer' };
    const generation = this.generation;
    const known = { kind: 'files' as const, label: () => joinValues(listed), fileCount: listed.length };
    return { state: 'ready', source: new DeferredSource(known, () => this.readExportFiles(folder, generation)) };
  }

  /**
   * Reads the export files within the export budget; a file left out or failing is logged and named in the view, the
   * others still show. Files that all fail make the connection's state an error that names them (while the evaluation
   * that listed them is the latest).
   */
  private async readExportFiles(folder: ExportFolder, generation: number): Promise<FlagSource> {
    const core = await loadCore();
    this.exportFiles ??= new core.ExportFileReader();
    const { files, skipped } = await this.exportFiles.read(folder);
    for (const line of skippedLog(skipped, core.EXPORT_BUDGET)) this.logger.warn(line);
    const note = core.skippedNote(skipped);
    if (files.length) this.logger.info(`Offline mode: ${files.length} export file(s).`);
    else {
      const next: ConnectionState = note ? { state: 'error', problem: new ExportFilesError(note) } : { state: 'noServer' };
      if (generation === this.generation) this.announce(next);
      if (next.problem) throw next.problem;
    }
    return core.OfflineSource.read(files, { note });
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
