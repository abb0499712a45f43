/**
 * What the Problems panel says about the flag names code reads: a typo, an archived flag, a flag ready to remove
 * (stale, or lifecycle `completed`), a flag off everywhere; each status is the store's, so the Problems panel says
 * what the row and the hover say. Messages are plain text (the Problems panel renders no markdown), one bounded line.
 */
import * as l10n from '@vscode/l10n';
import type { FeatureSummary } from '../../api/schemas';
import type { Catalog } from '../store/catalog';
import { completedAdvice, flagStatus, isCompleted, type FlagStatus } from '../store/flagStatus';
import type { FlagNameIndex } from './flagNameIndex';
import { findFlagReferencesInSlices, type FlagReference, type ReferenceOptions } from './flagReferences';
import { FlagSuggester, MAX_SUGGESTED_PER_DOCUMENT } from './flagSuggestions';
import { TimeSlices } from '../../base/timeSlices';
import { joinAlternatives, pluralForm } from '../text/intl';
import { lifecycleStage, quotedFlagName } from '../text/flagText';
import { jsonPreview } from '../text/jsonPreview';
import { clean, formatList } from '../text/plainText';

export type FlagDiagnosticKind = 'unknown' | 'archived' | 'completed' | 'stale' | 'disabled';

/** Checked in this order; a reference gets the first kind that applies and is not turned off. */
const DIAGNOSTIC_KINDS: readonly FlagDiagnosticKind[] = ['unknown', 'archived', 'completed', 'stale', 'disabled'];

/** The code shown beside each diagnostic (and matched by code actions). */
const DIAGNOSTIC_CODES: Readonly<Record<FlagDiagnosticKind, string>> = {
  unknown: 'unknown-flag',
  archived: 'archived-flag',
  completed: 'completed-flag',
  stale: 'stale-flag',
  disabled: 'disabled-flag',
};

/** The `source` of every diagnostic. */
export const DIAGNOSTIC_SOURCE = 'Unleash';

export type SeverityName = 'error' | 'warning' | 'information' | 'hint' | 'off';
export type Severities = Readonly<Record<FlagDiagnosticKind, SeverityName>>;

export const DEFAULT_SEVERITIES: Severities = {
  unknown: 'warning',
  archived: 'warning',
  completed: 'information',
  stale: 'information',
  disabled: 'hint',
};

const SEVERITY_NAMES = new Set<string>(['error', 'warning', 'information', 'hint', 'off']);

/** The severities of the `unleash.diagnostics.severity` setting; unknown keys and values are reported and left out. */
export function severitiesFrom(raw: unknown, problems: string[] = []): Severities {
  const result: Record<FlagDiagnosticKind, SeverityName> = { ...DEFAULT_SEVERITIES };
  if (raw === undefined || raw === null) return result;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push(l10n.t('expected an object such as {0}', '{"stale": "off"}'));
    return result;
  }
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!(DIAGNOSTIC_KINDS as readonly string[]).includes(key)) {
      problems.push(l10n.t('unknown kind {0} (use {1})', JSON.stringify(clean(key, 40)), DIAGNOSTIC_KINDS.join(', ')));
    } else if (typeof value !== 'string' || !SEVERITY_NAMES.has(value)) {
      problems.push(l10n.t('{0}: {1} is not one of error, warning, information, hint, off', key, jsonPreview(value, 40)));
    } else {
      result[key as FlagDiagnosticKind] = value as SeverityName;
    }
  }
  return result;
}

export interface FlagDiagnostic {
  line: number;
  start: number;
  end: number;
  kind: FlagDiagnosticKind;
  code: string;
  severity: Exclude<SeverityName, 'off'>;
  message: string;
  /** The text in the code. */
  text: string;
  /** The flag it names (the first project's, when several have it); none for `unknown`. */
  flag?: { project: string; name: string };
  /** The flag is not in the listing (an archived flag found by name): the Flags tree does not show it. */
  unlisted?: boolean;
  /** For `unknown`: known names to replace it with, closest first. */
  suggestions: readonly string[];
  /** For `unknown`: the name was not looked up among archived flags yet (the publisher asks, and holds it back). */
  awaitsLookup?: boolean;
}

export interface AnalysisOptions extends ReferenceOptions {
  severities?: Severities;
  /** Where the flags come from, for "No flag named … on <label>". */
  sourceLabel: string;
  sourceKind: 'server' | 'files';
  /** A listed flag's one status (FlagStore.status); without it, the listing row's. */
  status?: (flag: FeatureSummary) => FlagStatus;
  /**
   * A name the listing lacks, among archived flags (FlagStore.peekArchived): the flag, null for none (or a lookup
   * that failed), undefined when not looked up yet. Absent where the source cannot tell (export files).
   */
  archived?: (name: string) => FeatureSummary | null | undefined;
}

/**
 * Diagnostics for one catalog. Build once per catalog (the name index and the suggestions' index live here), then
 * `analyse` each document: in time slices, with "Did you mean" for at most MAX_SUGGESTED_PER_DOCUMENT distinct
 * unknown names (the others are reported without).
 */
export class FlagAnalyzer {
  private readonly index: FlagNameIndex;
  private suggester: Promise<FlagSuggester> | undefined;

  constructor(readonly catalog: Catalog) {
    this.index = catalog.nameIndex;
  }

  get nameIndex(): FlagNameIndex {
    return this.index;
  }

  async analyse(text: string, options: AnalysisOptions, slices = new TimeSlices()): Promise<FlagDiagnostic[]> {
    const severities = options.severities ?? DEFAULT_SEVERITIES;
    if (DIAGNOSTIC_KINDS.every((kind) => severities[kind] === 'off')) return [];
    const found: FlagDiagnostic[] = [];
    // What a known name gets depends on its flags only: judged once per name (a name can be in many projects).
    const verdicts = new Map<string, FlagDiagnostic | undefined>();
    for (const reference of await findFlagReferencesInSlices(text, this.index, options, slices)) {
      if (slices.due()) await slices.next();
      const known = reference.name !== undefined && verdicts.has(reference.name);
      const verdict = known ? verdicts.get(reference.name as string) : this.diagnose(reference, severities, options);
      if (reference.name !== undefined && !known && verdict?.kind !== 'unknown') verdicts.set(reference.name, verdict);
      if (verdict) found.push({ ...verdict, line: reference.line, start: reference.start, end: reference.end, text: reference.text });
    }
    return this.suggest(found, options, slices);
  }

  /** The unknown names' diagnostics with their suggestions, for the first MAX_SUGGESTED_PER_DOCUMENT names. */
  private async suggest(found: FlagDiagnostic[], options: AnalysisOptions, slices: TimeSlices): Promise<FlagDiagnostic[]> {
    const texts = new Set<string>();
    for (const diagnostic of found) {
      if (texts.size >= MAX_SUGGESTED_PER_DOCUMENT) break;
      if (diagnostic.kind === 'unknown') texts.add(diagnostic.text);
    }
    if (texts.size === 0) return found;
    const suggester = await (this.suggester ??= FlagSuggester.build(this.index.names(), slices));
    const suggestions = new Map<string, readonly string[]>();
    for (const text of texts) {
      if (slices.due()) await slices.next();
      const near = suggester.suggest(text);
      if (near.length > 0) suggestions.set(text, near);
    }
    return found.map((diagnostic) => {
      const near = diagnostic.kind === 'unknown' ? suggestions.get(diagnostic.text) : undefined;
      return near ? { ...diagnostic, suggestions: near, message: diagnosticMessage('unknown', diagnostic, [], near, options) } : diagnostic;
    });
  }

  /** The verdict on one reference; an unknown name's suggestions are added after (`suggest`). */
  private diagnose(reference: FlagReference, severities: Severities, options: AnalysisOptions): FlagDiagnostic | undefined {
    const listed = reference.name === undefined ? [] : this.catalog.byName(reference.name);
    // A name the listing lacks: an archived flag's, when the lookup found one.
    const archived = listed.length === 0 ? options.archived?.(reference.text) : undefined;
    const flags = archived ? [archived] : listed;
    const statusOf = options.status ?? ((flag: FeatureSummary) => flagStatus(flag));
    const statuses = archived ? [flagStatus(archived)] : listed.map(statusOf);
    for (const kind of DIAGNOSTIC_KINDS) {
      const severity = severities[kind];
      if (severity === 'off' || !applies(kind, flags, statuses)) continue;
      const diagnostic: FlagDiagnostic = {
        line: reference.line,
        start: reference.start,
        end: reference.end,
        kind,
        code: DIAGNOSTIC_CODES[kind],
        severity,
        message: diagnosticMessage(kind, reference, flags, [], options, statuses),
        text: reference.text,
        suggestions: [],
      };
      const first = flags[0];
      if (first) diagnostic.flag = { project: first.project ?? '', name: first.name };
      if (archived) diagnostic.unlisted = true;
      if (kind === 'unknown' && archived === undefined && options.archived !== undefined) diagnostic.awaitsLookup = true;
      return diagnostic;
    }
    return undefined;
  }
}

function applies(kind: FlagDiagnosticKind, flags: readonly FeatureSummary[], statuses: readonly FlagStatus[]): boolean {
  switch (kind) {
    case 'unknown':
      return flags.length === 0;
    case 'archived':
      return statuses.length > 0 && statuses.every((status) => status.archived);
    case 'completed':
      return statuses.some(isCompleted);
    case 'stale':
      return statuses.some((status) => status.stale);
    case 'disabled': {
      const environments = flags.flatMap((flag) => flag.environments ?? []);
      return environments.length > 0 && environments.every((env) => !env.enabled);
    }
  }
}


function projectsOf(flags: readonly FeatureSummary[]): string {
  const projects = [...new Set(flags.map((flag) => flag.project ?? ''))].filter((project) => project !== '');
  if (projects.length === 0) return '';
  const list = formatList(projects, { maxItems: 3, maxItem: 40, budget: 120 });
  return ` ${pluralForm(projects.length, { one: l10n.t('(project {0})', list), other: l10n.t('(projects {0})', list) })}`;
}

function diagnosticMessage(
  kind: FlagDiagnosticKind,
  reference: Pick<FlagReference, 'text'>,
  flags: readonly FeatureSummary[],
  suggestions: readonly string[],
  options: Pick<AnalysisOptions, 'sourceLabel' | 'sourceKind'>,
  statuses: readonly FlagStatus[] = flags.map((flag) => flagStatus(flag)),
): string {
  const name = quotedFlagName(flags[0]?.name ?? reference.text);
  const where = clean(options.sourceLabel, 80);
  switch (kind) {
    case 'unknown': {
      const server = where === '' ? l10n.t('the server') : where;
      const head = options.sourceKind === 'files' ? l10n.t('No flag named {0} in {1}.', name, server) : l10n.t('No flag named {0} on {1}.', name, server);
      const hint =
        suggestions.length > 0
          ? l10n.t('Did you mean {0}?', joinAlternatives(suggestions.map((s) => quotedFlagName(s))))
          : l10n.t('Check the spelling; the flag may also be archived or in a project this workspace does not read.');
      return `${head} ${hint}`;
    }
    case 'archived':
      return l10n.t('Flag {0}{1} is archived: code reading it always gets the default.', name, projectsOf(flags));
    case 'completed': {
      const completed = statuses.find(isCompleted);
      const stage = completed?.lifecycle ? lifecycleStage(completed.lifecycle) : l10n.t('completed');
      return l10n.t('Flag {0}{1} is {2}: {3}.', name, projectsOf(flags), stage, completed ? completedAdvice(completed) : l10n.t('ready to remove'));
    }
    case 'stale':
      return l10n.t('Flag {0}{1} is marked stale: ready to remove.', name, projectsOf(flags));
    case 'disabled':
      return l10n.t('Flag {0}{1} is disabled in every environment.', name, projectsOf(flags));
  }
}
