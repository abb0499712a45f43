/**
 * The in-editor suite (test/e2e/suite, the run() contract) inside a real VS Code — code-server 4.100.3 driven by
 * Chromium — against the real, seeded Unleash. Two editor runs, because settings and env are fixed per run:
 *   server   serverUrl + UNLEASH_API_TOKEN (admin token): tree down to a segment's constraint, hovers, check tag, export
 *   noToken  serverUrl only: the welcome state, a bad token's message, then offline mode on the export files
 *   slow     a slow stand-in server (slowServer.ts): the tree shows rows before the listing completes
 *   trust    serverUrl in the workspace's settings only (a recording stand-in), the admin token in the environment:
 *            no request reaches that server without the user's approval
 *   idle     serverUrl of a recording stand-in and a token, no export files, a window that never shows a flag: the
 *            stand-in receives no request at all (the flags are read when first needed)
 *   oddNames a real Unleash of its own holding a project it cannot list (flags named constructor and toString): every
 *            flag shows, before and after a Refresh
 * What runs is the packaged .vsix (dist/, built by `npm run package` when missing or stale), installed by
 * code-server's --install-extension and loaded from there (see test/e2e/README.md). Writes the activation figures
 * (loading the bundle and activate()) to bench/results/activate.json.
 *
 *   node --import tsx --test test/e2e/editor.test.ts          (E2E_VERBOSE=1 prints the editor's log)
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { useRealUnleash } from '../contract/env';
import { startRealUnleash, SUITE_SEARCH_RATE_LIMIT } from '../../tools/unleash';
import { createOddNames } from '../../tools/unleash/oddNames';
import { startFaultServer } from '../support/faultServer';
import { buildSuite } from './build';
import * as host from '../../tools/editor/index';
import { startSlowServer } from './slowServer';
import { copyDemoWorkspace } from '../../tools/demoWorkspace';
import { ensureHost } from '../../tools/editor/ensureHost';
import { seconds } from '../../tools/log';
import { EXTENSION_ID, ensureVsix } from '../../tools/vsix';
import { activationFromLogs, recordActivation, stageExtension, type ActivationRun, type StagedExtension } from './support';

const unleash = useRealUnleash();
const verbose = Boolean(process.env.E2E_VERBOSE);
let staged: StagedExtension | undefined;
let suitePath = '';
const activation: ActivationRun[] = [];
const prepared: string[] = [];

// Keep each editor run's folder (user data, logs, the output channel's log file) until it was searched for the
// token; this process removes it afterwards.
process.env.E2E_KEEP_TMP = '1';

/** Every file under `dir` (the editor run's user data and logs) smaller than 20 MB, with its bytes. */
function* filesUnder(dir: string): Generator<{ file: string; bytes: Buffer }> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(file);
    else if (entry.isFile() && fs.statSync(file).size < 20 * 1024 * 1024) yield { file, bytes: fs.readFileSync(file) };
  }
}

/** Files under `dir` whose text holds `secret`. */
function filesHolding(dir: string, secret: string): string[] {
  return [...filesUnder(dir)].filter(({ bytes }) => bytes.includes(secret)).map(({ file }) => file);
}

/**
 * The warnings VS Code's extension host logs when this extension reads a setting in the wrong scope (a `resource`
 * setting with no resource, a `window` setting for one): `[publisher.name] Accessing a … scoped configuration …`.
 */
function configurationWarnings(dir: string): string[] {
  const marker = `[${EXTENSION_ID.toLowerCase()}] accessing a `;
  return [...filesUnder(dir)].flatMap(({ file, bytes }) =>
    bytes
      .toString('utf8')
      .split('\n')
      .filter((line) => line.toLowerCase().includes(marker))
      .map((line) => `${path.basename(file)}: ${line.trim()}`),
  );
}

before(async () => {
  const t0 = Date.now();
  await ensureHost();
  const vsix = await ensureVsix((line) => console.log(line));
  prepared.push(vsix.built ? `packaged the .vsix in ${seconds(vsix.ms)} (${vsix.built})` : 'reused dist/*.vsix');
  staged = await stageExtension(vsix.path);
  prepared.push(`installed it with code-server in ${seconds(staged.ms)}`);
  const t1 = Date.now();
  suitePath = await buildSuite();
  prepared.push(`bundled the suite in ${seconds(Date.now() - t1)}`);
  prepared.push(`setup ${seconds(Date.now() - t0)}`);
}, { timeout: 600_000 });

after(() => {
  staged?.remove();
  if (activation.length) {
    const file = recordActivation(activation);
    console.log(`activation: ${activation.map((a) => `${a.ms.toFixed(1)} ms (${a.phase}; ${a.bundleLoadMs?.toFixed(1) ?? '?'} ms loading; load ${a.loadAverage})`).join(', ')} → ${file}`);
  }
});

/**
 * The server an editor run is pointed at and the token it gets from the environment ('' for none); `workspace`
 * writes the URL to the workspace's .vscode/settings.json instead of the user settings.
 */
interface Target {
  url: string;
  token: string;
  workspace?: boolean;
}

async function runPhase(
  t: { diagnostic(message: string): void },
  phase: 'server' | 'noToken' | 'slow' | 'trust' | 'idle' | 'oddNames',
  target?: Target,
): Promise<void> {
  if (prepared.length) t.diagnostic(prepared.splice(0).join('; '));
  assert.ok(staged, 'the extension is staged');
  const workspace = copyDemoWorkspace();
  // A window with no export files (the idle phase): nothing of the flags is on disk either.
  if (phase === 'idle') fs.rmSync(path.join(workspace.dir, '.unleash'), { recursive: true, force: true });
  try {
    const server = target ?? { url: unleash.current.url, token: phase === 'server' ? unleash.current.adminToken : '' };
    if (server.workspace) {
      fs.mkdirSync(path.join(workspace.dir, '.vscode'), { recursive: true });
      fs.writeFileSync(path.join(workspace.dir, '.vscode', 'settings.json'), JSON.stringify({ 'unleash.serverUrl': server.url }, null, 2));
    }
    const env: Record<string, string> = { UNLEASH_E2E_PHASE: phase };
    // An empty value counts as unset for the extension; it also hides a token from the developer's own shell.
    env.UNLEASH_API_TOKEN = server.token;
    const result = await host.runSuiteInEditor({
      extensionDevelopmentPath: staged.dir,
      suitePath,
      workspace: workspace.dir,
      settings: server.workspace ? {} : { 'unleash.serverUrl': server.url },
      env,
      timeoutMs: 240_000,
      log: verbose ? (line) => console.log(line) : undefined,
    });
    try {
      const suiteLines = result.logs.filter((l) => l.includes('[suite]')).map((l) => l.replace(/^\[vscode:\w+\] /, ''));
      const passed = suiteLines.filter((l) => l.startsWith('[suite] ✓')).length;
      for (const line of suiteLines) if (/^\[suite\] [✓✗]/.test(line)) t.diagnostic(line.split('\n')[0] ?? line);
      const activate = activationFromLogs(result.logs);
      if (activate !== undefined) activation.push({ phase, ...activate, loadAverage: Number(os.loadavg()[0].toFixed(2)) });
      t.diagnostic(
        `phase ${phase}: exit ${result.exitCode}, ${passed} checks passed, code-server up ${seconds(result.timings.serverReadyMs)}, ` +
          `suite done ${seconds(result.timings.exitMs)}, whole run ${seconds(result.ms)}, activation ${activate?.ms ?? '?'} ms (${activate?.bundleLoadMs ?? '?'} ms loading the bundle)`,
      );
      assert.equal(result.exitCode, 0, `the suite failed in phase ${phase}:\n${suiteLines.join('\n')}\n--- last editor log lines ---\n${result.logs.slice(-25).join('\n')}`);
      assert.ok(activate !== undefined, 'the suite logged activate-ms');
      const logs = fs.readdirSync(result.tmp, { recursive: true }).filter((name) => String(name).endsWith('Unleash.log'));
      // The trust phase ends within seconds, before the editor flushes the log channel's file: its token search covers
      // every other file the run wrote.
      if (phase !== 'trust' && phase !== 'idle') assert.ok(logs.length > 0, 'the extension wrote its log channel to disk');
      for (const secret of new Set([unleash.current.adminToken, server.token].filter(Boolean))) {
        assert.deepEqual(filesHolding(result.tmp, secret), [], 'the admin token is in no file the editor wrote (logs, state, output channel)');
        assert.deepEqual(filesHolding(workspace.dir, secret), [], 'nor in the workspace (export files)');
      }
      t.diagnostic(`token searched in ${logs.length} Unleash log file(s) and every file of the run: absent`);
      const warned = configurationWarnings(result.tmp);
      assert.deepEqual(warned, [], 'VS Code logged no warning about how the extension reads its settings');
    } finally {
      fs.rmSync(result.tmp, { recursive: true, force: true });
    }
  } finally {
    workspace.remove();
  }
}

test('in the editor, connected to the real Unleash: tree, hovers, check tag, export', { timeout: 300_000 }, (t) => runPhase(t, 'server'));

test('in the editor, without a token: welcome state, bad token message, offline mode', { timeout: 300_000 }, (t) => runPhase(t, 'noToken'));

test('in the editor, against a slow server: the tree shows rows before the listing completes', { timeout: 300_000 }, async (t) => {
  const slow = await startSlowServer();
  try {
    await runPhase(t, 'slow', { url: slow.url, token: 'slow-server-token-0123456789' });
  } finally {
    await slow.close();
  }
});

test('in the editor, a workspace whose settings name another server: no token without approval', { timeout: 300_000 }, async (t) => {
  const named = await startFaultServer();
  try {
    await runPhase(t, 'trust', { url: named.url, token: unleash.current.adminToken, workspace: true });
    assert.deepEqual(named.requests.map((request) => `${request.method} ${request.path}`), [], 'the server the workspace named received nothing');
  } finally {
    await named.close();
  }
});

test('in the editor, a window that never shows a flag: no request to the server the settings name', { timeout: 300_000 }, async (t) => {
  const stand = await startFaultServer();
  try {
    await runPhase(t, 'idle', { url: stand.url, token: unleash.current.adminToken });
    assert.deepEqual(stand.requests.map((request) => `${request.method} ${request.path}`), [], 'nothing needed the flags: no request');
    t.diagnostic(`0 requests to ${stand.url} during the whole editor run`);
  } finally {
    await stand.close();
  }
});

test('in the editor, a project the real server cannot list (flags named constructor and toString): every flag shows', { timeout: 300_000 }, async (t) => {
  // A server of its own: the odd flags would change what the other editor runs against the shared one count.
  const odd = await startRealUnleash({ seed: false, searchRateLimit: SUITE_SEARCH_RATE_LIMIT });
  try {
    await createOddNames(odd);
    await runPhase(t, 'oddNames', { url: odd.url, token: odd.adminToken });
  } finally {
    await odd.stop();
  }
});
