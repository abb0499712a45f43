/**
 * List settings a workspace can write: each is read within the intake budget (INTAKE_BUDGET.settingItems entries of
 * at most settingItemChars characters), and what is past it is left out and said in the log, as a bad value is.
 */
import * as l10n from '@vscode/l10n';
import { settingId, Settings } from '../../base/constants';
import { INTAKE_BUDGET } from '../../base/intakeBudget';
import type { NameTransform } from '../code/nameTransforms';
import { jsonPreview } from '../text/jsonPreview';

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
