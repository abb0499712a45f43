/**
 * Finding a flag's uses and going to it, in a real editor on the demo workspace: Find Usages on a name that prefixes
 * another (`new-checkout-flow`, beside `new-checkout-flow-ui`) lists only its exact uses in the References view;
 * Shift+F12 finds the same; F12 opens the flag's details; the inlay hints after `isEnabled('…')`. Run by both phases.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { positionOf, row, rows, waitFor, workspaceUri, type Steps } from './util';

/** The exact uses of new-checkout-flow in demo/workspace (not new-checkout-flow-ui in config.yaml, nor the typo). */
const USES = ['app.py:10', 'config.yaml:3', 'src/checkout.ts:7', 'src/checkout.ts:8'];

interface ReferencesInput {
  title: string;
  resolve(): Promise<{ message: string; provider: vscode.TreeDataProvider<unknown> } | undefined>;
}

function relative(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

/** The References view as a person reads it: title, message, and `file:line name` per row (the name highlighted). */
async function referencesView(): Promise<string[]> {
  const extension = vscode.extensions.getExtension<{ getInput(): ReferencesInput | undefined }>('vscode.references-view');
  assert.ok(extension, 'the built-in references-view extension is there');
  const api = await extension.activate();
  // Its setInput first opens the input's document to check the position, then shows the input: wait for it.
  const input = await waitFor('the References view has an input', () => api.getInput(), 10_000);
  const model = await input.resolve();
  assert.ok(model);
  const lines = [input.title, model.message];
  for (const file of (await model.provider.getChildren()) ?? []) {
    const fileItem = await model.provider.getTreeItem(file);
    for (const use of (await model.provider.getChildren(file)) ?? []) {
      const item = await model.provider.getTreeItem(use);
      const label = item.label as vscode.TreeItemLabel;
      const [start, end] = label.highlights?.[0] ?? [0, 0];
      lines.push(`${relative(fileItem.resourceUri as vscode.Uri)}:${String(item.description).replace(/^line /, '')} ${label.label.slice(start, end)}`);
    }
  }
  return lines;
}

export async function navigationChecks(api: ExtensionApi, steps: Steps, mode: 'server' | 'offline'): Promise<void> {
  await steps.step(`${mode}: Find Usages on new-checkout-flow lists only its exact uses in the References view`, async () => {
    await vscode.commands.executeCommand('unleash.findUsages', { project: 'default', name: 'new-checkout-flow' });
    assert.deepEqual(await referencesView(), [
      'Uses of the flag new-checkout-flow',
      '4 uses in 3 files',
      ...USES.map((use) => `${use} new-checkout-flow`),
    ]);
  });

  await steps.step(`${mode}: Shift+F12 on new-checkout-flow finds the same uses`, async () => {
    const uri = workspaceUri('src/checkout.ts');
    const locations = await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', uri, await positionOf(uri, "'new-checkout-flow'"));
    const ours = locations.filter((location) => location.range.end.character - location.range.start.character === 'new-checkout-flow'.length);
    assert.deepEqual([...new Set(ours.map((location) => `${relative(location.uri)}:${location.range.start.line + 1}`))].sort(), USES);
  });

  await steps.step(`${mode}: F12 on a flag name opens its details document`, async () => {
    const uri = workspaceUri('src/checkout.ts');
    const document = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(document);
    const at = await positionOf(uri, "'pricing-experiment'");
    editor.selection = new vscode.Selection(at, at);
    await vscode.commands.executeCommand('editor.action.revealDefinition');
    const details = await waitFor('the details document', () => vscode.window.activeTextEditor?.document.uri.scheme === 'unleash-flag' && vscode.window.activeTextEditor.document);
    assert.equal(details.uri.path, '/pricing-experiment.txt');
    assert.match(details.getText(), /experiment/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  await steps.step(`${mode}: inlay hints after isEnabled('…') show the state per environment`, async () => {
    const uri = workspaceUri('src/checkout.ts');
    const document = await vscode.workspace.openTextDocument(uri);
    const hints = await vscode.commands.executeCommand<vscode.InlayHint[]>('vscode.executeInlayHintProvider', uri, new vscode.Range(0, 0, document.lineCount, 0));
    const text = (hint: vscode.InlayHint) => (typeof hint.label === 'string' ? hint.label : hint.label.map((part) => part.value).join(''));
    const line = document.getText().split('\n').findIndex((l) => l.includes("isEnabled('new-checkout-flow'"));
    const after = hints.find((hint) => hint.position.line === line);
    assert.ok(after, `a hint on line ${line + 1} among ${hints.map((hint) => `${hint.position.line + 1}: ${text(hint)}`).join('; ')}`);
    assert.match(text(after), /^[●○] dev [●○] prod$/);
    assert.equal(after.position.character, document.lineAt(line).text.indexOf("'new-checkout-flow'") + "'new-checkout-flow'".length);
    assert.ok(!hints.some((hint) => hint.position.line === document.getText().split('\n').findIndex((l) => l.includes('new-chekout-flow'))), 'no hint on the typo');
  });

  await steps.step(`${mode}: unleash.environments ["production"] changes the tree strip and the inlay hints`, async () => {
    const config = vscode.workspace.getConfiguration('unleash');
    const strip = async () => {
      const flags = await rows(api, row(await rows(api), 'default'));
      return row(flags, 'new-checkout-flow').description;
    };
    const uri = workspaceUri('src/checkout.ts');
    const document = await vscode.workspace.openTextDocument(uri);
    const line = document.getText().split('\n').findIndex((l) => l.includes("isEnabled('new-checkout-flow'"));
    const hint = async () => {
      const hints = await vscode.commands.executeCommand<vscode.InlayHint[]>('vscode.executeInlayHintProvider', uri, new vscode.Range(line, 0, line + 1, 0));
      const found = hints.find((h) => h.position.line === line);
      return found ? (typeof found.label === 'string' ? found.label : found.label.map((part) => part.value).join('')) : '';
    };
    assert.match(await strip(), /^d[●○] p[●○]/);
    await config.update('environments', ['production'], vscode.ConfigurationTarget.Global);
    try {
      // The tree redraws from the store when the setting changes: poll its rows (bounded).
      let seen = await strip();
      for (const deadline = Date.now() + 10_000; !/^p[●○]( |$)/.test(seen); seen = await strip()) {
        if (Date.now() > deadline) throw new Error(`after 10 s the strip still reads ${JSON.stringify(seen)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok(!/d[●○]/.test(seen), seen);
      assert.match(await hint(), /^[●○] prod$/);
    } finally {
      await config.update('environments', undefined, vscode.ConfigurationTarget.Global);
    }
  });
}
