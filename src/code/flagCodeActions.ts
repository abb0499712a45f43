/** Quick fixes on the flag diagnostics this extension published (the fixes themselves: `flagQuickFixes`). */
import * as vscode from 'vscode';
import { DIAGNOSTIC_SOURCE } from '../model/code/flagDiagnostics';
import { flagQuickFixes } from '../model/code/flagQuickFixes';
import type { CodeFlags } from '../services/codeFlags';
import type { FlagDiagnosticsPublisher } from './flagDiagnosticsPublisher';
import { registerForCodeLanguages } from './languageRegistration';

export class FlagCodeActionProvider implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  constructor(
    private readonly flags: CodeFlags,
    private readonly publisher: FlagDiagnosticsPublisher,
  ) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    const source = this.flags.store.currentSource;
    const webUrl = source?.webUrl?.bind(source);
    for (const diagnostic of context.diagnostics) {
      if (diagnostic.source !== DIAGNOSTIC_SOURCE) continue;
      const found = this.publisher.lookup(document.uri, diagnostic.range, diagnostic.code);
      if (!found) continue;
      const start = diagnostic.range.start;
      const quote = start.character > 0 ? document.lineAt(start.line).text.charAt(start.character - 1) : '"';
      for (const fix of flagQuickFixes(found, { quote, webUrl })) {
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        action.diagnostics = [diagnostic];
        if (fix.kind === 'replace') {
          action.edit = new vscode.WorkspaceEdit();
          action.edit.replace(document.uri, diagnostic.range, fix.replacement);
          action.isPreferred = fix.preferred;
        } else {
          action.command = { command: fix.command, title: fix.title, arguments: fix.args };
        }
        actions.push(action);
      }
    }
    return actions;
  }
}

export function registerFlagCodeActions(flags: CodeFlags, publisher: FlagDiagnosticsPublisher): vscode.Disposable {
  const provider = new FlagCodeActionProvider(flags, publisher);
  return registerForCodeLanguages(flags, (selector) => vscode.languages.registerCodeActionsProvider(selector, provider, FlagCodeActionProvider.metadata));
}
