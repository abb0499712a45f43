/**
 * The environments of a flag in its hover: a narrow table (environment, state, last seen), then each environment's
 * strategies on a line of their own, at most HOVER_LIMITS of them.
 */
import * as l10n from '@vscode/l10n';
import type { Feature, FeatureEnvironment, FeatureSummary, Strategy } from '../../api/schemas';
import { chooseEnvironments, hiddenEnvironments } from '../store/environmentChoice';
import { andMore, strategyCount, variantCount } from '../text/countText';
import { describeEnvironmentState, describeLastSeen, DISABLED_MARK, ENABLED_MARK } from '../text/flagText';
import { joinValues } from '../text/intl';
import { escapeMarkdown, plainMarkdown } from '../text/markdown';
import { andMoreAfter, clean } from '../text/plainText';
import { describeStrategy, strategyBadges, strategyTitle } from '../text/strategyText';
import { HOVER_LIMITS } from './hoverLimits';

interface EnvironmentRow {
  name: string;
  enabled: boolean;
  strategies: string;
  lastSeen: string;
}

/** Keeps words together in a table cell: the hover's table never wraps a header or a state. */
const NBSP = '\u00a0';
const together = (text: string): string => text.replace(/ /g, NBSP);

/**
 * A narrow table (environment, state, last seen) that fits the default hover width without wrapping, then each
 * environment's strategies on a line of its own below it, where long text wraps as prose.
 */
export function environmentTable(summary: FeatureSummary, details: Feature | undefined, now: Date, chosen: readonly string[]): string {
  const { rows, total, hidden } = environmentRows(summary, details, now, HOVER_LIMITS.environments, chosen);
  if (total === 0) return hidden > 0 ? escapeMarkdown(hiddenEnvironments(hidden)) : l10n.t('_No environments._');
  const lines = [`| ${l10n.t('Environment')} | ${l10n.t('State')} | ${together(l10n.t('Last seen'))} |`, '| --- | --- | --- |'];
  const strategies: string[] = [];
  for (const row of rows) {
    const state = `${row.enabled ? ENABLED_MARK : DISABLED_MARK}${NBSP}${describeEnvironmentState(row.enabled)}`;
    const name = plainMarkdown(row.name, 40) || l10n.t('(unnamed)');
    lines.push(`| ${name} | ${state} | ${together(plainMarkdown(row.lastSeen, 40))} |`);
    strategies.push(`**${name}** · ${plainMarkdown(row.strategies, HOVER_LIMITS.strategyCell + 40)}`);
  }
  const rest = total - rows.length;
  const blocks = [lines.join('\n')];
  if (rest > 0) {
    blocks.push(andMore('environment', rest));
  }
  blocks.push(strategies.join('  \n'));
  if (hidden > 0) blocks.push(`_${escapeMarkdown(hiddenEnvironments(hidden))}_`);
  return blocks.join('\n\n');
}

/** The first `max` environments as table rows (only those are described), and how many there are. */
function environmentRows(summary: FeatureSummary, details: Feature | undefined, now: Date, max: number, chosen: readonly string[]): { rows: EnvironmentRow[]; total: number; hidden: number } {
  const detailedAll = details?.environments;
  if (detailedAll !== undefined) {
    const { shown: detailed, hidden } = chooseEnvironments(detailedAll, chosen);
    const rows = detailed.slice(0, max).map((env) => ({
      name: env.name,
      enabled: env.enabled === true,
      strategies: strategySummary(env),
      lastSeen: describeLastSeen(env.lastSeenAt, now),
    }));
    return { rows, total: detailed.length, hidden };
  }
  const { shown: summaries, hidden } = chooseEnvironments(summary.environments ?? [], chosen);
  const rows = summaries.slice(0, max).map((env) => {
    const parts: string[] = [];
    if (env.hasStrategies === true) {
      parts.push(env.hasEnabledStrategies === false ? l10n.t('strategies, all disabled') : l10n.t('has strategies'));
    } else if (env.hasStrategies === false) {
      parts.push(l10n.t('no strategies'));
    }
    if (env.variantCount !== undefined && env.variantCount > 0) parts.push(variantCount(env.variantCount));
    return {
      name: env.name,
      enabled: env.enabled === true,
      strategies: parts.length > 0 ? joinValues(parts) : '—',
      lastSeen: describeLastSeen(env.lastSeenAt, now),
    };
  });
  return { rows, total: summaries.length, hidden };
}

/**
 * `2 strategies: Gradual rollout: 25% of userId ("EU employees first", 2 constraints); Standard: on for everyone`.
 * The count is exact; at most `strategiesPerEnvironment` strategies and `strategyCell` characters are named.
 */
export function strategySummary(env: Pick<FeatureEnvironment, 'strategies'>): string {
  const strategies = env.strategies ?? [];
  if (strategies.length === 0) return l10n.t('no strategies');
  const head = l10n.t('{0}: ', strategyCount(strategies.length));
  let text = '';
  let shown = 0;
  for (const strategy of strategies) {
    if (shown >= HOVER_LIMITS.strategiesPerEnvironment) break;
    const item = strategyLine(strategy);
    const next = shown === 0 ? item : `${text}; ${item}`;
    if (shown > 0 && head.length + next.length > HOVER_LIMITS.strategyCell) break;
    text = next;
    shown += 1;
  }
  const rest = strategies.length - shown;
  return andMoreAfter(clean(head + text, HOVER_LIMITS.strategyCell - (rest > 0 ? 20 : 0)), rest);
}

function strategyLine(strategy: Strategy): string {
  const extras: string[] = [];
  const title = strategyTitle(strategy);
  if (title !== undefined) extras.push(`“${clean(title, 60)}”`);
  extras.push(...strategyBadges(strategy));
  const summary = describeStrategy(strategy);
  return extras.length > 0 ? `${summary} (${joinValues(extras)})` : summary;
}
