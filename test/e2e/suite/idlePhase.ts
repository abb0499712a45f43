/**
 * Phase `idle`: `unleash.serverUrl` names a recording stand-in and a token is set, but the window never shows a flag:
 * the Flags view stays closed and no document calls an SDK. The store stays idle (nothing read), the status bar says
 * so, the core bundle (dist/core.js: undici, zod) is never loaded, and editor.test.ts checks afterwards that the
 * stand-in received no request at all.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { loadedBundles, waitFor, type Steps } from './util';

export async function idlePhase(api: ExtensionApi, steps: Steps): Promise<void> {
  await steps.step('a server is set, nothing needs the flags: the store is idle and has read nothing', async () => {
    await waitFor('the server source', () => api.store.currentSource?.kind === 'server');
    assert.equal(api.store.state, 'idle');
    assert.equal(api.store.catalog.size, 0);
    assert.equal(api.flagsView.treeView.visible, false, 'the Flags view was never shown');
    assert.match(api.statusBar.content().text, /^\$\(circle-outline\) Unleash: 127\.0\.0\.1:\d+$/);
  });

  await steps.step('a document without SDK calls, and a hover outside string literals in it, read nothing either', async () => {
    const document = await vscode.workspace.openTextDocument({ language: 'typescript', content: 'const total = price * quantity;\n' });
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('vscode.executeHoverProvider', document.uri, new vscode.Position(0, 8));
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the diagnostics' debounce and any late work
    assert.equal(api.store.state, 'idle');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  await steps.step('the core bundle (undici, zod) was never loaded: the module cache holds extension.js only', () => {
    assert.deepEqual(loadedBundles(), ['extension.js']);
  });
}
