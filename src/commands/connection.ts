/** Commands that connect to a server: Connect, Set/Forget API Token, Allow the Workspace's Server, Test Connection. */
import * as vscode from 'vscode';
import { parseBaseUrl } from '../api/baseUrl';
import { ConfigError } from '../api/errors';
import { Commands, SETTINGS_SECTION, Settings, settingId, TOKEN_ENV_VAR } from '../base/constants';
import type { FlagStore } from '../model/store/flagStore';
import { formatError } from '../model/content/formatError';
import { joinValues, pluralForm } from '../model/text/intl';
import { approvalQuestion, serverKey, shownAddress } from '../model/settings/settingRules';
import { clean } from '../model/text/plainText';
import type { ServerApprovals } from '../services/approvals';
import type { Connection } from '../services/connection';
import { readServerUrl, readSettings, readUserServerUrl } from '../services/settings';
import type { TokenStore } from '../services/tokens';
import type { Logger } from '../base/logger';
import { failWith, requireServer, withCancellableProgress } from './commandHelpers';
import { DisposableStore } from '../services/disposables';

interface ConnectionCommandDeps {
  connection: Connection;
  tokens: TokenStore;
  approvals: ServerApprovals;
  logger: Logger;
  /** What the last listing could not read: Test Connection says so beside a working connection. */
  store?: Pick<FlagStore, 'failures' | 'outOfDate' | 'currentSource'>;
}

/** What "Test Connection" found, returned for keybindings and tests. */
interface ConnectionReport {
  ok: boolean;
  message: string;
}

export function registerConnectionCommands(deps: ConnectionCommandDeps): vscode.Disposable {
  return new DisposableStore(
    vscode.commands.registerCommand(Commands.connect, () => connect(deps)),
    vscode.commands.registerCommand(Commands.setToken, (token?: string) => setToken(deps, token)),
    vscode.commands.registerCommand(Commands.forgetToken, () => forgetToken(deps)),
    vscode.commands.registerCommand(Commands.approveServer, () => approveServer(deps)),
    vscode.commands.registerCommand(Commands.testConnection, () => testConnection(deps)),
  );
}

/** Validation for the URL input box: undefined when fine, else what to fix. */
function validateServerUrl(value: string): string | undefined {
  try {
    parseBaseUrl(value);
    return undefined;
  } catch (error) {
    return error instanceof ConfigError ? vscode.l10n.t('The address {0}', error.problem) : String(error);
  }
}

/**
 * Connect to Server…: the address the user types is the one saved (user settings), allowed, and given the token. When
 * a workspace setting overrides it, that is said, and nothing is sent to the workspace's server.
 *
 * The box holds the user's own address (the setting it edits), never the workspace's: a workspace's address there
 * would be one Enter away from being saved as the user's choice. An address the workspace names and the user has not
 * allowed, typed or pasted, gets the approval question first; nothing is saved or sent without an Allow.
 */
async function connect(deps: ConnectionCommandDeps): Promise<void> {
  const url = await vscode.window.showInputBox({
    title: vscode.l10n.t('Connect to Unleash (1/2): server address'),
    prompt: vscode.l10n.t('The address you open Unleash at, e.g. https://unleash.example.com'),
    value: readUserServerUrl(),
    placeHolder: 'https://unleash.example.com',
    ignoreFocusOut: true,
    validateInput: validateServerUrl,
  });
  if (url === undefined) return;
  const typed = url.trim();
  const settings = readSettings();
  const key = serverKey(typed);
  const workspaceNamed = settings.serverUrlFromWorkspace && key !== undefined && key === serverKey(settings.serverUrl);
  if (workspaceNamed && !deps.approvals.isApproved(typed) && !(await approveServer(deps))) return;
  await vscode.workspace.getConfiguration(SETTINGS_SECTION).update(Settings.serverUrl, typed, vscode.ConfigurationTarget.Global);
  if (!typed) return;
  await deps.approvals.approve(typed);
  if ((await deps.tokens.source(typed)) === 'none') {
    if (!(await setToken(deps, undefined, vscode.l10n.t('Connect to Unleash (2/2): API token'), typed))) return;
  }
  const effective = readSettings();
  if (effective.serverUrlFromWorkspace && effective.serverUrl !== typed) {
    const message = overriddenMessage(typed, effective.serverUrl);
    deps.logger.warn(message);
    const picked = await vscode.window.showWarningMessage(message, vscode.l10n.t('Open Workspace Settings'));
    if (picked) await vscode.commands.executeCommand('workbench.action.openWorkspaceSettings', { query: settingId(Settings.serverUrl) });
    return;
  }
  await testConnection(deps);
}

/** Said when the user's choice is saved but a workspace setting wins (both addresses as requests would use them). */
function overriddenMessage(typed: string, workspaceUrl: string): string {
  return vscode.l10n.t(
    "Saved {0} in your user settings, but this workspace's {1} ({2}) takes precedence, so the Flags view keeps using that one. Remove it from the workspace settings to use {0}.",
    shownAddress(typed),
    settingId(Settings.serverUrl),
    shownAddress(workspaceUrl),
  );
}

/** Asks, in a modal naming the host, whether a server that the workspace's settings named may get the token. */
async function approveServer(deps: ConnectionCommandDeps): Promise<boolean> {
  const settings = readSettings();
  if (!settings.serverUrl || !settings.serverUrlFromWorkspace || deps.approvals.isApproved(settings.serverUrl)) {
    void vscode.window.showInformationMessage(
      settings.serverUrl ? vscode.l10n.t('{0} is already allowed.', shownAddress(settings.serverUrl)) : vscode.l10n.t('No server is configured: nothing to allow.'),
    );
    return Boolean(settings.serverUrl);
  }
  const question = approvalQuestion(settings.serverUrl, settings.webUrlFromWorkspace ? settings.webUrl : undefined);
  const allow = vscode.l10n.t('Allow');
  const picked = await vscode.window.showWarningMessage(question.message, { modal: true, detail: question.detail }, allow);
  if (picked !== allow) return false;
  await deps.approvals.approve(settings.serverUrl);
  deps.logger.info(`Allowed the server ${shownAddress(settings.serverUrl)}, named by this workspace's settings.`);
  await deps.connection.update();
  return true;
}

async function setToken(deps: ConnectionCommandDeps, given?: string, title = vscode.l10n.t('Unleash: Set API Token'), typed?: string): Promise<boolean> {
  const settings = readSettings();
  const serverUrl = typed ?? settings.serverUrl;
  if (!serverUrl) {
    const picked = await vscode.window.showWarningMessage(
      vscode.l10n.t('Set the server address first ({0}).', settingId(Settings.serverUrl)),
      vscode.l10n.t('Connect…'),
    );
    if (picked) await vscode.commands.executeCommand(Commands.connect);
    return false;
  }
  const fromWorkspace = typed === undefined && settings.serverUrlFromWorkspace;
  if (fromWorkspace && !deps.approvals.isApproved(serverUrl) && !(await approveServer(deps))) return false;
  const token =
    given ??
    (await vscode.window.showInputBox({
      title,
      prompt: fromWorkspace
        ? vscode.l10n.t("An admin token or a personal access token for {0} (the server this workspace's settings name). It is kept in VS Code's secret storage.", shownAddress(serverUrl))
        : vscode.l10n.t("An admin token or a personal access token for {0}. It is kept in VS Code's secret storage.", shownAddress(serverUrl)),
      password: true,
      ignoreFocusOut: true,
      placeHolder: vscode.l10n.t('*:*.0123abcd… or user:0123abcd…'),
      validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('The token is empty. Paste a token from Unleash → API access.')),
    }));
  if (!token?.trim()) return false;
  await deps.tokens.set(serverUrl, token);
  deps.logger.info(`API token stored for ${shownAddress(serverUrl)}.`);
  await deps.connection.update();
  return true;
}

async function forgetToken(deps: ConnectionCommandDeps): Promise<void> {
  const serverUrl = readServerUrl();
  if (!serverUrl) return;
  await deps.tokens.delete(serverUrl);
  const stillFromEnv = (await deps.tokens.source(serverUrl)) === 'env';
  void vscode.window.showInformationMessage(
    stillFromEnv
      ? vscode.l10n.t('Forgot the stored token for {0}. The {1} environment variable still provides one.', shownAddress(serverUrl), TOKEN_ENV_VAR)
      : vscode.l10n.t('Forgot the stored token for {0}.', shownAddress(serverUrl)),
  );
  await deps.connection.update();
}

async function testConnection(deps: ConnectionCommandDeps): Promise<ConnectionReport> {
  await deps.connection.update();
  const serverUrl = readServerUrl();
  const client = await requireServer(deps, { action: 'connect', retry: () => testConnection(deps) }, (offline) =>
    offline ? vscode.l10n.t('No server is configured: the Flags view reads the export files of the workspace.') : vscode.l10n.t('No server is configured.'),
  );
  if ('error' in client) return { ok: false, message: client.error };
  try {
    const info = await withCancellableProgress(vscode.l10n.t('Testing the connection to {0}…', client.baseUrl.host), (signal) => client.getServerInfo({ signal }));
    const tokenSource =
      (await deps.tokens.source(serverUrl)) === 'env' ? vscode.l10n.t('the {0} environment variable', TOKEN_ENV_VAR) : vscode.l10n.t('secret storage');
    const version = info.version ?? vscode.l10n.t('(unknown version)');
    const message = info.edition
      ? vscode.l10n.t('Connected to Unleash {0} ({1}) at {2}. The token from {3} can read the Admin API.', version, info.edition, client.baseUrl.host, tokenSource)
      : vscode.l10n.t('Connected to Unleash {0} at {1}. The token from {2} can read the Admin API.', version, client.baseUrl.host, tokenSource);
    const problem = deps.store && lastListingProblem(deps.store, client.baseUrl.host);
    if (problem) {
      const warning = `${message} ${problem}`;
      deps.logger.warn(warning);
      void vscode.window.showWarningMessage(warning);
      return { ok: true, message: warning };
    }
    deps.logger.info(message);
    void vscode.window.showInformationMessage(message);
    return { ok: true, message };
  } catch (error) {
    return { ok: false, message: failWith(error, deps.logger, { action: 'connect', server: client.baseUrl.host, retry: () => testConnection(deps) }).error };
  }
}

/**
 * What the last listing of this server could not read, in a sentence: a working connection does not mean every
 * project lists (a real server fails one project's listing on a flag named `constructor`, for one).
 */
function lastListingProblem(store: NonNullable<ConnectionCommandDeps['store']>, host: string): string | undefined {
  if (store.currentSource?.kind !== 'server') return undefined;
  const [first] = store.failures;
  if (first) {
    const projects = joinValues(store.failures.map((failure) => clean(failure.project, 60)));
    const reason = formatError(first.error, { server: host, request: true }).message;
    return pluralForm(store.failures.length, {
      one: vscode.l10n.t('But the last listing could not read project {0}: {1} Its row in the Flags view says more.', projects, reason),
      other: vscode.l10n.t('But the last listing could not read projects {0}: {1} Their rows in the Flags view say more.', projects, reason),
    });
  }
  if (store.outOfDate === undefined) return undefined;
  const reason = formatError(store.outOfDate, { server: host, request: true }).message;
  return vscode.l10n.t('But the last refresh failed, so the Flags view shows older flags: {0}', reason);
}
