/**
 * A flag's usage where people read it: one markdown line for the hover and the tree tooltip (`**Usage, last 24 h:**
 * production 1,200 (1,100 yes · 100 no)`), and a per-hour table for the details document. Environment, application
 * and variant names are untrusted: cleaned, bounded and escaped in the hover; in the document, where nothing is cut,
 * in full with their invisible characters made visible. Counts are written by `formatCount`.
 */
import * as l10n from '@vscode/l10n';
import type { FeatureMetricsRow } from '../../api/activitySchemas';
import type { Known } from './flagActivity';
import { pluralForm } from '../text/intl';
import { plainMarkdown } from '../text/markdown';
import { clean, visibleText } from '../text/plainText';
import { MAX_VARIANT_KEYS, summaryOf, type EnvironmentUsage, type UsageSummary } from './usageSummary';
import { formatCount, MAX_COUNT } from '../text/countText';

/** Environments named in the one-line form; the rest are counted. */
const LINE_ENVIRONMENTS = 4;
const MAX_NAME = 40;
/** Widest a table column is padded to. */
const MAX_COLUMN = 40;

/** A count's sum that stops at MAX_COUNT (yes and no of an environment, each already below it). */
function evaluations(env: EnvironmentUsage): number {
  return Math.min(MAX_COUNT, env.yes + env.no);
}

/** `production 1,200 (1,100 yes · 100 no)`. */
function environmentPart(env: EnvironmentUsage): string {
  return l10n.t('{0} {1} ({2} yes · {3} no)', clean(env.environment, MAX_NAME) || l10n.t('(unnamed)'), formatCount(evaluations(env)), formatCount(env.yes), formatCount(env.no));
}

/** The one line in plain text: `production 1,200 (1,100 yes · 100 no) · …`, or `not evaluated`. */
function usageLineText(summary: UsageSummary): string {
  if (summary.total === 0) return l10n.t('not evaluated');
  const parts = summary.environments.slice(0, LINE_ENVIRONMENTS).map(environmentPart);
  const rest = summary.environments.length - LINE_ENVIRONMENTS + summary.others.environments;
  if (rest > 0) parts.push(pluralForm(rest, { one: l10n.t('{0} more environment', formatCount(rest)), other: l10n.t('{0} more environments', formatCount(rest)) }));
  return parts.join(' · ');
}

/**
 * The hover's and tooltip's line, `**Usage, last 24 h:** …`, or why it is not shown; undefined while it is read.
 */
export function usageMarkdown(known: Known<FeatureMetricsRow[]>, now: Date, hours: number): string | undefined {
  if (known === undefined) return undefined;
  if ('unavailable' in known) {
    return known.forbidden
      ? l10n.t('_Usage not shown: {0}_', plainMarkdown(known.unavailable, 300))
      : l10n.t('_Usage could not be read: {0}_', plainMarkdown(known.unavailable, 300));
  }
  const summary = summaryOf(known.value, now, hours);
  return l10n.t('**Usage, last {0} h:** {1}', hours, plainMarkdown(usageLineText(summary), 600));
}

const BARS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
/** An hour without evaluations. */
const NONE = '·';

/** One character per hour, oldest first: `·` for none, else a bar from `▁` to `█` scaled to the busiest hour. */
export function sparkline(hourly: readonly number[]): string {
  const max = Math.max(0, ...hourly);
  return hourly.map((n) => (n <= 0 || max <= 0 ? NONE : (BARS[Math.max(0, Math.ceil((n / max) * BARS.length) - 1)] as string))).join('');
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

/** The details document's Usage section: a table per environment, a picture of each hour, variants, applications. */
export function usageSection(known: Known<FeatureMetricsRow[]>, now: Date, hours: number): string[] {
  const title = l10n.t('Usage, last {0} hours', hours);
  const lines = ['', title, '-'.repeat(title.length)];
  if (known === undefined) return [...lines, l10n.t('(not read yet: open the details again)')];
  if ('unavailable' in known) return [...lines, l10n.t('Not shown: {0}', known.unavailable)];
  const summary = summaryOf(known.value, now, hours);
  if (summary.total === 0) return [...lines, l10n.t('Not evaluated: no SDK reported this flag in the last {0} hours.', hours)];
  const headers = [l10n.t('Environment'), l10n.t('Evaluations'), l10n.t('Yes'), l10n.t('No'), l10n.t('Per hour, oldest first')];
  const rows = summary.environments.map((env) => [
    visibleText(env.environment) || l10n.t('(unnamed)'),
    formatCount(evaluations(env)),
    formatCount(env.yes),
    formatCount(env.no),
    sparkline(env.hourly),
  ]);
  // A long name is written in full but does not widen its column for the others.
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => Math.min((row[i] as string).length, MAX_COLUMN))));
  // Names to the left, numbers to the right, the picture as it is.
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? pad(cell, widths[0] as number) : i === cells.length - 1 ? cell : cell.padStart(widths[i] as number))).join('  ');
  lines.push(line(headers));
  for (const [index, row] of rows.entries()) {
    lines.push(line(row));
    const env = summary.environments[index] as EnvironmentUsage;
    if (env.variants.length > 0) {
      const named = env.variants.map((variant) => `${visibleText(variant.name) || '""'} ${formatCount(variant.count)}`);
      if (env.otherVariantsUncounted) named.push(l10n.t('others at least {0} (a row of {1} variant counts or more: {1} are read)', formatCount(env.otherVariants), formatCount(MAX_VARIANT_KEYS)));
      else if (env.otherVariants > 0) named.push(l10n.t('others {0}', formatCount(env.otherVariants)));
      lines.push(`  ${l10n.t('Variants: {0}', named.join(', '))}`);
    }
  }
  if (summary.others.environments > 0) {
    lines.push(l10n.t('… and {0} more environments ({1} evaluations)', formatCount(summary.others.environments), formatCount(summary.others.evaluations)));
  }
  const apps = summary.applications.map((app) => visibleText(app));
  const moreApps = summary.applicationCount - apps.length;
  if (apps.length > 0) {
    lines.push('');
    lines.push(moreApps > 0 ? l10n.t('Applications: {0} and {1} more', apps.join(', '), formatCount(moreApps)) : l10n.t('Applications: {0}', apps.join(', ')));
  }
  return lines;
}
