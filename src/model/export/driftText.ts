/**
 * Drift in words: the export file's row in the Export Files view, its tooltip, the diagnostics on the file, and the
 * status bar. Flag, project and environment names come from the file and the server: cleaned, bounded, and escaped
 * where markdown renders them.
 */
import * as l10n from '@vscode/l10n';
import { joinValues, pluralForm } from '../text/intl';
import { plainMarkdown } from '../text/markdown';
import { clean } from '../text/plainText';
import { driftCount, type Drift, type DriftFlag } from './exportDrift';

/** Flags named per kind of change in a tooltip or a message; the rest are counted. */
const NAMED = 10;
const MAX_NAME = 80;

export type DriftKind = keyof Drift;
export const DRIFT_KINDS: readonly DriftKind[] = ['added', 'removed', 'enabled', 'disabled'];

/** `2 changes on the server`, `matches the server`. */
export function driftDescription(drift: Drift): string {
  const n = driftCount(drift);
  if (n === 0) return l10n.t('matches the server');
  return pluralForm(n, { one: l10n.t('{0} change on the server', n), other: l10n.t('{0} changes on the server', n) });
}

/** `1 flag added`, `2 removed or archived`, `1 enabled in production`, … */
function kindCount(kind: DriftKind, n: number, environment: string): string {
  const env = clean(environment, 40);
  switch (kind) {
    case 'added':
      return pluralForm(n, { one: l10n.t('{0} flag added', n), other: l10n.t('{0} flags added', n) });
    case 'removed':
      return pluralForm(n, { one: l10n.t('{0} flag removed or archived', n), other: l10n.t('{0} flags removed or archived', n) });
    case 'enabled':
      return pluralForm(n, { one: l10n.t('{0} flag enabled in {1}', n, env), other: l10n.t('{0} flags enabled in {1}', n, env) });
    case 'disabled':
      return pluralForm(n, { one: l10n.t('{0} flag disabled in {1}', n, env), other: l10n.t('{0} flags disabled in {1}', n, env) });
  }
}

/** `1 flag added, 1 flag disabled in development`: the counts of the changes there are. */
export function driftSummary(drift: Drift, environment: string): string {
  return joinValues(DRIFT_KINDS.filter((kind) => drift[kind].length > 0).map((kind) => kindCount(kind, drift[kind].length, environment)));
}

/** A flag as a row or a message names it: `name` (`name (project)` outside `default`). */
export function driftFlagName(flag: DriftFlag): string {
  const name = clean(flag.name, MAX_NAME);
  return flag.project === 'default' ? name : l10n.t('{0} (project {1})', name, clean(flag.project, 60));
}

/** The names of one kind, at most NAMED, then how many more. */
function names(flags: readonly DriftFlag[]): string {
  const shown = flags.slice(0, NAMED).map(driftFlagName);
  const rest = flags.length - shown.length;
  if (rest > 0) shown.push(pluralForm(rest, { one: l10n.t('{0} more', rest), other: l10n.t('{0} more', rest) }));
  return joinValues(shown);
}

/** The tooltip of an export file's row: what changed on the server, by kind, as markdown. */
export function driftTooltip(path: string, server: string, drift: Drift, environment: string): string {
  const head = `**${plainMarkdown(path, 200)}**`;
  if (driftCount(drift) === 0) return `${head}\n\n${l10n.t('Matches the flags listed from {0} (added, removed, enabled and disabled flags are checked at each refresh).', plainMarkdown(server, 100))}`;
  const lines = DRIFT_KINDS.filter((kind) => drift[kind].length > 0).map(
    (kind) => `- ${plainMarkdown(kindCount(kind, drift[kind].length, environment), 200)}: ${plainMarkdown(names(drift[kind]), 1_000)}`,
  );
  return [
    head,
    l10n.t('Changed on {0} since this file was written:', plainMarkdown(server, 100)),
    lines.join('\n'),
    l10n.t('_Compare Export with Server…_ shows every difference; _Update Export_ writes the file again.'),
  ].join('\n\n');
}

/** The diagnostic at the top of the file: what changed, and what to do. */
export function driftMessage(server: string, drift: Drift, environment: string): string {
  const changes = DRIFT_KINDS.filter((kind) => drift[kind].length > 0).map((kind) => `${kindCount(kind, drift[kind].length, environment)} (${names(drift[kind])})`);
  return l10n.t(
    'This export is out of date with {0}: {1}. Run "Unleash: Compare Export with Server…" to see every difference, or "Unleash: Update Export" to write it again.',
    clean(server, 100),
    changes.join('; '),
  );
}

/** The diagnostic on one flag's entry in the file. */
export function driftFlagMessage(kind: Exclude<DriftKind, 'added'>, flag: DriftFlag, server: string, environment: string): string {
  const name = driftFlagName(flag);
  const where = clean(server, 100);
  const env = clean(environment, 40);
  switch (kind) {
    case 'removed':
      return l10n.t('{0} is no longer listed on {1} (archived or deleted); this export still holds it.', name, where);
    case 'enabled':
      return l10n.t('{0} is enabled in {1} on {2}; this export says disabled.', name, env, where);
    case 'disabled':
      return l10n.t('{0} is disabled in {1} on {2}; this export says enabled.', name, env, where);
  }
}
