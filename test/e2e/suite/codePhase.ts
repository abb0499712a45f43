/**
 * Flags where code is written, in a real editor: completion inside `isEnabled("` accepted in an editor, the typo
 * `new-chekout-flow` of src/checkout.ts in the Problems panel with its quick fix, and the status bar's text. Run by
 * both phases: against the server, and offline from the export files.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { statusWords } from '../../../src/model/store/flagStatus';
import { waitFor, workspaceUri, type Steps } from './util';

export async function codeChecks(api: ExtensionApi, steps: Steps, mode: 'server' | 'offline', where: string): Promise<void> {
  await steps.step(`${mode}: the status bar says where the flags come from and how many loaded`, async () => {
    const count = api.store.catalog.size;
    assert.ok(count > 0);
    const content = await waitFor('the status bar text', () => api.statusBar.content().text.includes('$(check)') && api.statusBar.content());
    assert.equal(content.text, `$(check) Unleash: ${where} · ${count} flags`);
    assert.equal(content.visible, true);
    assert.match(content.tooltip, /Last refreshed \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\./);
  });

  await steps.step(`${mode}: typing isEnabled(" offers flag names, and accepting one writes it`, async () => {
    const document = await vscode.workspace.openTextDocument({ language: 'typescript', content: 'const on = unleash.\n' });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(0, 19, 0, 19);
    await vscode.commands.executeCommand('type', { text: 'isEnabled("new-checkout-f' });
    const line = () => editor.document.lineAt(0).text;
    assert.match(line(), /^const on = unleash\.isEnabled\("new-checkout-f"?\)?$/);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, editor.selection.active);
    const item = list.items.find((entry) => entry.label === 'new-checkout-flow');
    assert.ok(item, `new-checkout-flow offered among ${list.items.length} items`);
    // Type, project, the flag's status words as every surface says them (its lifecycle stage on a server), states.
    const listed = api.store.catalog.get('default', 'new-checkout-flow');
    assert.ok(listed);
    const words = statusWords(api.store.status(listed));
    assert.equal(item.detail, ['release', 'default', ...words, 'development ● production ○'].join(' · '));
    await vscode.commands.executeCommand('editor.action.triggerSuggest');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await vscode.commands.executeCommand('acceptSelectedSuggestion');
    await waitFor('the accepted name', () => line().includes('"new-checkout-flow"'), 10_000);
    assert.match(line(), /^const on = unleash\.isEnabled\("new-checkout-flow"\)?$/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  await steps.step(`${mode}: the typo new-chekout-flow is in the Problems panel, and its quick fix corrects it`, async () => {
    const uri = workspaceUri('src/checkout.ts');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const diagnostic = await waitFor('the typo diagnostic', () =>
      vscode.languages.getDiagnostics(uri).find((d) => d.code === 'unknown-flag'),
    );
    const at = document.getText().indexOf("'new-chekout-flow'") + 1;
    assert.deepEqual(
      [diagnostic.message, diagnostic.severity, diagnostic.source, diagnostic.range.start, diagnostic.range.end],
      [
        `No flag named "new-chekout-flow" ${mode === 'offline' ? 'in' : 'on'} ${api.store.currentSource?.label}. Did you mean "new-checkout-flow"?`,
        vscode.DiagnosticSeverity.Warning,
        'Unleash',
        document.positionAt(at),
        document.positionAt(at + 'new-chekout-flow'.length),
      ],
    );
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, diagnostic.range);
    const fix = actions.find((action) => action.title === 'Change to "new-checkout-flow"');
    assert.ok(fix?.edit, `the quick fix among ${actions.map((a) => a.title).join(', ')}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.ok(document.getText().includes("return unleash.isEnabled('new-checkout-flow');"));
    await waitFor('the typo gone', () => !vscode.languages.getDiagnostics(uri).some((d) => d.code === 'unknown-flag'), 10_000);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  await steps.step(`${mode}: Check Workspace for Flag References reports the typo of a file that is not open`, async () => {
    const uri = workspaceUri('src/checkout.ts');
    // The previous step reverted this file: the check reads open documents as the extension host has them, so wait
    // until the host has the reverted text (or has closed the document).
    await waitFor('the reverted file', () =>
      vscode.workspace.textDocuments.every((d) => d.uri.toString() !== uri.toString() || d.getText().includes("'new-chekout-flow'")),
    );
    const result = await vscode.commands.executeCommand<{ files: number; problems: number; cancelled: boolean }>('unleash.checkWorkspaceFlags');
    assert.ok(result && result.files >= 3, `files checked: ${JSON.stringify(result)}`);
    assert.equal(result.cancelled, false);
    const typo = vscode.languages.getDiagnostics(uri).find((d) => d.code === 'unknown-flag');
    assert.match(typo?.message ?? '', /^No flag named "new-chekout-flow" .*Did you mean "new-checkout-flow"\?$/);
  });
}
