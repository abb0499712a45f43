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
import { exportResultSchema } from '../api/schemas';
import { EXPORT_GLOB, settingId, Settings, type ViewState } from '../constants';
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

  /** Re-reads settings, token and export files, and announces the result. */
  async update(): Promise<ConnectionState> {
    const generation = ++this.generation;
    const next = await this.evaluate(readSettings());
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

  private async offline(): Promise<ConnectionState> {
    const files: ExportFile[] = [];
    for (const uri of await vscode.workspace.findFiles(EXPORT_GLOB, undefined, 50)) {
      try {
        const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
        files.push({ path: vscode.workspace.asRelativePath(uri), result: exportResultSchema.parse(JSON.parse(text)) });
      } catch (error) {
        this.logger.warn(`Skipped ${vscode.workspace.asRelativePath(uri)}: not an Unleash export (${error instanceof Error ? error.message.split('\n')[0] : error}).`);
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
