/**
 * One bundle for both halves of the code: the editor layer translates with `vscode.l10n.t`, the layers without
 * `vscode` (model/, api/) with `@vscode/l10n`, which reads the same `l10n/bundle.l10n.<language>.json` once it is
 * given VS Code's. The `Intl` helpers follow the editor's display language.
 */
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { setLocale } from '../model/text/intl';

export function configureL10n(): void {
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  setLocale(vscode.env.language);
}
