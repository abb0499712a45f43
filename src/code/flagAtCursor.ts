/**
 * The known flag name under the active editor's cursor (recognised as the hovers of its folder do), and the `unleash.flagAtCursor`
 * context key that shows Find Usages in the editor's context menu. One line is scanned per cursor move.
 */
import * as vscode from 'vscode';
import { ContextKeys } from '../base/constants';
import { flagNameAt, isPlainScalarFile } from '../model/code/flagUsages';
import type { FlagRef } from '../model/tree/node';
import type { CodeFlags } from '../services/codeFlags';
import { DisposableStore } from '../services/disposables';

/** Lines longer than this are not looked at (minified code). */
const MAX_LINE = 20_000;

/** The known flag named at the position, as the hover there would show it. */
export function flagAtPosition(flags: CodeFlags, document: vscode.TextDocument, position: vscode.Position): FlagRef | undefined {
  if (!flags.ready) return undefined;
  const line = document.lineAt(position.line).text;
  if (line.length > MAX_LINE) return undefined;
  const options = { ...flags.usageOptions(document.uri), plainScalars: isPlainScalarFile(document.uri.path) };
  const match = flagNameAt(line, position.character, flags.analyzer().nameIndex, options);
  if (!match?.known) return undefined;
  const flag = flags.store.catalog.byName(match.name)[0];
  return flag ? { project: flag.project ?? '', name: flag.name } : undefined;
}

export function flagAtCursor(flags: CodeFlags, editor = vscode.window.activeTextEditor): FlagRef | undefined {
  return editor ? flagAtPosition(flags, editor.document, editor.selection.active) : undefined;
}

export function registerFlagAtCursorContext(flags: CodeFlags): vscode.Disposable {
  let last: boolean | undefined;
  const update = () => {
    const present = flagAtCursor(flags) !== undefined;
    if (present === last) return;
    last = present;
    void vscode.commands.executeCommand('setContext', ContextKeys.flagAtCursor, present);
  };
  return new DisposableStore(
    vscode.window.onDidChangeTextEditorSelection(update),
    vscode.window.onDidChangeActiveTextEditor(update),
    flags.store.onDidChange(update),
  );
}
