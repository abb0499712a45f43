/**
 * The rules that keep settings from doing harm: which scope a value may come from, the limits numeric settings are
 * clamped to (the manifest declares the same ones; a test checks), and what a server address risks. A cloned
 * repository's `.vscode/settings.json` is untrusted: it never decides how TLS is checked, and a server it names gets
 * no token until the user has allowed that server's address (`serverKey`).
 */

import * as l10n from '@vscode/l10n';
import { baseUrlText, isLoopback, parseBaseUrl } from '../../api/baseUrl';
import { settingId, Settings } from '../../base/constants';
import { INTAKE_BUDGET } from '../../base/intakeBudget';
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

// ---------------------------------------------------------------------------------------------------------------
// List settings a workspace can write: each is read within the intake budget (INTAKE_BUDGET.settingItems entries of
// at most settingItemChars characters), and what is past it is left out and said in the log, as a bad value is.

/** What was wrong with a setting, left out: the log says `Setting <setting>: <problem>; ignored.` */
export interface SettingProblem {
  /** The setting's id (`unleash.hover.sdkCalls`). */
  setting: string;
  problem: string;
}

/** The first INTAKE_BUDGET.settingItems entries of a list setting (none when it is not a list); a cut is a problem. */
function boundedList(raw: unknown, setting: string, problems: SettingProblem[]): readonly unknown[] {
  if (!Array.isArray(raw)) return [];
  const max = INTAKE_BUDGET.settingItems;
  if (raw.length <= max) return raw;
  problems.push({ setting, problem: l10n.t('the entries past the first {0} ({1} in all)', max, raw.length) });
  return raw.slice(0, max);
}

/** Is `value` within INTAKE_BUDGET.settingItemChars? A longer one is a problem. */
function withinChars(value: string, setting: string, problems: SettingProblem[]): boolean {
  const max = INTAKE_BUDGET.settingItemChars;
  if (value.length <= max) return true;
  problems.push({ setting, problem: l10n.t('an entry of {0} characters, more than {1}: {2}', value.length, max, jsonPreview(value, 40)) });
  return false;
}

/** The non-blank strings among the first entries of a list setting, each within the budget's characters. */
export function boundedStrings(raw: unknown, setting: string, problems: SettingProblem[] = []): string[] {
  return boundedList(raw, setting, problems).filter(
    (item): item is string => typeof item === 'string' && item.trim() !== '' && withinChars(item, setting, problems),
  );
}

/**
 * An object setting a workspace can write (`unleash.diagnostics.severity`) with at most INTAKE_BUDGET.settingItems of
 * its keys, the first ones; anything but a plain object is handed on as it is, for its reader to refuse.
 */
export function boundedObject(raw: unknown, setting: string, problems: SettingProblem[]): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const max = INTAKE_BUDGET.settingItems;
  const result: Record<string, unknown> = {};
  let keys = 0;
  for (const key in raw) {
    if (!Object.prototype.hasOwnProperty.call(raw, key)) continue;
    if (keys++ === max) {
      problems.push({ setting, problem: l10n.t('the keys past the first {0}', max) });
      break;
    }
    result[key] = (raw as Record<string, unknown>)[key];
  }
  return result;
}

// How code names flags: `unleash.hover.*` (hovers, completion, diagnostics and Find Usages read the same values)

const TRANSFORM_KINDS = new Set(['screamingSnakeToKebab', 'snakeToKebab', 'camelToKebab']);
/** Chains inside chains, at most. */
const MAX_CHAIN_DEPTH = 4;

/**
 * The name transforms of the settings that are well-formed; the others are left out and said in `problems`. Every
 * transform counts against the budget's entries, those inside a chain too: each costs work on every identifier.
 */
export function validTransforms(raw: unknown, problems: SettingProblem[] = []): NameTransform[] {
  const setting = settingId(Settings.hoverNameTransforms);
  const budget = { left: INTAKE_BUDGET.settingItems, cut: false };
  const result = transformsWithin(boundedList(raw, setting, problems), problems, 0, budget);
  if (budget.cut) {
    problems.push({ setting, problem: l10n.t('the transforms past the first {0} (those inside a chain count too)', INTAKE_BUDGET.settingItems) });
  }
  return result;
}

function transformsWithin(raw: readonly unknown[], problems: SettingProblem[], depth: number, budget: { left: number; cut: boolean }): NameTransform[] {
  const setting = settingId(Settings.hoverNameTransforms);
  const result: NameTransform[] = [];
  for (const item of raw) {
    if (budget.left === 0) {
      budget.cut = true;
      break;
    }
    budget.left--;
    const kind = typeof item === 'object' && item !== null ? (item as { kind?: unknown }).kind : undefined;
    if (typeof kind === 'string' && TRANSFORM_KINDS.has(kind)) {
      result.push({ kind } as NameTransform);
    } else if (kind === 'prefix' || kind === 'suffix') {
      const value = (item as { value?: unknown }).value;
      if (typeof value !== 'string' || value === '') problems.push({ setting, problem: l10n.t('a "{0}" transform needs a non-empty "value"', kind) });
      else if (withinChars(value, setting, problems)) result.push({ kind, value });
    } else if (kind === 'chain' && depth < MAX_CHAIN_DEPTH) {
      const inner = (item as { transforms?: unknown }).transforms;
      const transforms = Array.isArray(inner) ? transformsWithin(inner, problems, depth + 1, budget) : [];
      if (transforms.length > 0) result.push({ kind: 'chain', transforms });
      else problems.push({ setting, problem: l10n.t('a "chain" transform needs "transforms"') });
    } else {
      problems.push({ setting, problem: l10n.t('unknown transform {0}', jsonPreview(item, 80)) });
    }
  }
  return result;
}

/** A callee as `sdkCalls.ts` recognises one: identifier characters, and a last `?` or `!` (Ruby, Kotlin). */
const CALLEE = /^[A-Za-z0-9_$]+[?!]?$/;

/**
 * The SDK calls of the settings (the first entries, each a function name), or undefined for the built-in list. A
 * name no call can have (`client.isEnabled`, a space) is left out and said in `problems`.
 */
export function validSdkCalls(raw: unknown, problems: SettingProblem[] = []): string[] | undefined {
  const setting = settingId(Settings.hoverSdkCalls);
  const calls = boundedStrings(raw, setting, problems).filter((call) => {
    if (CALLEE.test(call)) return true;
    problems.push({ setting, problem: l10n.t('{0} is not a function name (letters, digits, _ and $, and a last ? or !)', jsonPreview(call, 60)) });
    return false;
  });
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
export function languageFilters(languages: unknown, schemes: readonly string[] = ['file', 'untitled'], problems: SettingProblem[] = []): LanguageFilter[] {
  const ids = boundedStrings(languages, settingId(Settings.hoverLanguages), problems).map((id) => id.trim());
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
 * Most projects `unleash.projects` may name: each is one request on every listing and refresh. As many as the listing
 * reads one request each when no projects are named.
 */
export const MAX_PROJECTS = INTAKE_BUDGET.settingProjects;

/**
 * The projects the one Flags view lists when each folder may name its own: the union of the folders' lists, in the
 * order first named, at most MAX_PROJECTS, and when more were named (or a name is longer than the budget allows),
 * what to tell the user. A folder with an empty list adds nothing; when every list is empty, every project is listed
 * (the empty result). Past MAX_PROJECTS, the entries are only counted.
 */
export function projectsOf(lists: readonly unknown[]): { projects: string[]; note?: string } {
  const setting = settingId(Settings.projects);
  const projects = new Set<string>();
  const problems: SettingProblem[] = [];
  // Entries read once MAX_PROJECTS + 1 projects are known: counted for the message (a repeat too), never kept.
  let beyond = 0;
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const project of list as unknown[]) {
      if (typeof project !== 'string' || !project.trim()) continue;
      if (projects.size > MAX_PROJECTS) beyond++;
      // Only the first name too long is quoted: the message stays one sentence.
      else if (project.length <= INTAKE_BUDGET.settingItemChars || (problems.length === 0 && withinChars(project, setting, problems))) projects.add(project.trim());
    }
  }
  const tooLong = problems.map(({ problem }) => l10n.t('{0}: {1}; ignored.', setting, problem));
  if (projects.size <= MAX_PROJECTS) return tooLong.length ? { projects: [...projects], note: tooLong.join(' ') } : { projects: [...projects] };
  const note = l10n.t(
    '{0} names {1} projects, more than the {2} the Flags view lists (each is one request on every refresh): only the first {2} are shown. Name at most {2} projects, or leave the setting empty to list every project.',
    setting,
    projects.size + beyond,
    MAX_PROJECTS,
  );
  return { projects: [...projects].slice(0, MAX_PROJECTS), note: [note, ...tooLong].join(' ') };
}
