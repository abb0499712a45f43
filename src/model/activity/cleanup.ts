/**
 * Flags that are safe to remove, from what the catalog already says (no request): stale, at the `completed` lifecycle
 * stage, or not evaluated for `unusedDays` days (export files carry no times: stale and completed only). And a quick
 * filter of the workspace's files that may name one of them, so only those are searched (flagUsages.ts).
 */
import * as l10n from '@vscode/l10n';
import type { FeatureSummary } from '../../api/schemas';
import type { Catalog } from '../store/catalog';
import { flagSpellings } from '../code/flagSpellings';
import { flagStatus, type FlagStatus } from '../store/flagStatus';
import type { NameTransform } from '../code/nameTransforms';
import { joinValues } from '../text/intl';
import { describeLastSeen } from '../text/flagText';
import { parseIsoUtc } from '../text/plainText';

export type CleanupReason = 'stale' | 'completed' | 'unused';

export interface CleanupCandidate {
  flag: FeatureSummary;
  project: string;
  reasons: CleanupReason[];
  /** When an SDK last evaluated it (any environment), in ms; undefined when never. */
  lastSeen?: number;
}

const DAY = 86_400_000;

/** The latest of the flag's and its environments' `lastSeenAt`. */
function lastSeenOf(flag: FeatureSummary): number | undefined {
  let latest: number | undefined;
  for (const iso of [flag.lastSeenAt, ...(flag.environments ?? []).map((env) => env.lastSeenAt)]) {
    const at = typeof iso === 'string' ? parseIsoUtc(iso) : undefined;
    if (at !== undefined && (latest === undefined || at > latest)) latest = at;
  }
  return latest;
}

/**
 * The catalog's flags that are safe to remove, in the catalog's order (by name). `unusedDays` 0: none for disuse.
 * `status` is each flag's one status (FlagStore.status: what details and stage lists proved beyond the row).
 */
export function cleanupCandidates(catalog: Catalog, now: Date, unusedDays: number, status: (flag: FeatureSummary) => FlagStatus = (flag) => flagStatus(flag)): CleanupCandidate[] {
  const cutoff = now.getTime() - unusedDays * DAY;
  const out: CleanupCandidate[] = [];
  for (const flag of catalog.flags) {
    const { stale, lifecycle } = status(flag);
    const reasons: CleanupReason[] = [];
    if (stale) reasons.push('stale');
    if (lifecycle?.stage.trim() === 'completed') reasons.push('completed');
    const lastSeen = lastSeenOf(flag);
    const created = typeof flag.createdAt === 'string' ? parseIsoUtc(flag.createdAt) : undefined;
    if (unusedDays > 0 && (lastSeen !== undefined ? lastSeen < cutoff : created !== undefined && created < cutoff)) reasons.push('unused');
    if (reasons.length > 0) out.push({ flag, project: flag.project ?? 'default', reasons, lastSeen });
  }
  return out;
}

/** `stale · completed · last seen 45 days ago` / `never evaluated`. */
export function describeReasons(candidate: CleanupCandidate, now: Date): string {
  const parts = candidate.reasons.map((reason) => {
    switch (reason) {
      case 'stale':
        return l10n.t('stale');
      case 'completed':
        return l10n.t('completed');
      case 'unused':
        return candidate.lastSeen === undefined ? l10n.t('never evaluated') : l10n.t('last evaluated {0}', describeLastSeen(new Date(candidate.lastSeen).toISOString(), now));
    }
  });
  return parts.join(' · ');
}

/** Why the view lists flags, for its tooltip and message: `stale, completed, or not evaluated for 30 days`. */
export function cleanupRule(unusedDays: number): string {
  const rules = [l10n.t('marked stale'), l10n.t('completed')];
  if (unusedDays > 0) rules.push(l10n.t('not evaluated for {0} days', unusedDays));
  return joinValues(rules);
}

/** Characters a name may be spelled with in code, as the usage rule sees a token's ends (`continuesName`). */
const TOKEN = /[A-Za-z0-9_$-]+/g;

/**
 * The last run of token characters of each spelling of each name, mapped to the names: a use of a spelling ends with
 * that run as a whole token of the text (a use is never followed by a name character), so a file holding none of
 * them uses none of the names.
 */
export function spellingAnchors(names: readonly string[], transforms: readonly NameTransform[]): Map<string, string[]> {
  const anchors = new Map<string, string[]>();
  for (const name of names) {
    for (const spelling of flagSpellings(name, [...transforms])) {
      const runs = spelling.match(TOKEN);
      const anchor = runs?.[runs.length - 1];
      if (anchor === undefined) continue;
      const list = anchors.get(anchor);
      if (list === undefined) anchors.set(anchor, [name]);
      else if (!list.includes(name)) list.push(name);
    }
  }
  return anchors;
}

/** The names whose anchor is a token of `text`: the only ones worth searching it for. One scan of the text. */
export function namesIn(text: string, anchors: ReadonlyMap<string, readonly string[]>): Set<string> {
  const found = new Set<string>();
  for (const match of text.matchAll(TOKEN)) {
    const names = anchors.get(match[0]);
    if (names) for (const name of names) found.add(name);
  }
  return found;
}

/** Characters of the line kept around a use on each side, at most, for the Cleanup view's excerpt. */
const EXCERPT_CONTEXT = 40;

function isTokenCharacter(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x24 || code === 0x2d;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/**
 * The part of a line around a use (`start`…`end`) that the Cleanup view shows: up to EXCERPT_CONTEXT characters on
 * each side, cut after a space where there is one in reach, else between two tokens, never inside a name
 * (`… and client.is_enabled("old-banner")`); `…` marks a side that was cut.
 */
export function usageExcerpt(line: string, start: number, end: number): string {
  let from = Math.max(0, start - EXCERPT_CONTEXT);
  if (from > 0) {
    let cut = -1;
    for (let i = from; i < start && cut < 0; i++) if (isSpace(line.charCodeAt(i - 1)) && !isSpace(line.charCodeAt(i))) cut = i;
    for (let i = from; i < start && cut < 0; i++) if (!isTokenCharacter(line.charCodeAt(i - 1)) || !isTokenCharacter(line.charCodeAt(i))) cut = i;
    from = cut < 0 ? start : cut;
  }
  let to = Math.min(line.length, end + EXCERPT_CONTEXT);
  if (to < line.length) {
    let cut = -1;
    for (let i = to; i > end && cut < 0; i--) if (isSpace(line.charCodeAt(i)) && !isSpace(line.charCodeAt(i - 1))) cut = i;
    for (let i = to; i > end && cut < 0; i--) if (!isTokenCharacter(line.charCodeAt(i)) || !isTokenCharacter(line.charCodeAt(i - 1))) cut = i;
    to = cut < 0 ? end : cut;
  }
  return `${from > 0 ? '…' : ''}${line.slice(from, to)}${to < line.length ? '…' : ''}`;
}
