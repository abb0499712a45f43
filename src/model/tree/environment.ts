/**
 * An environment of a flag (on or off, strategy count, last seen) and its strategies, in order.
 */
import * as l10n from '@vscode/l10n';
import type { FeatureEnvironment, Strategy } from '../../api/schemas';
import { escapeMarkdown } from '../text/markdown';
import { strategyCount } from '../text/countText';
import { describeEnvironmentState, describeLastSeen } from '../text/flagText';
import { clean, MAX_DETAIL } from '../text/plainText';
import { describeStrategy, strategyBadges, strategyTitle } from '../text/strategyText';
import { dotted, listNodes, paragraphs, siblingIds, type NodeIcon, type TreeContext, type TreeNode, type Ids } from './node';
import { strategyChildren, strategyHasChildren } from './strategy';

/** `last seen 3 days ago`, `never seen`; nothing for export files, which do not say. */
function lastSeen(env: FeatureEnvironment, context: TreeContext): string | undefined {
  if (context.store.currentSource?.kind === 'files') return undefined;
  if (env.lastSeenAt === null || env.lastSeenAt === undefined || env.lastSeenAt.trim() === '') return l10n.t('never seen');
  return l10n.t('last seen {0}', describeLastSeen(env.lastSeenAt, context.now()));
}

export function environmentNode(env: FeatureEnvironment, parent: TreeNode, ids: Ids, context: TreeContext): TreeNode {
  const label = env.name.trim() === '' ? l10n.t('(unnamed environment)') : clean(env.name, 100);
  const strategies = env.strategies;
  const disabled = strategies?.filter((strategy) => strategy.disabled === true).length ?? 0;
  const count = strategies === undefined ? undefined : strategyCount(strategies.length);
  const state = describeEnvironmentState(env.enabled);
  const seen = lastSeen(env, context);
  const description = clean(dotted(state, count, seen), MAX_DETAIL);
  const icon: NodeIcon = env.enabled
    ? { id: 'circle-filled', color: 'charts.green' }
    : { id: 'circle-outline', color: 'disabledForeground' };
  const node: TreeNode = {
    id: ids('env', env.name),
    kind: 'environment',
    label,
    description,
    tooltip: paragraphs(
      `**${escapeMarkdown(label)}** · ${state}`,
      dotted(
        env.type !== undefined && env.type.trim() !== '' && l10n.t('Environment type: {0}', escapeMarkdown(clean(env.type, 60))),
        count !== undefined && escapeMarkdown(disabled > 0 ? l10n.t('{0} ({1} disabled)', count, disabled) : count),
        seen !== undefined && escapeMarkdown(seen),
      ),
    ),
    icon,
    contextValue: `environment:${env.enabled ? 'enabled' : 'disabled'}`,
    collapsible: strategies && strategies.length > 0 ? 'collapsed' : 'none',
    parent,
    flag: parent.flag,
    environment: env.name,
    children: async () => {
      const childIds = siblingIds(node);
      return listNodes(node, inOrder(strategies ?? []), childIds, 'strategy', (strategy, index) =>
        strategyNode(strategy, index, node, childIds, context),
      );
    },
  };
  return node;
}

/** Strategies by sortOrder; those without keep the order given. */
function inOrder(strategies: readonly Strategy[]): Strategy[] {
  return strategies
    .map((strategy, index) => ({ strategy, index }))
    .sort((a, b) => (a.strategy.sortOrder ?? a.index) - (b.strategy.sortOrder ?? b.index) || a.index - b.index)
    .map(({ strategy }) => strategy);
}

const STRATEGY_ICONS: Readonly<Record<string, string>> = {
  default: 'globe',
  flexibleRollout: 'percentage',
  gradualRolloutRandom: 'percentage',
  gradualRolloutSessionId: 'percentage',
  gradualRolloutUserId: 'percentage',
  userWithId: 'person',
  remoteAddress: 'server',
  applicationHostname: 'server',
};

function strategyIcon(strategy: Strategy): NodeIcon {
  if (strategy.disabled === true) return { id: 'circle-slash', color: 'disabledForeground' };
  const known = Object.prototype.hasOwnProperty.call(STRATEGY_ICONS, strategy.name);
  return { id: known ? (STRATEGY_ICONS[strategy.name] as string) : 'symbol-method' };
}

/**
 * A strategy: its title as the label and the summary beside it (`Internal users` · `Gradual rollout: 50% of
 * userId · 2 constraints · disabled`), or the summary as the label when it has no title.
 */
function strategyNode(strategy: Strategy, index: number, parent: TreeNode, ids: Ids, context: TreeContext): TreeNode {
  const summary = describeStrategy(strategy);
  const title = strategyTitle(strategy);
  const badges = strategyBadges(strategy);
  const disabled = strategy.disabled === true;
  const node: TreeNode = {
    id: ids('strategy', strategy.id ?? `#${index}`),
    kind: 'strategy',
    label: title ?? summary,
    description: clean(dotted(title !== undefined && summary, ...badges), MAX_DETAIL) || undefined,
    tooltip: paragraphs(
      title !== undefined ? `**${escapeMarkdown(title)}**` : undefined,
      title !== undefined ? escapeMarkdown(summary) : `**${escapeMarkdown(summary)}**`,
      badges.length > 0 && escapeMarkdown(badges.join(' · ')),
      disabled && l10n.t('This strategy is disabled: it is not evaluated.'),
    ),
    icon: strategyIcon(strategy),
    contextValue: disabled ? 'strategy:disabled' : 'strategy',
    collapsible: strategyHasChildren(strategy, parent.flag?.name) ? 'collapsed' : 'none',
    parent,
    flag: parent.flag,
    environment: parent.environment,
    children: () => strategyChildren(strategy, node, context),
  };
  return node;
}
