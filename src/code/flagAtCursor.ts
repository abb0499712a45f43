/**
 * The known flag name under the active editor's cursor (recognised as hovers do), and the `unleash.flagAtCursor`
 * context key that shows Find Usages in the editor's context menu. One line is scanned per cursor move.
 */
import * as vscode from 'vscode';
import { ContextKeys } from '../constants';
import { findFlagAt } from '../model/flagNames';
import type { FlagRef } from '../model/tree';
import type { CodeFlags } from '../services/codeFlags';

const MAX_LINE = 20_000;

export function flagAtCursor(flags: CodeFlags, editor = vscode.window.activeTextEditor): FlagRef | undefined {
  if (!editor || !flags.ready) return undefined;
  const position = editor.selection.active;
  const line = editor.document.lineAt(position.line).text;
  if (line.length > MAX_LINE) return undefined;
  const match = findFlagAt(line, position.character, flags.analyzer().nameIndex, {
    ...flags.naming(editor.document),
  });
  if (!match?.known) return undefined;
  const flag = flags.store.catalog.byName(match.name)[0];
  return flag ? { project: flag.project ?? '', name: flag.name } : undefined;
}

export function registerFlagAtCursorContext(flags: CodeFlags): vscode.Disposable {
  let last: boolean | undefined;
  const update = () => {
    const present = flagAtCursor(flags) !== undefined;
    if (present === last) return;
    last = present;
    void vscode.commands.executeCommand('setContext', ContextKeys.flagAtCursor, present);
  };
  return vscode.Disposable.from(
    vscode.window.onDidChangeTextEditorSelection(update),
    vscode.window.onDidChangeActiveTextEditor(update),
    flags.store.onDidChange(update),
  );
}
