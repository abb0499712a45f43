/**
 * Decides where flags come from, from the settings, the token and the workspace: a server (when `unleash.serverUrl`
 * is set), or the export files in the workspace (offline mode, the default). Rebuilds the client when a setting
 * that shapes it changes, and says why nothing can be shown when that is the case.
 */
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { parseBaseUrl } from '../api/baseUrl';
import { UnleashClient } from '../api/client';
import { ConfigError } from '../api/errors';
import { EXPORT_FOLDER, EXPORT_GLOB, settingId, Settings, type ViewState } from '../constants';
import { parseExportFile } from '../model/exportLayout';
import type { FlagSource } from '../model/flagSource';
import { OfflineSource, type ExportFile } from '../model/offlineSource';
import type { Logger } from '../util/logger';
import { onDidChangeSettings, readSettings, type ExtensionSettings } from './settings';
import { ServerSource } from './serverSource';
import type { TokenStore } from './tokens';

export interface ConnectionState {
  /** Why nothing can be shown, or 'ready' when `source` is set. */
  state: ViewState;
  source?: FlagSource;
  /** The configuration problem behind 'invalidSettings'. */
  problem?: unknown;
}

export class Connection implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ConnectionState>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private current: ConnectionState = { state: 'loading' };
  private client: UnleashClient | undefined;
  private generation = 0;

  constructor(
    private readonly tokens: TokenStore,
    private readonly logger: Logger,
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

  /** Re-reads settings, token and export files, and announces the result. */
  async update(): Promise<ConnectionState> {
    const generation = ++this.generation;
    const next = await this.evaluate(readSettings()).catch((error: unknown): ConnectionState => ({ state: 'error', problem: error }));
    if (generation !== this.generation) return this.current;
    this.current = next;
    this.changed.fire(next);
    return next;
  }

  private async evaluate(settings: ExtensionSettings): Promise<ConnectionState> {
    this.closeClient();
    if (!settings.serverUrl) return this.offline();
    try {
      const baseUrl = parseBaseUrl(settings.serverUrl);
      if ((await this.tokens.source(settings.serverUrl)) === 'none') return { state: 'noToken' };
      this.client = new UnleashClient({
        baseUrl: baseUrl.href,
        getToken: () => this.tokens.get(settings.serverUrl),
        timeoutMs: settings.requestTimeoutMs,
        network: {
          extraCaCertificates: readCaFiles(settings.network.caCertificates),
          rejectUnauthorized: settings.network.rejectUnauthorized,
          proxy: settings.network.proxy,
          proxyStrictSSL: settings.network.proxyStrictSSL,
        },
        onEvent: (event) =>
          event.kind === 'retry'
            ? this.logger.warn(`${event.request}: retry ${event.attempt} in ${event.delayMs} ms (${event.reason})`)
            : this.logger.debug(`${event.request} → ${event.status} in ${Math.round(event.ms)} ms`),
      });
      if (!settings.network.rejectUnauthorized) {
        void vscode.window.showWarningMessage(
          `Certificate checks are off for ${baseUrl.host} (${settingId(Settings.rejectUnauthorized)}). Anyone between you and the server can read your token.`,
        );
      }
      return { state: 'ready', source: new ServerSource(this.client, settings.projects, settings.webUrl) };
    } catch (error) {
      return { state: 'invalidSettings', problem: error };
    }
  }

  /** Reads `.unleash/*.json` of every workspace folder; a file that is not an export is logged and skipped. */
  private async offline(): Promise<ConnectionState> {
    const files: ExportFile[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const dir = vscode.Uri.joinPath(folder.uri, EXPORT_FOLDER);
      let entries: [string, vscode.FileType][] = [];
      try {
        entries = await vscode.workspace.fs.readDirectory(dir);
      } catch {
        continue; // no export folder here
      }
      for (const [name, type] of entries.sort(([a], [b]) => a.localeCompare(b))) {
        if (type !== vscode.FileType.File || !name.endsWith('.json')) continue;
        const uri = vscode.Uri.joinPath(dir, name);
        const path = vscode.workspace.asRelativePath(uri);
        try {
          files.push({ path, result: parseExportFile(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri))) });
        } catch (error) {
          this.logger.warn(`Skipped ${path}: ${error instanceof Error ? error.message : error}`);
        }
      }
    }
    if (!files.length) return { state: 'noServer' };
    this.logger.info(`Offline mode: ${files.length} export file(s).`);
    return { state: 'ready', source: new OfflineSource(files) };
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

function readCaFiles(paths: string[]): string[] {
  return paths.map((path) => {
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      throw new ConfigError(
        settingId(Settings.caCertificates),
        `lists ${path}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}). Give the path of a PEM file.`,
      );
    }
  });
}
