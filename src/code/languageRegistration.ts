/**
 * A provider registered for the documents the code features cover (every folder's `unleash.hover.languages`), and
 * registered again whenever those settings change.
 */
import * as vscode from 'vscode';
import type { CodeFlags } from '../services/codeFlags';

export function registerForCodeLanguages(flags: CodeFlags, register: (selector: vscode.DocumentFilter[]) => vscode.Disposable): vscode.Disposable {
  let registration = register(flags.options.selector);
  const subscription = flags.onDidChangeOptions(() => {
    registration.dispose();
    registration = register(flags.options.selector);
  });
  return { dispose: () => (subscription.dispose(), registration.dispose()) };
}
