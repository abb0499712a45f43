/**
 * Phase `trust`: the workspace's `.vscode/settings.json` names a server (a recording stand-in started by the test)
 * that the user never chose; the user settings name none; UNLEASH_API_TOKEN holds the real admin token. The Flags
 * view shows its "not allowed yet" welcome (state unapproved) and Test Connection says no token was sent; the test
 * then checks that the named server received no request at all.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { rows, waitForState, type Steps } from './util';

export async function trustPhase(api: ExtensionApi, steps: Steps): Promise<void> {
  await steps.step('a workspace naming another server: state unapproved, an empty tree (the welcome content shows)', async () => {
    assert.ok(process.env.UNLEASH_API_TOKEN, 'UNLEASH_API_TOKEN is set in this phase');
    const inspected = vscode.workspace.getConfiguration('unleash').inspect<string>('serverUrl');
    assert.ok(inspected?.workspaceValue, 'the workspace names the server');
    assert.ok(!inspected?.globalValue, 'the user settings name none');
    await waitForState(api, 'unapproved');
    assert.deepEqual(await rows(api), []);
    assert.equal(api.flagsView.treeView.message, undefined, 'the welcome content, not a message, explains');
  });

  await steps.step('Test Connection says the server is not allowed and sends nothing', async () => {
    const report = await vscode.commands.executeCommand<{ ok: boolean; message: string }>('unleash.testConnection');
    assert.equal(report.ok, false);
    assert.match(report.message, /which you have not allowed: no token is sent there/);
    assert.equal(api.store.state, 'unapproved');
  });
}
