/**
 * Variants: a group (feature-level, per environment, or of a strategy) and one row per variant.
 */
import type { Payload, StrategyVariant, Variant } from '../../api/schemas';
import { escapeMarkdown } from '../text/markdown';
import { variantCount } from '../text/countText';
import { prettyJson } from '../text/jsonText';
import { clean, MAX_LABEL } from '../text/plainText';
import { describeVariant } from '../text/variantText';
import { groupNode, listNodes, paragraphs, type Ids, type TreeNode } from './node';

/** A `Variants` group (feature-level, or of one environment) and its variants. */
export function variantGroup(
  parent: TreeNode,
  id: string,
  label: string,
  variants: ReadonlyArray<Variant | StrategyVariant>,
  environment: string | undefined,
): TreeNode {
  return groupNode(parent, {
    id,
    label,
    count: variantCount(variants.length),
    icon: 'symbol-enum',
    group: 'variants',
    environment,
    children: async (node, ids) => listNodes(node, variants, ids, 'variant', (variant, index) => variantNode(variant, index, node, ids)),
  });
}

/** One variant: `blue — 50%`, detail `variable · stickiness: userId · string: "blue"`. */
function variantNode(variant: Variant | StrategyVariant, index: number, parent: TreeNode, ids: Ids): TreeNode {
  const text = describeVariant(variant);
  const payload = variant.payload;
  let copied: string | undefined;
  return {
    id: ids('variant', `${index}:${variant.name}`),
    kind: 'variant',
    label: clean(text.label, MAX_LABEL),
    description: text.detail === '' ? undefined : text.detail,
    tooltip: paragraphs(`**${escapeMarkdown(text.label)}**`, text.detail !== '' && escapeMarkdown(text.detail)),
    icon: { id: 'symbol-enum-member' },
    // `:payload`: the Copy Payload action copies it in full.
    contextValue: payload ? 'variant:payload' : 'variant',
    collapsible: 'none',
    parent,
    flag: parent.flag,
    environment: parent.environment,
    // Indented when copied, not when the row is built: a Variants group may hold many large payloads.
    get copyText() {
      if (payload) copied ??= payloadText(payload);
      return copied;
    },
  };
}

/** A payload's value as copied: JSON indented (numbers and strings exactly as stored), anything else as it is. */
function payloadText(payload: Payload): string {
  return (payload.type === 'json' ? prettyJson(payload.value) : undefined) ?? payload.value;
}
