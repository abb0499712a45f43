/**
 * Decides where flags come from, from the settings, the token and the workspace: a server (when `unleash.serverUrl`
 * is set), or the export files in the workspace (offline mode, the default). Rebuilds the client when a setting
 * that shapes it changes, and says why nothing can be shown when that is the case.
 *
 * An evaluation checks the settings and lists the export files, and builds nothing else: the client and the files'
 * contents come from the core bundle (model/core.ts, dist/core.js), loaded with the first need of the flags
 * (DeferredSource, serverClient()). A window that never needs them never loads it.
 */
import * as vscode from 'vscode';
import { baseUrlText, parseBaseUrl, SERVER_URL_SETTING } from '../api/baseUrl';
import type { UnleashClient } from '../api/client';
import { CancelledError, ConfigError } from '../api/errors';
import { requirePemCertificates } from '../api/pem';
import { chooseProxy } from '../api/proxy';
import { EXPORT_GLOB } from '../base/constants';
import { DeferredSource } from '../model/store/deferredSource';
import type { ServerApprovals } from './approvals';
import { settledState, type ConnectionState } from './connectionState';
import { loadCore, type Core } from './core';
import type { KnownProjects } from './knownProjects';
import { connectionWarnings, readCaFiles } from './network';
import type { Logger } from '../base/logger';
import { onDidChangeConnectionSettings, readSettings, type ExtensionSettings } from './settings';
import { ServerSource, serverLabel } from './serverSource';
import type { TokenStore } from './tokens';
import { WorkspaceExports } from './workspaceExports';

/** Why a server that the workspace's settings name gets nothing yet, and what to do; `address` as serverKey gives it. */
export function unapprovedProblem(address: string): string {
  return vscode.l10n.t(
    'names {0} in this workspace\'s settings, which you have not allowed: no token is sent there. Run "Unleash: Allow the Workspace\'s Server…".',
    address,
  );
}

/** A server's client, built the first time something needs it (loading the core bundle); closed with its evaluation. */
class ClientOnNeed {
  #client: Promise<UnleashClient> | undefined;
  #closed = false;

  constructor(private readonly build: () => Promise<UnleashClient>) {}

  /** The client, built once; a build that fails is forgotten (the next need tries again). None once closed. */
  get(): Promise<UnleashClient> {
    if (this.#closed) return Promise.reject(new CancelledError());
    this.#client ??= this.build().catch((error: unknown) => {
      this.#client = undefined;
      throw error;
    });
    return this.#client;
  }

  close(): void {
    this.#closed = true;
    void this.#client?.then((client) => client.close(), () => undefined);
  }
}

/** What one evaluation built: the state to announce, and the client behind it (published only if still current). */
interface Evaluation {
  next: ConnectionState;
  client?: ClientOnNeed;
  warnings?: string[];
}

export class Connection implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ConnectionState>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
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
  ) {
    this.exportFiles = new WorkspaceExports(logger, { load: loadCore });
    const watcher = vscode.workspace.createFileSystemWatcher(EXPORT_GLOB);
    const onFiles = () => {
      if (this.current.source?.kind !== 'server') void this.update();
    };
    this.disposables.push(
      watcher,
      watcher.onDidCreate(onFiles),
      watcher.onDidChange(onFiles),
      watcher.onDidDelete(onFiles),
      onDidChangeConnectionSettings(() => void this.update()),
      tokens.onDidChange(() => void this.update()),
      vscode.workspace.onDidChangeWorkspaceFolders(onFiles),
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

  /**
   * The state once the first evaluation is done: right after start-up the connection has not read its settings
   * yet, and a command run at once must not report "no server". Waits at most `ms`.
   */
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
    try {
      const baseUrl = parseBaseUrl(settings.serverUrl);
      if (settings.serverUrlFromWorkspace && !this.approvals.isApproved(settings.serverUrl)) {
        const problem = new ConfigError(SERVER_URL_SETTING, unapprovedProblem(baseUrlText(baseUrl)));
        this.logger.warn(problem.message);
        return { next: { state: 'unapproved', problem } };
      }
      if ((await this.tokens.source(settings.serverUrl)) === 'none') return { next: { state: 'noToken' } };
      const extraCaCertificates = await readCaFiles(settings.network.caCertificates);
      const network = {
        extraCaCertificates,
        rejectUnauthorized: settings.network.rejectUnauthorized,
        proxy: settings.network.proxy,
        proxyStrictSSL: settings.network.proxyStrictSSL,
        noProxy: settings.network.noProxy,
        proxyAuthorization: settings.network.proxyAuthorization,
        proxySupport: settings.network.proxySupport,
        // As VS Code: HTTPS_PROXY and NO_PROXY of the editor's environment, and a server on this machine goes direct.
        env: process.env,
        directLoopback: true,
      };
      // What building the client would refuse (a CA file that is not PEM, a proxy that is no address), refused now.
      requirePemCertificates(extraCaCertificates);
      chooseProxy(baseUrl, network);
      const client = new ClientOnNeed(async () => {
        const core = await loadCore();
        const systemCaCertificates = settings.network.systemCertificates ? await this.systemCertificates(core) : undefined;
        return new core.UnleashClient({
          baseUrl: baseUrl.href,
          getToken: () => this.tokens.get(settings.serverUrl),
          timeoutMs: settings.requestTimeoutMs,
          network: { ...network, systemCaCertificates },
          onEvent: (event) =>
            event.kind === 'retry'
              ? this.logger.warn(`${event.request}: retry ${event.attempt} in ${event.delayMs} ms (${event.reason})`)
              : this.logger.debug(`${event.request} → ${event.status} in ${Math.round(event.ms)} ms`),
        });
      });
      const source = new DeferredSource(
        { kind: 'server', label: () => serverLabel(baseUrl) },
        async () => new ServerSource(await client.get(), settings.projects, settings.webUrl, this.knownProjects, settings.projectsNote),
      );
      return { next: { state: 'ready', source }, client, warnings: connectionWarnings(baseUrl, settings) };
    } catch (error) {
      return { next: { state: 'invalidSettings', problem: error } };
    }
  }

  /** The operating system's certificates (cached by systemCertificates.ts), logged with what reading them cost. */
  private async systemCertificates(core: Core): Promise<string[]> {
    const loaded = await core.loadSystemCertificates({ env: process.env });
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
    this.changed.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }
}
