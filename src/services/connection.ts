/**
 * Decides where flags come from, from the settings, the token and the workspace: a server (when `unleash.serverUrl`
 * is set), or the export files in the workspace (offline mode, the default). Rebuilds the client when a setting
 * that shapes it changes, and says why nothing can be shown when that is the case.
 */
import * as vscode from 'vscode';
import { baseUrlText, parseBaseUrl, SERVER_URL_SETTING } from '../api/baseUrl';
import { ConfigError } from '../api/errors';
import { UnleashClient } from '../api/client';
import { loadSystemCertificates } from '../api/systemCertificates';
import { EXPORT_FOLDER, EXPORT_GLOB } from '../constants';
import type { FlagSource } from '../model/flagSource';
import type { StoreState } from '../model/flagStore';
import {
  EXPORT_BUDGET, ExportFileReader, ExportFilesError, skippedNote, type ExportBudget, type ExportFolder, type ListedFile, type SkippedFile,
} from '../model/offlineFiles';
import { segmentsPathFor } from '../model/exportSegments';
import { OfflineSource } from '../model/offlineSource';
import type { ServerApprovals } from './approvals';
import type { KnownProjects } from './knownProjects';
import { connectionWarnings, readCaFiles } from './network';
import type { Logger } from '../util/logger';
import { onDidChangeSettings, readSettings, type ExtensionSettings } from './settings';
import { ServerSource } from './serverSource';
import type { TokenStore } from './tokens';

export interface ConnectionState {
  /** Why nothing can be shown, or 'ready' when `source` is set. */
  state: StoreState;
  source?: FlagSource;
  /** The configuration problem behind 'invalidSettings'. */
  problem?: unknown;
}

/** Why a server that the workspace's settings name gets nothing yet, and what to do; `address` as serverKey gives it. */
export function unapprovedProblem(address: string): string {
  return vscode.l10n.t(
    'names {0} in this workspace\'s settings, which you have not allowed: no token is sent there. Run "Unleash: Allow the Workspace\'s Server…".',
    address,
  );
}

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

/** What one evaluation built: the state to announce, and the client behind it (published only if still current). */
interface Evaluation {
  next: ConnectionState;
  client?: UnleashClient;
  warnings?: string[];
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
  private readonly disposables: vscode.Disposable[] = [];
  private current: ConnectionState = { state: 'loading' };
  private client: UnleashClient | undefined;
  private generation = 0;
  private readonly warned = new Set<string>();
  /** Reads the export files, and remembers each one's result until it changes. */
  private readonly exportFiles = new ExportFileReader();

  constructor(
    private readonly tokens: TokenStore,
    private readonly approvals: ServerApprovals,
    private readonly logger: Logger,
    private readonly knownProjects?: KnownProjects,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher(EXPORT_GLOB);
    const onFiles = () => {
      if (this.current.source?.kind !== 'server') void this.update();
    };
    this.disposables.push(
      watcher,
      watcher.onDidCreate(onFiles),
      watcher.onDidChange(onFiles),
      watcher.onDidDelete(onFiles),
      onDidChangeSettings(() => void this.update()),
      tokens.onDidChange(() => void this.update()),
      vscode.workspace.onDidChangeWorkspaceFolders(onFiles),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.update()),
    );
  }

  get state(): ConnectionState {
    return this.current;
  }

  /** The live client, when connected to a server. */
  get serverClient(): UnleashClient | undefined {
    return this.current.source?.kind === 'server' ? this.client : undefined;
  }

  /**
   * The state once the first evaluation is done: right after start-up the connection has not read its settings
   * yet, and a command run at once must not report "no server". Waits at most `ms`.
   */
  async settled(ms = 5000): Promise<ConnectionState> {
    if (this.current.state !== 'loading') return this.current;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        subscription.dispose();
        resolve();
      };
      const timer = setTimeout(done, ms);
      const subscription = this.onDidChange(done);
    });
    return this.current;
  }

  /**
   * Re-reads settings, token and export files, and announces the result. A client is published only when its
   * evaluation is still the latest one (a late evaluation closes the client it built); the one it replaces is closed.
   */
  async update(): Promise<ConnectionState> {
    const generation = ++this.generation;
    const evaluated = await this.evaluate(readSettings()).catch((error: unknown): Evaluation => ({ next: { state: 'error', problem: error } }));
    if (generation !== this.generation) {
      void evaluated.client?.close();
      return this.current;
    }
    this.closeClient();
    this.client = evaluated.client;
    this.current = evaluated.next;
    for (const warning of evaluated.warnings ?? []) this.warnOnce(warning);
    this.changed.fire(evaluated.next);
    return evaluated.next;
  }

  /** Builds what the settings ask for, without publishing anything (see update()). */
  private async evaluate(settings: ExtensionSettings): Promise<Evaluation> {
    if (!vscode.workspace.isTrusted) {
      // Restricted Mode: the export files only; nothing talks to a server.
      if (settings.serverUrl) this.logger.info('Restricted Mode: showing the export files; no server is contacted.');
      return { next: await this.offline() };
    }
    if (!settings.serverUrl) return { next: await this.offline() };
    let client: UnleashClient | undefined;
    try {
      const baseUrl = parseBaseUrl(settings.serverUrl);
      if (settings.serverUrlFromWorkspace && !this.approvals.isApproved(settings.serverUrl)) {
        const problem = new ConfigError(SERVER_URL_SETTING, unapprovedProblem(baseUrlText(baseUrl)));
        this.logger.warn(problem.message);
        return { next: { state: 'unapproved', problem } };
      }
      if ((await this.tokens.source(settings.serverUrl)) === 'none') return { next: { state: 'noToken' } };
      const extraCaCertificates = await readCaFiles(settings.network.caCertificates);
      const systemCaCertificates = settings.network.systemCertificates ? await this.systemCertificates() : undefined;
      client = new UnleashClient({
        baseUrl: baseUrl.href,
        getToken: () => this.tokens.get(settings.serverUrl),
        timeoutMs: settings.requestTimeoutMs,
        network: {
          extraCaCertificates,
          systemCaCertificates,
          rejectUnauthorized: settings.network.rejectUnauthorized,
          proxy: settings.network.proxy,
          proxyStrictSSL: settings.network.proxyStrictSSL,
          noProxy: settings.network.noProxy,
          proxyAuthorization: settings.network.proxyAuthorization,
          proxySupport: settings.network.proxySupport,
          // As VS Code: HTTPS_PROXY and NO_PROXY of the editor's environment, and a server on this machine goes direct.
          env: process.env,
          directLoopback: true,
        },
        onEvent: (event) =>
          event.kind === 'retry'
            ? this.logger.warn(`${event.request}: retry ${event.attempt} in ${event.delayMs} ms (${event.reason})`)
            : this.logger.debug(`${event.request} → ${event.status} in ${Math.round(event.ms)} ms`),
      });
      return {
        next: { state: 'ready', source: new ServerSource(client, settings.projects, settings.webUrl, this.knownProjects, settings.projectsNote) },
        client,
        warnings: connectionWarnings(baseUrl, settings),
      };
    } catch (error) {
      void client?.close();
      return { next: { state: 'invalidSettings', problem: error } };
    }
  }

  /** The operating system's certificates (cached by systemCertificates.ts), logged with what reading them cost. */
  private async systemCertificates(): Promise<string[]> {
    const loaded = await loadSystemCertificates({ env: process.env });
    const took = `${loaded.ms.toFixed(1)} ms${loaded.cached ? ', cached' : ''}`;
    if (loaded.problem) this.logger.info(`System certificates: none added (${loaded.problem}; ${took}).`);
    else this.logger.debug(`System certificates: ${loaded.certificates.length} from ${loaded.sources.join(', ')} (${took}).`);
    return loaded.certificates;
  }

  /** Shows a warning once per session (evaluations repeat on every settings or file change). */
  private warnOnce(warning: string): void {
    if (this.warned.has(warning)) return;
    this.warned.add(warning);
    this.logger.warn(warning);
    void vscode.window.showWarningMessage(warning);
  }

  /**
   * Reads `.unleash/*.json` of every workspace folder within the export budget; a file left out or failing is logged
   * and named in the view, the others still show. No file at all is the welcome state; files that all fail, an error
   * that names them.
   */
  private async offline(): Promise<ConnectionState> {
    const { files, skipped } = await this.exportFiles.read(workspaceExportFolder());
    for (const line of skippedLog(skipped, EXPORT_BUDGET)) this.logger.warn(line);
    const note = skippedNote(skipped);
    if (!files.length) return note ? { state: 'error', problem: new ExportFilesError(note) } : { state: 'noServer' };
    this.logger.info(`Offline mode: ${files.length} export file(s).`);
    return { state: 'ready', source: await OfflineSource.read(files, { note }) };
  }

  private closeClient(): void {
    void this.client?.close();
    this.client = undefined;
  }

  dispose(): void {
    this.closeClient();
    this.changed.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }
}
