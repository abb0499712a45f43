/**
 * The test runner (test/runner/runFiles.ts) stopped mid-way, as a layer is at its bound: over the fixtures of
 * test/fixtures/runner/, run one file at a time, a file passes three tests, the next passes one and hangs in a second
 * after making a temporary folder and starting a process in a group of its own, a third waits its turn. Stopped while
 * the second hangs, the layer reports the tests that passed before it and the test it was in, never starts the
 * third, and leaves no process and no temporary folder.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from '../../tools/unleash/procs';
import { runFiles, tally } from '../runner/runFiles';

const ROOT = path.join(__dirname, '..', '..');
const FIXTURES = ['passes', 'hangs', 'later'].map((name) => path.join('test', 'fixtures', 'runner', `${name}.test.ts`));

async function waitFor(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(100);
  }
}

describe('the test runner', () => {
  test('a layer stopped mid-way reports what passed and the test it was in, and leaves no process or folder', { timeout: 240_000 }, async () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'runner-test-'));
    const ready = path.join(scratch, 'ready.json');
    const stop = new AbortController();
    const lines: string[] = [];
    const layer = runFiles({
      tmpRoot: scratch,
      files: FIXTURES,
      cwd: ROOT,
      env: { ...process.env, FIXTURE_READY: ready },
      concurrency: 1,
      fileMs: 200_000,
      layerMs: 200_000,
      signal: stop.signal,
      log: (line) => lines.push(line),
    });
    await waitFor('the hanging fixture started its process', () => fs.existsSync(ready), 180_000);
    const started = JSON.parse(fs.readFileSync(ready, 'utf8')) as { dir: string; pid: number };
    assert.ok(fs.existsSync(started.dir) && isAlive(started.pid), 'the fixture made its folder and started its process');
    stop.abort(new Error('the test’s stop'));
    const result = await layer;

    assert.equal(result.pass, 4, lines.join('\n'));
    assert.equal(result.fail, 1);
    assert.equal(result.stopped, 'the test’s stop');
    assert.deepEqual(result.notRun, [FIXTURES[2]]);
    assert.deepEqual(
      result.files.map((f) => [f.file, f.pass, f.fail, f.runningTest]),
      [
        [FIXTURES[0], 3, 0, undefined],
        [FIXTURES[1], 1, 1, 'stage › hangs'],
      ],
    );
    assert.match(lines.join('\n'), /^ {2}✖ test\/fixtures\/runner\/hangs\.test\.ts: 1 passed, 1 failed in [\d.]+ s$/m);
    assert.ok(lines.includes('    ✖ killed at the test’s stop while running: stage › hangs'), lines.join('\n'));

    await waitFor('the process the fixture started is gone', () => !isAlive(started.pid), 10_000);
    assert.equal(fs.existsSync(started.dir), false, 'the fixture’s temporary folder is removed');
    assert.deepEqual(fs.readdirSync(scratch), ['ready.json'], 'the layer’s folder is removed');
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  test('counts tests, not suites; a suite that fails with no failed test inside counts once, one whose hook failed says why; names the test left running', () => {
    assert.deepEqual(
      tally([
        { event: 'start', nesting: 0, name: 'group' },
        { event: 'start', nesting: 1, name: 'one' },
        { event: 'pass', nesting: 1, name: 'one' },
        { event: 'start', nesting: 1, name: 'two' },
        { event: 'fail', nesting: 1, name: 'two', error: 'expected 2' },
        { event: 'fail', nesting: 0, name: 'group', suite: true, error: '1 subtest failed' },
        { event: 'start', nesting: 0, name: 'hooked' },
        { event: 'fail', nesting: 0, name: 'hooked', suite: true, error: 'before hook threw' },
        { event: 'start', nesting: 0, name: 'cancelled' },
        { event: 'start', nesting: 1, name: 'three' },
        { event: 'fail', nesting: 1, name: 'three', error: 'test did not finish before its parent and was cancelled' },
        { event: 'fail', nesting: 0, name: 'cancelled', suite: true, error: 'initdb exited with 1' },
        { event: 'start', nesting: 0, name: 'skipped' },
        { event: 'skip', nesting: 0, name: 'skipped' },
        { event: 'start', nesting: 0, name: 'outer' },
        { event: 'start', nesting: 1, name: 'inner' },
      ]),
      {
        pass: 1,
        fail: 3,
        skipped: 1,
        failures: ['group › two: expected 2', 'hooked: before hook threw', 'cancelled › three: test did not finish before its parent and was cancelled', 'cancelled: initdb exited with 1'],
        running: 'outer › inner',
      },
    );
  });
});
