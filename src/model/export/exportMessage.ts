/** The message an export ends with: how many flags went to which file, and whether the file is new, changed or not. */
import * as l10n from '@vscode/l10n';
import type { ExportScope } from '../../api/exportQuery';
import { tagText } from '../tags/tagInput';
import { pluralForm } from '../text/intl';
import { formsNotificationLink, unlinked } from '../text/notificationText';
import { clean, visibleText } from '../text/plainText';
import { formatSize } from './exportBudget';
import type { ExportToFileResult } from './exportToFile';

/** `Exported 7 flags of project checkout (12.4 KB) from development to .unleash/development.checkout.json`. */
function exportedHead(flags: string, scope: ExportScope, size: string, environment: string, file: string, name: (text: string) => string): string {
  switch (scope.kind) {
    case 'project':
      return l10n.t('Exported {0} of project {1} ({2}) from {3} to {4}', flags, name(scope.project), size, name(environment), file);
    case 'tag':
      return l10n.t('Exported {0} tagged {1} ({2}) from {3} to {4}', flags, name(tagText(scope)), size, name(environment), file);
    case 'all':
    case 'features':
      return l10n.t('Exported {0} ({1}) from {2} to {3}', flags, size, name(environment), file);
  }
}

/**
 * The result message, e.g. `Exported 7 flags (12.4 KB) from development to .unleash/development.json.`, saying
 * plainly whether the file is new, changed or unchanged. `shownPath` is the path as the user knows it, shown as it is
 * (its invisible characters written as `\u{…}`), since a notification renders nothing but links
 * (notificationText.ts). Only where the message would hold a link: names from the server (environment, project,
 * tag) are broken where they would form one; a path that forms one itself (a path template from a workspace's
 * settings can) is not named, and the message says so (Open and Reveal beside it reach the file).
 */
export function exportMessage(result: Pick<ExportToFileResult, 'flags' | 'bytes' | 'changed' | 'existed'>, environment: string, scope: ExportScope, shownPath: string): string {
  const n = result.flags;
  const flags =
    scope.kind === 'features'
      ? pluralForm(n, { one: l10n.t('{0} chosen flag', n), other: l10n.t('{0} chosen flags', n) })
      : pluralForm(n, { one: l10n.t('{0} flag', n), other: l10n.t('{0} flags', n) });
  const size = formatSize(result.bytes);
  const sentence = (file: string, name: (text: string) => string): string => {
    const head = exportedHead(flags, scope, size, environment, file, name);
    if (!result.changed) return l10n.t('{0}: unchanged since the last export.', head);
    if (result.existed) return l10n.t('{0}; it changed since the last export.', head);
    return l10n.t('{0}.', head);
  };
  const file = visibleText(shownPath);
  // One line, its invisible characters gone (a bidi override cannot turn the sentence around).
  const named = (text: string) => clean(text).trim();
  const plain = sentence(file, named);
  if (!formsNotificationLink(plain)) return plain;
  const defused = sentence(file, (text) => unlinked(named(text)));
  if (!formsNotificationLink(defused)) return defused;
  return sentence(l10n.t('a file whose name this notification would show as a link (Open or Reveal shows it)'), (text) => unlinked(named(text)));
}
