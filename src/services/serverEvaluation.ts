/**
 * What a server named in the settings makes of an evaluation: the checks done at once (approval, token, CA files,
 * proxy) and a client built the first time something needs the flags, loading the core bundle then. A window that
 * never needs them never loads it.
 */
import * as vscode from 'vscode';
import { baseUrlText, parseBaseUrl, SERVER_URL_SETTING } from '../api/baseUrl';
import type { UnleashClient } from '../api/client';
import { CancelledError, ConfigError } from '../api/errors';
import { requirePemCertificates } from '../api/pem';
import { chooseProxy } from '../api/proxy';
import type { Logger } from '../base/logger';
import type { JobRunner } from '../model/jobs/jobTypes';
import type { AnswerSchemaName } from '../api/answerSchemas';
import { DeferredSource } from '../model/store/deferredSource';
import type { ServerApprovals } from './approvals';
import type { ConnectionState } from './connectionState';
import { loadCore, type Core } from './core';
import type { KnownProjects } from './knownProjects';
import { connectionWarnings, readCaFiles } from './network';
import { ServerSource, serverLabel } from './serverSource';
import type { ExtensionSettings } from './settings';
import type { TokenStore } from './tokens';

/** A server's client, built the first time something needs it (loading the core bundle); closed with its evaluation. */
export class ClientOnNeed {
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
export interface Evaluation {
  next: ConnectionState;
  client?: ClientOnNeed;
  warnings?: string[];
}

interface ServerDeps {
  tokens: TokenStore;
  approvals: ServerApprovals;
  logger: Logger;
  knownProjects?: KnownProjects;
  /** Where large answers are parsed (the worker thread); without it, on this thread in time slices. */
  jobs?: JobRunner;
}

/** Why a server that the workspace's settings name gets nothing yet, and what to do; `address` as serverKey gives it. */
function unapprovedProblem(address: string): string {
  return vscode.l10n.t(
    'names {0} in this workspace\'s settings, which you have not allowed: no token is sent there. Run "Unleash: Allow the Workspace\'s Server…".',
    address,
  );
}

/** Checks what `settings.serverUrl` needs and builds its source, without publishing anything (Connection.update does). */
export async function evaluateServer(settings: ExtensionSettings, deps: ServerDeps): Promise<Evaluation> {
  const { tokens, approvals, logger } = deps;
  try {
    const baseUrl = parseBaseUrl(settings.serverUrl);
    if (settings.serverUrlFromWorkspace && !approvals.isApproved(settings.serverUrl)) {
      const problem = new ConfigError(SERVER_URL_SETTING, unapprovedProblem(baseUrlText(baseUrl)));
      logger.warn(problem.message);
      return { next: { state: 'unapproved', problem } };
    }
    if ((await tokens.source(settings.serverUrl)) === 'none') return { next: { state: 'noToken' } };
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
    const jobs = deps.jobs;
    const client = new ClientOnNeed(async () => {
      const core = await loadCore();
      const systemCaCertificates = settings.network.systemCertificates ? await systemCertificates(core, logger) : undefined;
      return new core.UnleashClient({
        baseUrl: baseUrl.href,
        getToken: () => tokens.get(settings.serverUrl),
        timeoutMs: settings.requestTimeoutMs,
        network: { ...network, systemCaCertificates },
        // Large answers are parsed and checked in the worker thread.
        ...(jobs ? { parseLarge: (bytes: Uint8Array, schema: AnswerSchemaName | undefined) => jobs.run('answer', { bytes, ...(schema ? { schema } : {}) }) } : {}),
        onEvent: (event) =>
          event.kind === 'retry'
            ? logger.warn(`${event.request}: retry ${event.attempt} in ${event.delayMs} ms (${event.reason})`)
            : logger.debug(`${event.request} → ${event.status} in ${Math.round(event.ms)} ms`),
      });
    });
    const source = new DeferredSource(
      { kind: 'server', label: () => serverLabel(baseUrl) },
      async () => new ServerSource(await client.get(), settings.projects, settings.webUrl, deps.knownProjects, settings.projectsNote),
    );
    return { next: { state: 'ready', source }, client, warnings: connectionWarnings(baseUrl, settings) };
  } catch (error) {
    return { next: { state: 'invalidSettings', problem: error } };
  }
}

/** The operating system's certificates (cached by systemCertificates.ts), logged with what reading them cost. */
async function systemCertificates(core: Core, logger: Logger): Promise<string[]> {
  const loaded = await core.loadSystemCertificates({ env: process.env });
  const took = `${loaded.ms.toFixed(1)} ms${loaded.cached ? ', cached' : ''}`;
  if (loaded.problem) logger.info(`System certificates: none added (${loaded.problem}; ${took}).`);
  else logger.debug(`System certificates: ${loaded.certificates.length} from ${loaded.sources.join(', ')} (${took}).`);
  return loaded.certificates;
}
