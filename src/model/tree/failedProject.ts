/**
 * The row of a project whose flags could not be read (its listing failed, and the search for its flags too): one
 * row, beside every project that could be read, that says why, which requests failed and what to do. Selecting it
 * reads the flag list again.
 */
import * as l10n from '@vscode/l10n';
import type { ListingFailure } from '../../api/listingTypes';
import { formatError } from '../content/formatError';
import { escapeMarkdown } from '../text/markdown';
import { clean, MAX_DETAIL } from '../text/plainText';
import { paragraphs, type TreeNode } from './node';

/**
 * The failed project's row. `label` is the project as the tree shows it; `server` names the server in the message.
 * When some of its flags did arrive (from a search page of other flags), `children` lists them.
 */
export function failedProjectNode(
  failure: ListingFailure,
  row: { id: string; label: string; server?: string; count?: string },
  children?: (node: TreeNode) => TreeNode[],
): TreeNode {
  let built: TreeNode[] | undefined;
  const reason = formatError(failure.error, { server: row.server, request: true }).message;
  const listing = formatError(failure.error, { action: l10n.t('list the flags of project {0}', row.label), server: row.server, request: true });
  const search = formatError(failure.searchError, { action: l10n.t('read them through the search instead'), server: row.server, request: true });
  const node: TreeNode = {
    id: row.id,
    kind: 'project',
    label: row.label,
    description: clean(`${row.count ? `${row.count} · ` : ''}${l10n.t('could not be read: {0}', reason)}`, MAX_DETAIL),
    tooltip: paragraphs(
      l10n.t('**Project {0}: its flags could not be read**', escapeMarkdown(row.label)),
      escapeMarkdown(clean(listing.message, MAX_DETAIL)),
      escapeMarkdown(clean(search.message, MAX_DETAIL)),
      l10n.t('Select this row to try again, or run Unleash: Show Log for the details. The other projects are shown as read.'),
    ),
    accessibleLabel: clean(l10n.t('Project {0}, could not be read: {1}', row.label, reason), MAX_DETAIL),
    icon: { id: 'error', color: 'errorForeground' },
    contextValue: 'project:failed',
    collapsible: children ? 'collapsed' : 'none',
    project: failure.project,
    refreshesList: true,
    ...(children ? { children: async () => (built ??= children(node)) } : {}),
  };
  return node;
}
