/**
 * Segments, dependencies, lifecycle, environments and last-seen times.
 */
import * as l10n from '@vscode/l10n';
import type { Lifecycle, ParentDependency, Segment } from '../../api/schemas';
import { isValidFlagName } from '../code/flagNameRule';
import { timeAgo } from './intl';
import { constraintCount } from './countText';
import { clean, formatList, MAX_DETAIL, MAX_LABEL, parseIsoUtc, showValue, utcDate } from './plainText';

const MAX_NAME = 100;
const MAX_ENVIRONMENT_NAME = 40;

/** What follows a name that breaks Unleash's naming rule, wherever it is shown. */
export function invalidNameMark(): string {
  return l10n.t('(not a valid Unleash name)');
}

/**
 * A flag's name as shown on one line of at most `max` characters: as it is when it keeps Unleash's naming rule
 * (`isValidFlagName`), `(unnamed flag)` when blank, else cleaned, cut and marked:
 * `new check out (not a valid Unleash name)`.
 */
export function flagName(name: string, max: number = MAX_LABEL): string {
  if (isValidFlagName(name)) return clean(name, max);
  if (name.trim() === '') return l10n.t('(unnamed flag)');
  const mark = invalidNameMark();
  return `${clean(name, Math.max(20, max - mark.length - 1))} ${mark}`;
}

/** `"new-checkout"`, or `"new check out" (not a valid Unleash name)`: a name quoted in a sentence. */
export function quotedFlagName(name: string, max = MAX_NAME): string {
  if (isValidFlagName(name)) return `"${clean(name, max)}"`;
  return `"${clean(name, max)}" ${invalidNameMark()}`;
}

interface SegmentText {
  /** The segment's name. */
  readonly label: string;
  /** `project checkout · 2 constraints · Beta users in the EU`, or `global · 0 constraints` without description. */
  readonly detail: string;
}

/** Label and detail for a segment: scope (`project <id>` or `global`), constraint count, description. */
export function describeSegment(seg: Segment): SegmentText {
  const label = seg.name.trim() === '' ? l10n.t('(unnamed segment)') : clean(seg.name, MAX_LABEL);
  const parts: string[] = [];
  const project = seg.project ?? '';
  parts.push(project.trim() === '' ? l10n.t('global') : l10n.t('project {0}', clean(project, 60)));
  parts.push(constraintCount(seg.constraints.length));
  const description = clean(seg.description ?? '', MAX_DETAIL).trim();
  if (description !== '') parts.push(description);
  return { label, detail: clean(parts.join(' · '), MAX_DETAIL) };
}

/**
 * `requires new-checkout-flow enabled`, `requires new-checkout-flow enabled (variants: blue, green)`,
 * `requires legacy-banner disabled`. A dependency without `enabled` means enabled (Unleash's default); variants
 * are only mentioned for an enabled parent, the only case where Unleash uses them.
 */
export function describeDependency(d: ParentDependency): string {
  const feature = flagName(d.feature, MAX_NAME);
  if (d.enabled === false) return l10n.t('requires {0} disabled', feature);
  const variants = d.variants ?? [];
  const text =
    variants.length > 0
      ? l10n.t('requires {0} enabled (variants: {1})', feature, formatList(variants, { budget: 60 }))
      : l10n.t('requires {0} enabled', feature);
  return clean(text, MAX_LABEL);
}

/**
 * `live`, `completed (kept)`, `completed (discarded)`: the stage with the outcome a completed flag was given (the
 * `status` a real server sends with it); `unknown stage` for an empty one.
 */
export function lifecycleStage(l: Lifecycle): string {
  const stage = l.stage.trim() === '' ? l10n.t('unknown stage') : clean(l.stage, 40);
  const status = typeof l.status === 'string' ? clean(l.status, 40).trim() : '';
  return status === '' ? stage : `${stage} (${status})`;
}

/**
 * `live since 2025-01-02`, `completed (kept) since 2025-01-02` (the UTC date of `enteredStageAt`); a date that does
 * not parse is shown as given, and a missing one leaves just the stage.
 */
export function describeLifecycle(l: Lifecycle): string {
  const stage = lifecycleStage(l);
  if (l.enteredStageAt.trim() === '') return stage;
  const ms = parseIsoUtc(l.enteredStageAt);
  return l10n.t('{0} since {1}', stage, ms === undefined ? showValue(l.enteredStageAt, 40) : utcDate(ms));
}

/** `enabled` / `disabled`. */
export function describeEnvironmentState(enabled: boolean): string {
  return enabled ? l10n.t('enabled') : l10n.t('disabled');
}

/** The marks `environmentStrip` uses. */
export const ENABLED_MARK = '●';
export const DISABLED_MARK = '○';

/**
 * `development ● production ○` (● enabled, ○ disabled), in the order given. Names are cut at 40 characters and the
 * whole line at MAX_LABEL, ending `… +3 more` when environments are left out. '' for no environments.
 */
export function environmentStrip(envs: ReadonlyArray<{ name: string; enabled: boolean }>): string {
  let text = '';
  let shown = 0;
  const more = (count: number) => l10n.t('… +{0} more', count);
  const reserve = ` ${more(99999)}`.length;
  for (const env of envs) {
    const name = env.name.trim() === '' ? l10n.t('(unnamed)') : clean(env.name, MAX_ENVIRONMENT_NAME);
    const item = `${name} ${env.enabled ? ENABLED_MARK : DISABLED_MARK}`;
    const next = shown === 0 ? item : `${text} ${item}`;
    const last = shown === envs.length - 1;
    if (next.length > (last ? MAX_LABEL : MAX_LABEL - reserve)) break;
    text = next;
    shown += 1;
  }
  const rest = envs.length - shown;
  return rest > 0 ? `${text}${text === '' ? '' : ' '}${more(rest)}` : text;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * `never` (no time), `just now` (under a minute, or in the future: clock skew), `5 minutes ago`, `1 hour ago`,
 * `3 days ago`, `2 months ago` (30-day months), `1 year ago` (365-day years). `now` is passed in, so the result
 * depends on nothing else. A time that does not parse is shown as given.
 */
export function describeLastSeen(iso: string | null | undefined, now: Date): string {
  if (iso === null || iso === undefined || iso.trim() === '') return l10n.t('never');
  const ms = parseIsoUtc(iso);
  if (ms === undefined) return showValue(iso, 40);
  const elapsed = now.getTime() - ms;
  if (!Number.isFinite(elapsed) || elapsed < MINUTE) return l10n.t('just now');
  if (elapsed < HOUR) return timeAgo(Math.floor(elapsed / MINUTE), 'minute');
  if (elapsed < DAY) return timeAgo(Math.floor(elapsed / HOUR), 'hour');
  const days = Math.floor(elapsed / DAY);
  if (days < 30) return timeAgo(days, 'day');
  if (days < 365) return timeAgo(Math.floor(days / 30), 'month');
  return timeAgo(Math.floor(days / 365), 'year');
}
