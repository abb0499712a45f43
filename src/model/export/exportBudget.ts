/**
 * How large one export may be (`unleash.export.maxMegabytes`), and what to say when the server's answer is larger:
 * how large it is, which smaller scopes fit (the projects, else the tags, whose share of the answer is within the
 * budget, estimated from the flags the Flags view lists), and how far to raise the setting.
 */
import * as l10n from '@vscode/l10n';
import type { ExportScope } from '../../api/exportQuery';
import type { AnswerTooLargeError } from '../../api/errors';
import { formatByteSize } from '../../base/byteSize';
import { SETTING_LIMITS } from '../settings/settingRules';
import { formatTag, tagText } from '../tags/tagInput';
import { currentLocale } from '../text/intl';
import { formatList } from '../text/plainText';

const EXPORT_BUDGET_SETTING = 'unleash.export.maxMegabytes';

const MIB = 1024 * 1024;

/** The default budget of one export, in bytes of the server's answer. */
export const DEFAULT_EXPORT_MAX_BYTES = SETTING_LIMITS['export.maxMegabytes'].default * MIB;

/** How far an answer of undeclared size is counted past the budget, to say how large it is: the setting's largest value. */
export const EXPORT_MEASURE_BYTES = SETTING_LIMITS['export.maxMegabytes'].maximum * MIB;

/**
 * Most list elements (flags, strategies, tags…) an answer of `maxBytes` may hold: each costs the layout its place and
 * sort keys (a few hundred bytes of memory) whatever its size, so that tiny rows are bounded too. A real export's rows
 * take 300 bytes on average (50,000 flags: 245,000 rows, 74 MB); this allows twice as many as such rows would.
 */
export function maxExportRows(maxBytes: number): number {
  return Math.max(10_000, Math.floor(maxBytes / 150));
}

/** `812 B`, `12.4 KB`, `3.1 MB`, the number written in the editor's language. */
export function formatSize(bytes: number): string {
  return formatByteSize(bytes, currentLocale());
}

/** A flag as the Flags view lists it: enough to estimate each scope's share of an export. */
export interface ListedFlag {
  name: string;
  project?: string;
  tags?: ReadonlyArray<{ type: string; value: string }> | null;
}

/** The smaller scopes whose estimated share of the answer fits the budget, largest first. */
interface FittingScopes {
  projects: string[];
  tags: string[];
}

/** An export larger than the budget: nothing was written. The message says how large, what fits and what to raise. */
export class ExportTooLargeError extends Error {
  readonly setting = EXPORT_BUDGET_SETTING;
  constructor(
    message: string,
    /** The answer's size (`exact`), or how much of it was counted (it is larger). */
    readonly bytes: number,
    readonly exact: boolean,
    /** The budget, bytes. */
    readonly limit: number,
    readonly fits: FittingScopes,
  ) {
    super(message);
    this.name = 'ExportTooLargeError';
  }
}

/**
 * The error to show for an export answer over the budget. `flags`: what the Flags view lists (for the estimate);
 * without them the message offers the kinds of scope without naming any.
 */
export function exportTooLarge(
  answer: Pick<AnswerTooLargeError, 'bytes' | 'exact' | 'limit'>,
  context: { environment: string; scope: ExportScope; flags?: readonly ListedFlag[] },
): ExportTooLargeError {
  const { bytes, exact, limit } = answer;
  const fits = fittingScopes(bytes, limit, context.scope, context.flags ?? []);
  const head = exact
    ? l10n.t('The export of {0} is {1}; one export may take {2} ({3}).', what(context), formatSize(bytes), formatSize(limit), EXPORT_BUDGET_SETTING)
    : l10n.t('The export of {0} is more than {1}; one export may take {2} ({3}).', what(context), formatSize(bytes), formatSize(limit), EXPORT_BUDGET_SETTING);
  const needed = Math.ceil(bytes / MIB);
  const scopes = scopeAdvice(fits);
  const raise =
    exact && needed <= SETTING_LIMITS['export.maxMegabytes'].maximum
      ? l10n.t('{0}, or raise {1} to {2}.', scopes, EXPORT_BUDGET_SETTING, needed)
      : l10n.t('{0}; raising {1} does not help past its largest value, {2}.', scopes, EXPORT_BUDGET_SETTING, SETTING_LIMITS['export.maxMegabytes'].maximum);
  return new ExportTooLargeError(`${head} ${raise} ${l10n.t('Nothing was written.')}`, bytes, exact, limit, fits);
}

/**
 * The error to show for an export answer of more rows (flags, strategies, tags…) than one export of this budget may
 * hold (`maxExportRows`): the rows are what the layout keeps in memory, whatever their size.
 */
export function exportTooManyRows(maxRows: number, context: { environment: string; scope: ExportScope; flags?: readonly ListedFlag[] }): ExportTooLargeError {
  const fits = fittingScopes(maxRows + 1, maxRows, context.scope, context.flags ?? []);
  const head = l10n.t(
    'The export of {0} holds more than {1} rows (flags, strategies, tags…), more than one export may hold ({2}).',
    what(context),
    maxRows,
    EXPORT_BUDGET_SETTING,
  );
  const advice = l10n.t('{0}, or raise {1}.', scopeAdvice(fits), EXPORT_BUDGET_SETTING);
  return new ExportTooLargeError(`${head} ${advice} ${l10n.t('Nothing was written.')}`, 0, false, 0, fits);
}

/** `development`, or `development (project checkout)`. */
function what(context: { environment: string; scope: ExportScope }): string {
  return context.scope.kind === 'all' ? context.environment : l10n.t('{0} ({1})', context.environment, scopeText(context.scope));
}

/** The smaller scopes to export instead: the projects that fit, else the tags, else the kinds of scope. */
function scopeAdvice(fits: FittingScopes): string {
  const list = (values: string[]) => formatList(values, { maxItems: 5, maxItem: 60, budget: 200 });
  if (fits.projects.length) return l10n.t('Export one project at a time (these fit: {0})', list(fits.projects));
  if (fits.tags.length) return l10n.t('No single project fits: export one tag at a time (these fit: {0})', list(fits.tags));
  return l10n.t('Export one project or one tag at a time');
}

/** `project checkout`, `tag team:payments`, `3 chosen flags`. */
function scopeText(scope: ExportScope): string {
  switch (scope.kind) {
    case 'all':
      return l10n.t('all flags');
    case 'project':
      return l10n.t('project {0}', scope.project);
    case 'tag':
      return l10n.t('tag {0}', tagText(scope));
    case 'features':
      return l10n.t('{0} chosen flags', scope.names.length);
  }
}

/**
 * The projects (for an export of all flags) and tags (for all flags or a project) whose flags' share of the answer
 * (`amount`: bytes, or rows), at the answer's amount per flag of the scope, is within `limit`; largest first, then by
 * name.
 */
function fittingScopes(amount: number, limit: number, scope: ExportScope, flags: readonly ListedFlag[]): FittingScopes {
  const inScope = flags.filter((flag) => (scope.kind === 'project' ? (flag.project ?? 'default') === scope.project : scope.kind === 'all'));
  if (inScope.length === 0) return { projects: [], tags: [] };
  const perFlag = amount / inScope.length;
  const fitting = (counts: Map<string, number>): string[] =>
    [...counts]
      .filter(([, count]) => count * perFlag <= limit)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([name]) => name);
  const projects = new Map<string, number>();
  const tags = new Map<string, number>();
  for (const flag of inScope) {
    const project = flag.project ?? 'default';
    projects.set(project, (projects.get(project) ?? 0) + 1);
    for (const tag of new Set((flag.tags ?? []).map(formatTag))) tags.set(tag, (tags.get(tag) ?? 0) + 1);
  }
  return { projects: scope.kind === 'all' && projects.size > 1 ? fitting(projects) : [], tags: fitting(tags) };
}
