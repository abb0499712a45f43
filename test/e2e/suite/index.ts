/**
 * The in-editor suite: a module exporting `run(): Promise<void>`, the @vscode/test-electron contract, so it runs in
 * desktop VS Code (test/e2e/runElectron.ts) and in code-server (tools/editor runSuiteInEditor) alike. Bundled by
 * test/e2e/build.ts into out/e2e/suite.js. A rejected run() makes the editor exit with code 1.
 *
 * Settings and env are fixed per editor run, so the checks come in phases, picked by UNLEASH_E2E_PHASE:
 *   server   (default) serverUrl + UNLEASH_API_TOKEN of the real, seeded Unleash: tree, hovers, check tag, export
 *   noToken  serverUrl, no token: the welcome state, then a bad token's message, then offline mode on export files
 *   slow     serverUrl of a slow stand-in (test/e2e/slowServer.ts): rows on screen before the listing completes
 *   trust    serverUrl only in the workspace's settings, UNLEASH_API_TOKEN set: no token goes there without approval
 *   idle     serverUrl of a recording stand-in and a token, a window that never shows a flag: the store stays idle
 *            (editor.test.ts then checks the stand-in received no request at all)
 *   oddNames serverUrl + token of a real Unleash with a project it cannot list (flags named constructor, toString):
 *            every flag shows, before and after a Refresh
 *
 * Every phase first logs `[suite] activate-ms=N bundle-load-ms=M`: activation as VS Code counts it (loading the bundle,
 * from its first statement to its last, and activate()), as the extension logs "Activated in N ms (M ms of it loading
 * the bundle).".
 *
 * The server address comes from the `unleash.serverUrl` setting (code-server: the host writes it to the user
 * settings), or from UNLEASH_E2E_SERVER_URL, which the suite then writes to that setting itself (desktop VS Code
 * through runElectron.ts, whose command line takes no settings).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { noTokenPhase } from './noTokenPhase';
import { serverPhase } from './serverPhase';
import { slowPhase } from './slowPhase';
import { idlePhase } from './idlePhase';
import { oddNamesPhase } from './oddNamesPhase';
import { trustPhase } from './trustPhase';
import { extensionApi, log, Steps } from './util';

export const PHASES = ['server', 'noToken', 'slow', 'trust', 'idle', 'oddNames'] as const;
export type Phase = (typeof PHASES)[number];

export async function run(): Promise<void> {
  const phase = (process.env.UNLEASH_E2E_PHASE ?? 'server') as Phase;
  assert.ok(PHASES.includes(phase), `UNLEASH_E2E_PHASE must be one of ${PHASES.join(', ')} (got ${phase})`);
  const t0 = Date.now();
  log(`phase ${phase}`);
  const steps = new Steps();

  const configured = vscode.workspace.getConfiguration('unleash').get<string>('serverUrl');
  const fromEnv = process.env.UNLEASH_E2E_SERVER_URL;
  if (!configured && fromEnv) await vscode.workspace.getConfiguration('unleash').update('serverUrl', fromEnv, vscode.ConfigurationTarget.Global);
  assert.ok(configured || fromEnv, 'set unleash.serverUrl or UNLEASH_E2E_SERVER_URL to the seeded Unleash');

  const api = await extensionApi();
  log(`activate-ms=${api.activationMs.toFixed(1)} bundle-load-ms=${api.bundleLoadMs.toFixed(1)}`);
  await steps.step('the extension is active and returns its test API', () => {
    assert.equal(typeof api.activationMs, 'number');
    assert.ok(api.activationMs > 0 && api.activationMs < 5000, `activate() took ${api.activationMs} ms`);
  });

  // The flags are read when something needs them: these phases start where a user opens the Flags view.
  if (phase === 'server' || phase === 'noToken' || phase === 'slow' || phase === 'oddNames') {
    await vscode.commands.executeCommand('workbench.view.extension.unleash');
  }

  if (phase === 'server') await serverPhase(api, steps);
  else if (phase === 'idle') await idlePhase(api, steps);
  else if (phase === 'slow') await slowPhase(api, steps);
  else if (phase === 'trust') await trustPhase(api, steps);
  else if (phase === 'oddNames') await oddNamesPhase(api, steps);
  else await noTokenPhase(api, steps);

  log(`phase ${phase} took ${Date.now() - t0} ms`);
  steps.finish(phase);
}
