/**
 * Phase `oddNames`: a real Unleash holding a project the server cannot list per project (flags named `constructor`
 * and `toString`: its listing answers 500; tools/unleash/oddNames.ts). The Flags view shows every flag, on
 * the first load and after a Refresh, which lists that project and reads it through the search instead.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { ODD_NAMES } from '../../../tools/unleash/oddNames';
import { row, rows, shown, waitForState, type Steps } from './util';

export async function oddNamesPhase(api: ExtensionApi, steps: Steps): Promise<void> {
  const host = new URL(vscode.workspace.getConfiguration('unleash').get<string>('serverUrl') ?? '').host;
  const expectTree = async () => {
    const roots = await rows(api);
    assert.deepEqual(shown(roots), [`default — ${ODD_NAMES.defaultFlags.length} flags`, `${ODD_NAMES.project} — ${ODD_NAMES.oddFlags.length} flags`]);
    assert.deepEqual((await rows(api, row(roots, 'default'))).map((flag) => flag.label), ODD_NAMES.defaultFlags);
    assert.deepEqual((await rows(api, row(roots, ODD_NAMES.project))).map((flag) => flag.label), ODD_NAMES.oddFlags);
    assert.equal(api.flagsView.treeView.description, host, 'the view names the server, not out of date');
    assert.equal(api.flagsView.treeView.message, undefined, 'no message above the tree');
  };

  await steps.step('every flag shows, constructor and toString among them', async () => {
    await waitForState(api, 'ready');
    await expectTree();
  });

  await steps.step('after a Refresh (the project is listed: the server answers 500, the search reads it), still every flag', async () => {
    await vscode.commands.executeCommand('unleash.refresh');
    await waitForState(api, 'ready');
    assert.deepEqual(api.store.failures, []);
    assert.equal(api.store.outOfDate, undefined);
    await expectTree();
  });
}
