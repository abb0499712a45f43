/**
 * What the browser build's Flags view says above the tree (vscode.dev, github.dev, where no server is reached): that
 * the flags are those of the export files committed to the workspace, and how old the newest of them is, by its file
 * date (a clone dates its files when they were checked out; an export written in desktop VS Code, when it was written).
 */
import * as l10n from '@vscode/l10n';
import { describeLastSeen } from '../text/flagText';
import { refreshedText } from './statusBarContent';

/** `changedAt`: when the newest file read last changed (ms since 1970), 0 when the file system does not say. */
export function committedExportsNote(changedAt: number, now: Date): string {
  const update = l10n.t('Export again in desktop VS Code to update them.');
  if (!(changedAt > 0)) {
    return `${l10n.t('These are the flags of the export files committed to the workspace (.unleash/*.json); the file system does not say when they changed.')} ${update}`;
  }
  const at = new Date(changedAt);
  const age = describeLastSeen(at.toISOString(), now);
  return `${l10n.t('These are the flags of the export files committed to the workspace (.unleash/*.json); the newest file is dated {0} ({1}).', refreshedText(at), age)} ${update}`;
}
