/** Uses and files counted in words: Find Usages, the Cleanup view and Check Workspace say them alike. */
import * as vscode from 'vscode';
import { pluralForm } from '../model/text/intl';

/** `3 files`. */
export function fileCount(n: number): string {
  return pluralForm(n, { one: vscode.l10n.t('{0} file', n), other: vscode.l10n.t('{0} files', n) });
}

/** `5 uses in 2 files`. */
export function useCount(uses: number, files: number): string {
  const inFiles = pluralForm(files, { one: vscode.l10n.t('in {0} file', files), other: vscode.l10n.t('in {0} files', files) });
  return pluralForm(uses, { one: vscode.l10n.t('{0} use {1}', uses, inFiles), other: vscode.l10n.t('{0} uses {1}', uses, inFiles) });
}
