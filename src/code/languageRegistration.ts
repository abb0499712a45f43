/**
 * A provider registered for the documents the code features cover (every folder's `unleash.hover.languages`), and
 * registered again whenever those settings change.
 */
import type * as vscode from 'vscode';
import type { CodeFlags } from '../services/codeFlags';
import { registerAgainOn } from '../services/disposables';

export function registerForCodeLanguages(flags: CodeFlags, register: (selector: vscode.DocumentFilter[]) => vscode.Disposable): vscode.Disposable {
  return registerAgainOn(flags.onDidChangeOptions, () => register(flags.options.selector));
}
