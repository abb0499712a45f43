/**
 * Below a strategy: its constraints, parameters, variants and segments. Segments are read with the
 * strategy-segments operation only when their group is expanded; each segment lists its own constraints.
 */
import * as l10n from '@vscode/l10n';
import type { Constraint, Segment, Strategy } from '../../api/schemas';
import { escapeMarkdown } from '../text/markdown';
import { segmentDefinitionMissing } from '../store/offlineSource';
import { constraintParts, describeConstraint } from '../text/constraintText';
import { parameterCount, segmentCount } from '../text/countText';
import { describeSegment } from '../text/flagText';
import { clean, formatList, MAX_LABEL } from '../text/plainText';
import { describeParameters, parametersInLabel } from '../text/strategyText';
import { variantGroup } from './variants';
import { groupNode, infoNode, listNodes, paragraphs, siblingIds, type NodeKind, type TreeContext, type TreeNode, type Ids } from './node';

/** Whether the strategy lists segments, or does not say (an older server): then the group offers to read them. */
function showsSegments(strategy: Strategy): boolean {
  return strategy.segments === undefined ? strategy.id !== undefined : strategy.segments.length > 0;
}

/** The parameters worth a row: those the strategy's label does not already say (see `parametersInLabel`). */
function listedParameters(strategy: Strategy, flagName: string | undefined): Array<{ name: string; value: string }> {
  const said = parametersInLabel(strategy, flagName);
  return describeParameters(strategy).filter((parameter) => !said.has(parameter.name));
}

export function strategyHasChildren(strategy: Strategy, flagName?: string): boolean {
  return (
    (strategy.constraints?.length ?? 0) > 0 ||
    listedParameters(strategy, flagName).length > 0 ||
    (strategy.variants?.length ?? 0) > 0 ||
    showsSegments(strategy)
  );
}

/** Constraints, then a Parameters group (unless the label says them all), a Variants group and a Segments group, each only when there is any. */
export async function strategyChildren(
  strategy: Strategy,
  node: TreeNode,
  context: TreeContext,
): Promise<TreeNode[]> {
  const ids = siblingIds(node);
  const nodes = listNodes(node, strategy.constraints ?? [], ids, 'constraint', (constraint, index) =>
    constraintNode(constraint, index, node, ids, 'constraint'),
  );
  const parameters = listedParameters(strategy, node.flag?.name);
  if (parameters.length > 0) nodes.push(parameterGroup(node, ids('parameters', ''), parameters));
  if (strategy.variants && strategy.variants.length > 0) {
    nodes.push(variantGroup(node, ids('variants', ''), l10n.t('Variants'), strategy.variants, undefined));
  }
  if (showsSegments(strategy)) nodes.push(segmentGroup(strategy, node, ids('segments', ''), context));
  return nodes;
}

/**
 * A constraint as people read it: `country is one of DE, FR`. The tooltip lists up to 100 values when the label
 * had to leave some out.
 */
function constraintNode(constraint: Constraint, index: number, parent: TreeNode, ids: Ids, kind: NodeKind): TreeNode {
  const label = describeConstraint(constraint);
  const parts = constraintParts(constraint);
  const values = constraint.values ?? [];
  const all = values.length > 1 ? formatList(values, { maxItems: 100, budget: 2000 }) : parts.values;
  return {
    id: ids(kind, String(index)),
    kind,
    label,
    tooltip: paragraphs(
      `**${escapeMarkdown(parts.contextName)}** ${escapeMarkdown(
        [parts.phrase, parts.values].filter((part) => part !== '').join(' ') + parts.suffix,
      )}`,
      all !== parts.values && l10n.t('All values: {0}', escapeMarkdown(all)),
    ),
    icon: { id: 'filter' },
    contextValue: kind,
    // Copy Values: every value, one per line.
    copyText: values.length > 0 ? values.join('\n') : (constraint.value ?? ''),
    collapsible: 'none',
    parent,
    flag: parent.flag,
    environment: parent.environment,
  };
}

function parameterGroup(parent: TreeNode, id: string, parameters: Array<{ name: string; value: string }>): TreeNode {
  return groupNode(parent, {
    id,
    label: l10n.t('Parameters'),
    count: parameterCount(parameters.length),
    icon: 'symbol-parameter',
    group: 'parameters',
    children: async (node, ids) =>
      parameters.map((parameter) => ({
        id: ids('parameter', parameter.name),
        kind: 'parameter',
        label: parameter.name,
        description: parameter.value,
        tooltip: `**${escapeMarkdown(parameter.name)}**: ${escapeMarkdown(parameter.value)}`,
        icon: { id: 'symbol-parameter' },
        contextValue: 'parameter',
        collapsible: 'none',
        parent: node,
        flag: parent.flag,
        environment: parent.environment,
      })),
  });
}

function segmentGroup(strategy: Strategy, parent: TreeNode, id: string, context: TreeContext): TreeNode {
  const count = strategy.segments !== undefined ? segmentCount(strategy.segments.length) : undefined;
  return groupNode(parent, {
    id,
    label: l10n.t('Segments'),
    count,
    note: count ?? l10n.t('Expand to read the segments this strategy uses.'),
    icon: 'organization',
    group: 'segments',
    children: async (node, ids, token) => {
      if (strategy.id === undefined) {
        return [infoNode(node, ids('info', 'no-id'), l10n.t('The server gave no id for this strategy: its segments cannot be read.'))];
      }
      const segments = await context.store.strategySegments(strategy.id, token);
      if (segments.length === 0) return [infoNode(node, ids('info', 'none'), l10n.t('No segments'))];
      return listNodes(node, segments, ids, 'segment', (segment) =>
        segmentNode(segment, node, ids, segmentDefinitionMissing(segment)),
      );
    },
  });
}

/** An export file without its segments file (`<file>.segments`) names a strategy's segments but not their constraints. */
function offlineSegmentNote(): string {
  return l10n.t('This export file does not include segment constraints: export the environment again, or connect to a server, to see them.');
}

function segmentNode(segment: Segment, parent: TreeNode, ids: Ids, offline: boolean): TreeNode {
  const text = describeSegment(segment);
  const description = offline ? l10n.t('constraints not in this export file') : text.detail;
  const node: TreeNode = {
    id: ids('segment', String(segment.id)),
    kind: 'segment',
    label: clean(text.label, MAX_LABEL),
    description,
    tooltip: paragraphs(`**${escapeMarkdown(text.label)}**`, escapeMarkdown(offline ? offlineSegmentNote() : text.detail)),
    icon: { id: 'organization' },
    contextValue: 'segment',
    collapsible: offline || segment.constraints.length > 0 ? 'collapsed' : 'none',
    parent,
    flag: parent.flag,
    environment: parent.environment,
    children: async () => {
      const childIds = siblingIds(node);
      if (offline) return [infoNode(node, childIds('info', 'offline'), offlineSegmentNote())];
      return listNodes(node, segment.constraints, childIds, 'constraint', (constraint, index) =>
        constraintNode(constraint, index, node, childIds, 'segmentConstraint'),
      );
    },
  };
  return node;
}
