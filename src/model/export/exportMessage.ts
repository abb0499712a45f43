/** The message an export ends with: how many flags went to which file, and whether the file is new, changed or not. */
import * as l10n from '@vscode/l10n';
import type { ExportScope } from '../../api/exportQuery';
import { formatTag } from '../tags/tagInput';
import { pluralForm } from '../text/intl';
import { inertText } from '../text/markdown';
import { formatSize } from './exportBudget';
import type { ExportToFileResult } from './exportToFile';

/** `Exported 7 flags of project checkout (12.4 KB) from development to .unleash/development.checkout.json`. */
function exportedHead(flags: string, scope: ExportScope, size: string, environment: string, shownPath: string): string {
  switch (scope.kind) {
    case 'project':
      return l10n.t('Exported {0} of project {1} ({2}) from {3} to {4}', flags, scope.project, size, environment, shownPath);
    case 'tag':
      return l10n.t('Exported {0} tagged {1} ({2}) from {3} to {4}', flags, formatTag(scope), size, environment, shownPath);
    case 'all':
    case 'features':
      return l10n.t('Exported {0} ({1}) from {2} to {3}', flags, size, environment, shownPath);
  }
}

/**
 * The result message, e.g. `Exported 7 flags (12.4 KB) from development to .unleash/development.json.`, saying
 * plainly whether the file is new, changed or unchanged. `shownPath` is the path as the user knows it. Names from the
 * server (environment, project, tag) cannot form a link in the notification (see `inertText`).
 */
export function exportMessage(result: Pick<ExportToFileResult, 'flags' | 'bytes' | 'changed' | 'existed'>, environment: string, scope: ExportScope, shownPath: string): string {
  const n = result.flags;
  const flags =
    scope.kind === 'features'
      ? pluralForm(n, { one: l10n.t('{0} chosen flag', n), other: l10n.t('{0} chosen flags', n) })
      : pluralForm(n, { one: l10n.t('{0} flag', n), other: l10n.t('{0} flags', n) });
  const head = inertText(exportedHead(flags, scope, formatSize(result.bytes), environment, shownPath));
  if (!result.changed) return l10n.t('{0}: unchanged since the last export.', head);
  if (result.existed) return l10n.t('{0}; it changed since the last export.', head);
  return l10n.t('{0}.', head);
}
