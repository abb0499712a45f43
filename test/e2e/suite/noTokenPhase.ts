/**
 * Phase `noToken`: `unleash.serverUrl` points at the real Unleash but no token is stored and UNLEASH_API_TOKEN is
 * unset. The Flags view shows its "needs an API token" welcome (state noToken, the `unleash.state` context key);
 * then the user sets a token the server rejects (the message above the tree says so); then clears the server
 * address, and the offline mode shows the workspace's `.unleash/*.json` export files (tree and hovers).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { SEED } from '../../../tools/unleash/seed-data';
import { codeChecks } from './codePhase';
import { offlineWatchChecks } from './exportWatchChecks';
import { navigationChecks } from './navigationChecks';
import { hoverOn, row, rows, shown, waitFor, waitForState, type Steps } from './util';

export async function noTokenPhase(api: ExtensionApi, steps: Steps): Promise<void> {
  const serverUrl = vscode.workspace.getConfiguration('unleash').get<string>('serverUrl') ?? '';
  const host = new URL(serverUrl).host;

  await steps.step('no token: state noToken, an empty tree (the welcome content shows), no message', async () => {
    assert.ok(!process.env.UNLEASH_API_TOKEN, 'UNLEASH_API_TOKEN is unset (or empty) in this phase');
    await waitForState(api, 'noToken');
    assert.deepEqual(await rows(api), []);
    assert.equal(api.flagsView.treeView.message, undefined, 'the welcome content, not a message, explains');
  });

  await steps.step('no token: Check Tag says a token is needed', async () => {
    const answer = await vscode.commands.executeCommand<{ error?: string }>('unleash.checkTag', 'team:payments');
    assert.match(answer.error ?? '', /token/i);
  });

  await steps.step('bad token: the server rejects it, and the message above the tree says so', async () => {
    await vscode.commands.executeCommand('unleash.setToken', 'not-a-valid-token');
    await waitForState(api, 'error');
    const message = await waitFor('a message above the tree', () => api.flagsView.treeView.message);
    assert.match(message, new RegExp(`${host.replace(/\./g, '\\.')} rejected the API token \\(401`));
    assert.match(message, /set a new one/);
    assert.deepEqual(await rows(api), []);
  });

  await steps.step('offline: with no server address the export files of the workspace fill the tree', async () => {
    await vscode.workspace.getConfiguration('unleash').update('serverUrl', '', vscode.ConfigurationTarget.Global);
    await waitFor('the offline source', () => api.store.state === 'ready' && api.store.currentSource?.kind === 'files');
    assert.equal(api.flagsView.treeView.description, 'offline: .unleash/development.json, .unleash/production.json');
    assert.equal(api.flagsView.treeView.message, undefined);
    const live = SEED.flags.filter((f) => !f.archived);
    const projects = await rows(api);
    assert.deepEqual(projects.map((r) => r.label), ['checkout', 'default']);
    const flags = await rows(api, row(projects, 'default'));
    assert.deepEqual(flags.map((r) => r.label), live.filter((f) => f.project === 'default').map((f) => f.name).sort());
    const flag = row(flags, 'new-checkout-flow');
    assert.match(flag.description, /^d● p○/);
    const environments = await rows(api, flag);
    const strategies = await rows(api, row(environments, 'development'));
    const inside = await rows(api, row(strategies, 'Internal and beta users'));
    const segments = await rows(api, row(inside, 'Segments'));
    assert.deepEqual(segments.map((r) => r.label), ['internal-users', 'beta-testers']);
    assert.ok(shown(segments).every((s) => !s.includes('undefined')));
  });

  await steps.step('offline: hovers answer from the export files', async () => {
    const { plain } = await hoverOn('src/checkout.ts', "'new-checkout-flow'");
    assert.match(plain, /\*\*new-checkout-flow\*\* · release · project default/);
    assert.match(plain, /\| development \| ●\u00a0enabled \|/);
    assert.match(plain, /\*\*development\*\* · 2 strategies: Gradual rollout: 50% of userId/);
    assert.match(plain, /\| production \| ○\u00a0disabled \|/);
    assert.match(plain, /_Source: \.unleash\/development\.json, \.unleash\/production\.json_/);
    const typo = await hoverOn('src/checkout.ts', "'new-chekout-flow'");
    assert.match(typo.plain, /No flag named `new-chekout-flow` in \.unleash\/development\.json/);
  });

  await codeChecks(api, steps, 'offline', 'offline: 2 export files');
  await navigationChecks(api, steps, 'offline');

  await steps.step('offline: Check Tag answers from the export files', async () => {
    const answer = await vscode.commands.executeCommand<{ exists?: boolean; source?: string; flags?: string[] }>('unleash.checkTag', 'team:payments');
    assert.equal(answer.exists, true);
    assert.equal(answer.source, 'files');
    assert.deepEqual(answer.flags, ['checkout-express-pay', 'checkout-fraud-check', 'new-checkout-flow']);
  });

  await offlineWatchChecks(api, steps);
}
