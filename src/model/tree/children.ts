/**
 * Walking the tree: the root, a node's children (failures become one error row, never an exception), and finding
 * a flag's row to reveal it.
 */
import { pageHolds } from './flagPages';
import * as l10n from '@vscode/l10n';
import type { CancellationLike } from '../../base/emitter';
import { formatError } from '../content/formatError';
import type { FlagStore } from '../store/flagStore';
import { escapeMarkdown } from '../text/markdown';
import { clean, MAX_DETAIL, MAX_LABEL } from '../text/plainText';
import { paragraphs, type FlagRef, type TreeNode, type TreeOptions } from './node';
import { rootNodes } from './root';

/**
 * The children of `node` (the root when undefined). A failure to load them is one `error` row with the formatted
 * message, which retries when selected; a cancelled load is an empty list.
 */
export async function childrenOf(
  node: TreeNode | undefined,
  store: FlagStore,
  token?: CancellationLike,
  options: TreeOptions = {},
): Promise<TreeNode[]> {
  if (!node) return rootNodes(store, options);
  if (!node.children) return [];
  try {
    return await node.children(token);
  } catch (error) {
    if (token?.isCancellationRequested) return [];
    const formatted = formatError(error, { action: actionOf(node), server: store.currentSource?.label });
    if (formatted.silent) return [];
    return [errorNode(node, formatted.message)];
  }
}

function actionOf(node: TreeNode): string {
  if (node.kind === 'feature') return l10n.t('read the flag');
  if (node.contextValue === 'group:segments') return l10n.t("read the strategy's segments");
  return l10n.t('load this item');
}

/** The row shown instead of children that failed to load; selecting it asks for them again. */
function errorNode(parent: TreeNode, message: string): TreeNode {
  return {
    id: `${parent.id}/error`,
    kind: 'error',
    label: clean(message, MAX_LABEL),
    description: l10n.t('select to retry'),
    tooltip: paragraphs(escapeMarkdown(clean(message, MAX_DETAIL)), l10n.t('Select this row to try again, or run Refresh.')),
    icon: { id: 'error', color: 'errorForeground' },
    contextValue: 'error',
    collapsible: 'none',
    parent,
    flag: parent.flag,
    environment: parent.environment,
    retry: parent,
  };
}

/** The row of a flag among `roots` (looking inside project groups), or undefined when the tree does not show it. */
export async function findFlagNode(roots: readonly TreeNode[], ref: FlagRef): Promise<TreeNode | undefined> {
  for (const node of roots) {
    if (node.kind === 'feature' && node.flag?.project === ref.project && node.flag.name === ref.name) return node;
    if (node.kind === 'project' && node.project === ref.project && node.children) return findFlagNode(await node.children(), ref);
    if (node.kind === 'page' && pageHolds(node, ref) && node.children) {
      const found = await findFlagNode(await node.children(), ref);
      if (found) return found;
    }
  }
  return undefined;
}
