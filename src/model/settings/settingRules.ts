/**
 * The rules that keep settings from doing harm: which scope a value may come from, the limits numeric settings are
 * clamped to (the manifest declares the same ones; a test checks), and what a server address risks. A cloned
 * repository's `.vscode/settings.json` is untrusted: it never decides how TLS is checked, and a server it names gets
 * no token until the user has allowed that server's address (`serverKey`).
 */

import * as l10n from '@vscode/l10n';
import { baseUrlText, parseBaseUrl } from '../../api/baseUrl';
import { settingId, Settings } from '../../base/constants';
import type { NameTransform } from '../code/nameTransforms';
import { jsonPreview } from '../text/jsonPreview';
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

/** localhost, 127.0.0.0/8, ::1: a token sent there over plain HTTP does not cross a network. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The warning for a token about to go over plain `http://` to another machine; undefined when there is no risk. */
export function plainHttpWarning(url: URL): string | undefined {
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return undefined;
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

// ---------------------------------------------------------------------------------------------------------------
// How code names flags: `unleash.hover.*` (hovers, completion, diagnostics and Find Usages read the same values)

const TRANSFORM_KINDS = new Set(['screamingSnakeToKebab', 'snakeToKebab', 'camelToKebab']);

/** The name transforms of the settings that are well-formed; the others are left out and said in `problems`. */
export function validTransforms(raw: unknown, problems: string[] = [], depth = 0): NameTransform[] {
  if (!Array.isArray(raw)) return [];
  const result: NameTransform[] = [];
  for (const item of raw as unknown[]) {
    const kind = typeof item === 'object' && item !== null ? (item as { kind?: unknown }).kind : undefined;
    if (typeof kind === 'string' && TRANSFORM_KINDS.has(kind)) {
      result.push({ kind } as NameTransform);
    } else if (kind === 'prefix' || kind === 'suffix') {
      const value = (item as { value?: unknown }).value;
      if (typeof value === 'string' && value !== '') result.push({ kind, value });
      else problems.push(l10n.t('a "{0}" transform needs a non-empty "value"', kind));
    } else if (kind === 'chain' && depth < 4) {
      const transforms = validTransforms((item as { transforms?: unknown }).transforms, problems, depth + 1);
      if (transforms.length > 0) result.push({ kind: 'chain', transforms });
      else problems.push(l10n.t('a "chain" transform needs "transforms"'));
    } else {
      problems.push(l10n.t('unknown transform {0}', jsonPreview(item, 80)));
    }
  }
  return result;
}

/** The SDK calls of the settings (non-empty names), or undefined for the built-in list. */
export function validSdkCalls(raw: unknown): string[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const calls = raw.filter((call): call is string => typeof call === 'string' && call.trim() !== '');
  return calls.length > 0 ? calls : undefined;
}

/** A document filter, as `vscode.DocumentFilter` has it. */
export interface LanguageFilter {
  scheme: string;
  language?: string;
}

/**
 * The documents `unleash.hover.languages` covers: every document of `schemes` (files and untitled documents; a
 * virtual or browser workspace adds its folders' scheme), or those of its languages.
 */
export function languageFilters(languages: unknown, schemes: readonly string[] = ['file', 'untitled']): LanguageFilter[] {
  const ids = Array.isArray(languages) ? languages.filter((id): id is string => typeof id === 'string' && id.trim() !== '').map((id) => id.trim()) : [];
  if (ids.length === 0 || ids.includes('*')) return schemes.map((scheme) => ({ scheme }));
  return [...new Set(ids)].flatMap((language) => schemes.map((scheme) => ({ scheme, language })));
}

/** The filters of several folders as one selector: every document any folder covers (each folder's own still decides). */
export function unionOfFilters(lists: readonly LanguageFilter[][]): LanguageFilter[] {
  const seen = new Map<string, LanguageFilter>();
  for (const filter of lists.flat()) seen.set(`${filter.scheme}:${filter.language ?? '*'}`, filter);
  const all = [...seen.values()];
  // A folder that covers every language makes the per-language filters of the others redundant.
  const everything = all.filter((filter) => filter.language === undefined);
  return everything.length ? all.filter((filter) => filter.language === undefined || !everything.some((e) => e.scheme === filter.scheme)) : all;
}

// ---------------------------------------------------------------------------------------------------------------
// `unleash.projects` of a multi-root workspace: one Flags view for every folder

/**
 * The projects the one Flags view lists when each folder may name its own: the union of the folders' lists, in the
 * order first named. A folder with an empty list adds nothing; when every list is empty, every project is listed
 * (the empty result).
 */
export function unionOfProjects(lists: readonly unknown[]): string[] {
  const projects = new Set<string>();
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const project of list) if (typeof project === 'string' && project.trim()) projects.add(project.trim());
  }
  return [...projects];
}

/**
 * Most projects `unleash.projects` may name: each is one request on every listing and refresh. As many as the listing
 * reads one request each when no projects are named.
 */
export const MAX_PROJECTS = 200;

/** The projects the Flags view lists: the first MAX_PROJECTS named, and when more were named, what to tell the user. */
export function capProjects(projects: readonly string[]): { projects: string[]; note?: string } {
  if (projects.length <= MAX_PROJECTS) return { projects: [...projects] };
  return {
    projects: projects.slice(0, MAX_PROJECTS),
    note: l10n.t(
      '{0} names {1} projects, more than the {2} the Flags view lists (each is one request on every refresh): only the first {2} are shown. Name at most {2} projects, or leave the setting empty to list every project.',
      settingId(Settings.projects),
      projects.length,
      MAX_PROJECTS,
    ),
  };
}
