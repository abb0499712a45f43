/**
 * The rules that keep settings from doing harm: which scope a value may come from, the limits numeric settings are
 * clamped to (the manifest declares the same ones; a test checks), and what a server address risks. A cloned
 * repository's `.vscode/settings.json` is untrusted: it never decides how TLS is checked, and a server it names gets
 * no token until the user has allowed that server's address (`serverKey`).
 */

import * as l10n from '@vscode/l10n';
import { baseUrlText, isLoopback, parseBaseUrl } from '../../api/baseUrl';
import { settingId, Settings } from '../../base/constants';
import { clean } from '../text/plainText';

/** What `WorkspaceConfiguration.inspect()` answers, the parts read here. */
interface ScopedValues<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/** The user's own value (user settings, or the default): never a workspace's. */
export function userValue<T>(values: ScopedValues<T> | undefined, fallback: T): T {
  return values?.globalValue ?? values?.defaultValue ?? fallback;
}

/** The server address in effect, and whether a workspace (rather than the user) chose it. */
interface ServerChoice {
  url: string;
  fromWorkspace: boolean;
}

/**
 * The effective `unleash.serverUrl`: a workspace folder's value wins over the workspace's, which wins over the
 * user's. In an untrusted workspace only the user's value counts. A workspace value equal to the user's is the
 * user's choice.
 */
export function chooseServer(values: ScopedValues<string> | undefined, trusted: boolean): ServerChoice {
  const user = (values?.globalValue ?? '').trim();
  const workspace = trusted ? workspaceValue(values) : undefined;
  if (workspace === undefined || workspace === user) return { url: user, fromWorkspace: false };
  return { url: workspace, fromWorkspace: true };
}

/** What a workspace (a folder's settings, else the workspace's) sets, trimmed; undefined when it sets nothing. */
export function workspaceValue(values: ScopedValues<string> | undefined): string | undefined {
  return (values?.workspaceFolderValue ?? values?.workspaceValue)?.trim();
}

/**
 * The unit a user allows and a token is kept for: the server's base URL as requests use it (origin and path prefix,
 * `https://host:8443/unleash`; parseBaseUrl drops a trailing slash and `/api/admin`). Undefined when it does not
 * parse. Approvals stored as origins (before the path counted) are the keys of the origins' root paths: they allow
 * that path only, never another path on the same host.
 */
export function serverKey(url: string): string | undefined {
  try {
    return baseUrlText(parseBaseUrl(url));
  } catch {
    return undefined;
  }
}

/** Limits of the numeric settings, as package.json declares them. */
export const SETTING_LIMITS = {
  requestTimeoutSeconds: { minimum: 1, maximum: 300, default: 15 },
  /** 0 means "only on Refresh"; anything else is at least one minute. */
  refreshIntervalMinutes: { minimum: 0, maximum: 1440, default: 0, smallestOn: 1 },
  /** Megabytes of one export's answer (model/export/exportBudget.ts): 50,000 flags answer about 75 MB. */
  'export.maxMegabytes': { minimum: 1, maximum: 2048, default: 256 },
} as const;

/** A number within [minimum, maximum]; the default for anything that is not a finite number. */
export function clampSetting(value: unknown, limits: { minimum: number; maximum: number; default: number; smallestOn?: number }): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return limits.default;
  const clamped = Math.min(limits.maximum, Math.max(limits.minimum, value));
  if (limits.smallestOn !== undefined && clamped > 0 && clamped < limits.smallestOn) return limits.smallestOn;
  // The settings are whole numbers (`integer` in the manifest); a fraction written by hand is rounded.
  return Math.round(clamped);
}

/**
 * The warning for a token about to go over plain `http://` to another machine; undefined when there is no risk
 * (a loopback host, as `isLoopback` defines it: a token sent there does not cross a network).
 */
export function plainHttpWarning(url: URL): string | undefined {
  if (url.protocol !== 'http:' || isLoopback(url)) return undefined;
  return l10n.t(
    "The API token goes to {0} over plain http://, unencrypted: anyone on the network between you can read it. Use the server's https:// address if it has one.",
    url.host,
  );
}

/**
 * The question a user answers before a server that a workspace named gets a token. It shows what will be contacted:
 * the address as requests use it (parsed: a bidi or invisible character of the setting is percent-encoded there, an
 * international host name is in its ASCII form), cleaned and bounded; and the web UI's address when the workspace
 * sets that too, since links to flags open there.
 */
export function approvalQuestion(url: string, workspaceWebUrl?: string): { message: string; detail: string } {
  const parsed = parsedOrUndefined(url);
  const address = shownAddress(url);
  const server = l10n.t(
    "This workspace's settings ({0}) name the server {1}. A cloned repository can name any server: allow it only if you know it. Your answer is remembered for this address only.",
    settingId(Settings.serverUrl),
    address,
  );
  const web = workspaceWebUrl?.trim();
  return {
    message: l10n.t('Send your Unleash API token to {0}?', clean(parsed?.host ?? url)),
    detail: web
      ? `${server} ${l10n.t('They also set {0} to {1}: links to flags will open there.', settingId(Settings.webUrl), clean(hrefOf(web) ?? web))}`
      : server,
  };
}

/**
 * A server address as messages show it: the address requests use (`serverKey`), or the setting's text when it does
 * not parse; cleaned (a bidi or invisible character cannot make it read as another) and bounded.
 */
export function shownAddress(url: string): string {
  return clean(serverKey(url) ?? url);
}

function parsedOrUndefined(url: string): URL | undefined {
  try {
    return parseBaseUrl(url);
  } catch {
    return undefined;
  }
}

function hrefOf(url: string): string | undefined {
  try {
    return new URL(url).href;
  } catch {
    return undefined;
  }
}
