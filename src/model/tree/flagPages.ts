/**
 * A long list of flag rows shown in pages: a project of 100,000 flags would be one list of 100,000 rows, each a
 * TreeItem the editor builds and sends at once. Past PAGE_SIZE flags the list is a row per page (`new-a … pay-z`,
 * its count), whose flags are built when it is expanded. Pages hold consecutive flags in the catalog's order (by
 * name), so that a flag's page is found by its name.
 */
import * as l10n from '@vscode/l10n';
import type { FeatureSummary } from '../../api/schemas';
import { compare } from '../../base/compare';
import { clean } from '../text/plainText';
import { escapeMarkdown } from '../text/markdown';
import { paragraphs, siblingIds, type FlagRef, type Ids, type TreeNode } from './node';

/** Most flag rows one list shows; a longer one is shown in pages of this many. */
export const PAGE_SIZE = 1_000;

/** The rows of `flags` under `parent`: the flags themselves, or one row per page of them. */
export function pagedFlagRows(
  flags: readonly FeatureSummary[],
  parent: TreeNode | undefined,
  row: (flag: FeatureSummary, parent: TreeNode | undefined, ids: Ids) => TreeNode,
): TreeNode[] {
  const ids = siblingIds(parent);
  if (flags.length <= PAGE_SIZE) return flags.map((flag) => row(flag, parent, ids));
  const pages: TreeNode[] = [];
  for (let start = 0; start < flags.length; start += PAGE_SIZE) {
    const page = flags.slice(start, start + PAGE_SIZE);
    const first = (page[0] as FeatureSummary).name;
    const last = (page.at(-1) as FeatureSummary).name;
    const label = l10n.t('{0} … {1}', clean(first, 40), clean(last, 40));
    const count = l10n.t('flags {0}–{1} of {2}', (start + 1).toLocaleString('en-US'), (start + page.length).toLocaleString('en-US'), flags.length.toLocaleString('en-US'));
    let children: TreeNode[] | undefined;
    const node: TreeNode = {
      id: ids('page', String(start / PAGE_SIZE)),
      kind: 'page',
      label,
      description: count,
      tooltip: paragraphs(escapeMarkdown(label), escapeMarkdown(count)),
      icon: { id: 'list-flat' },
      contextValue: 'page',
      collapsible: 'collapsed',
      parent,
      page: { first, last },
      children: async () => {
        if (!children) {
          const pageIds = siblingIds(node);
          children = page.map((flag) => row(flag, node, pageIds));
        }
        return children;
      },
    };
    pages.push(node);
  }
  return pages;
}

/** Whether a page row may hold the flag `ref` (its name between the page's first and last). */
export function pageHolds(node: TreeNode, ref: FlagRef): boolean {
  return node.page !== undefined && compare(ref.name, node.page.first) >= 0 && compare(ref.name, node.page.last) <= 0;
}
