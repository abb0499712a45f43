// Proves the e2e host against the fixture extension (test/e2e/fixture-extension):
//   node --import tsx --test test/e2e/host.test.ts
// (1) a run() suite passes with exit code 0, env vars and settings reaching the extension host;
// (2) a deliberately failing suite comes back as exit code 1;
// (3) a person's check in the browser: command palette -> run the command -> its notification
//     is in the DOM -> screenshot (E2E_PROOF_PNG, default out/e2e/screenshots/host-proof.png).
// Each test also checks that nothing it started is still running and its temp folder is gone.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import * as host from '../../tools/editor/index';
import type { EditorSession } from '../../tools/editor/index';
import { ensureHost } from '../../tools/editor/ensureHost';

const ROOT = path.resolve(__dirname, '..', '..');
const FIXTURE = path.join(__dirname, 'fixture-extension');
const PROOF_PNG = process.env.E2E_PROOF_PNG || path.join(ROOT, 'out', 'e2e', 'screenshots', 'host-proof.png');
const TEST_TIMEOUT = 240_000;

let scratch: string; // workspace + vsix for this file; removed in after()
let workspace: string;
let vsix: string;

before(async () => {
  // Idempotent: returns in milliseconds when test/e2e/host/node_modules is complete. Under the lock that the other
  // e2e test files take too (they run in parallel; two installs at once would break each other).
  await ensureHost();

  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-host-test-'));
  workspace = path.join(scratch, 'workspace');
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, 'README.md'), '# e2e workspace\n');
  vsix = path.join(scratch, 'e2e-fixture.vsix');
  execFileSync(path.join(ROOT, 'node_modules', '.bin', 'vsce'), ['package', '--skip-license', '--out', vsix], {
    cwd: FIXTURE,
    stdio: 'pipe',
  });
  assert.ok(fs.statSync(vsix).size > 0, 'fixture .vsix was packaged');
});

after(() => {
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** The run's folder is gone and none of its processes is alive. */
function assertCleanedUp(tmp: string): void {
  assert.equal(fs.existsSync(tmp), false, `temp folder ${tmp} was removed`);
  assert.deepEqual(host.processesOfRun(tmp), [], 'no process of the run is left');
}

test('(1) run() suite passes in the editor: exit code 0, env and settings reach the extension host', { timeout: TEST_TIMEOUT }, async (t) => {
  const result = await host.runSuiteInEditor({
    extensionDevelopmentPath: FIXTURE,
    suitePath: path.join(FIXTURE, 'suite.js'),
    workspace,
    env: { SOME_VAR: 'value-from-the-harness' },
    settings: { 'e2eFixture.greeting': 'Howdy' },
    timeoutMs: 180_000,
  });
  t.diagnostic(`suite: exit ${result.exitCode}, server ready ${result.timings.serverReadyMs} ms, suite finished ${result.timings.exitMs} ms, total ${result.ms} ms`);
  const tail = result.logs.slice(-30).join('\n');
  assert.equal(result.exitCode, 0, `suite failed:\n${tail}`);
  assert.ok(result.logs.some((l) => l.includes('[suite] SOME_VAR=value-from-the-harness')), 'suite saw SOME_VAR');
  assert.ok(result.logs.some((l) => l.includes('[suite] all checks passed')), 'suite ran to the end');
  assertCleanedUp(result.tmp);
});

test('(2) a failing run() suite comes back as exit code 1', { timeout: TEST_TIMEOUT }, async (t) => {
  const result = await host.runSuiteInEditor({
    extensionDevelopmentPath: FIXTURE,
    suitePath: path.join(FIXTURE, 'suite-failing.js'),
    workspace,
    timeoutMs: 180_000,
  });
  t.diagnostic(`failing suite: exit ${result.exitCode} after ${result.ms} ms`);
  assert.equal(result.exitCode, 1);
  assert.ok(result.logs.some((l) => l.includes('deliberate failure')), 'the assertion message is in the logs');
  assertCleanedUp(result.tmp);
});

test('(3) browser-level: command palette runs the command, notification in the DOM, screenshot', { timeout: TEST_TIMEOUT }, async (t) => {
  const t0 = Date.now();
  const server = await host.startCodeServer({
    vsixPath: vsix,
    workspace,
    env: { SOME_VAR: 'ui-value' },
    settings: { 'e2eFixture.greeting': 'Howdy' },
  });
  const serverMs = Date.now() - t0;
  let session: EditorSession | undefined;
  try {
    session = await host.openWorkbench(server);
    t.diagnostic(`installed .vsix + code-server up in ${serverMs} ms; workbench drawn ${session.workbenchMs} ms after navigation`);
    const t1 = Date.now();
    await host.runCommandFromPalette(session.page, 'E2E Fixture: Say Hello');
    const text = await host.waitForNotification(session.page, 'from the e2e fixture');
    t.diagnostic(`palette -> notification in ${Date.now() - t1} ms: "${text}"`);
    assert.equal(text, 'Howdy from the e2e fixture! SOME_VAR=ui-value');
    const png = await host.screenshot(session.page, PROOF_PNG);
    const head = fs.readFileSync(png).subarray(0, 8);
    assert.deepEqual([...head], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'screenshot is a PNG');
    t.diagnostic(`screenshot: ${png} (${fs.statSync(png).size} bytes)`);
  } finally {
    const t2 = Date.now();
    if (session) await session.stop();
    else await server.stop();
    t.diagnostic(`stopped in ${Date.now() - t2} ms`);
  }
  assertCleanedUp(server.tmp);
});
