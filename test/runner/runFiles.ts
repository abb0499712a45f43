/**
 * Runs one layer's test files, each in a Node process of its own: its own process group, its own temporary folder
 * (TMPDIR, inside one folder for the layer) and the mark that finds what it started (leftovers.ts). At most
 * `concurrency` files run at once; a file that outlives `fileMs`, and every file still running when the layer
 * outlives `layerMs` (or `signal` aborts), is killed with everything it started. Whatever way a file ends, the
 * processes left with its mark are killed and its folder removed; the layer's folder goes last.
 *
 * What a file did is read from the events its reporter writes as they happen (eventsReporter.mjs): the tests that
 * passed and failed, and for a file that was killed, the test it was in. (One `node --test` run over many files
 * cannot say that: it holds back the results of every file but the first until that file ends.)
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TEST_TMP_ENV, killMarked, removeFolder } from './leftovers';

const REPORTER = path.join(__dirname, 'eventsReporter.mjs');
/** After a kill, how long a file's output may stay open (a grandchild holding it) before the file is counted as over. */
const KILL_GRACE_MS = 10_000;
/**
 * The temporary folders may be passed through by other users (as root, the harness runs PostgreSQL as `postgres`
 * in a folder inside), not listed or written.
 */
const TMP_MODE = 0o711;
/** What is kept of a file's output (TAP and whatever its tests print), from its end. */
const OUTPUT_KEEP = 200_000;

interface RunFilesOptions {
  /** Test files, relative to `cwd`. */
  files: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  concurrency: number;
  /** How long one file may run; then it is killed and the test it was in counts as failed. */
  fileMs: number;
  /** How long the layer may run; then the files running are killed and the files not started are not run. */
  layerMs: number;
  /** Stops the layer the way its bound does (Ctrl+C; the runner's own test). */
  signal?: AbortSignal;
  log: (line: string) => void;
  /** Also print the output of files that passed. */
  verbose?: boolean;
  /** Where the layer's temporary folder is made (os.tmpdir() by default). */
  tmpRoot?: string;
}

export interface FileOutcome {
  file: string;
  pass: number;
  fail: number;
  skipped: number;
  ms: number;
  /** Why the file was killed, when it was: "its bound of 3.0 min", "the layer's bound of 10.0 min", … */
  killed?: string;
  /** The test the file was in when it was killed: "group › test". */
  runningTest?: string;
  /** Each failed test: "group › test: message". */
  failures: string[];
  /** Processes with the file's mark still running after it ended, killed then. */
  leftovers: number;
}

export interface LayerOutcome {
  pass: number;
  fail: number;
  ms: number;
  files: FileOutcome[];
  /** Why the layer ended before its last file, when it did. */
  stopped?: string;
  /** Files never started because the layer was stopped first. */
  notRun: string[];
}

/** One line of eventsReporter.mjs. */
interface TestEvent {
  event: 'start' | 'pass' | 'fail' | 'skip';
  nesting: number;
  name: string;
  suite?: boolean;
  error?: string;
}

function minutes(ms: number): string {
  return `${(ms / 60_000).toFixed(1)} min`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function readEvents(file: string): TestEvent[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').flatMap((line) => {
    try {
      return line ? [JSON.parse(line) as TestEvent] : [];
    } catch {
      return []; // the last line, cut by a kill
    }
  });
}

/**
 * Counts what a file's events say: tests that passed and failed (suites are not tests, but a suite that fails with
 * no failed test inside, as when its hook throws, counts as one), and the test that started without ending.
 */
export function tally(events: TestEvent[]): { pass: number; fail: number; skipped: number; failures: string[]; running?: string } {
  const stack: string[] = [];
  const failsAtStart: number[] = [];
  let pass = 0;
  let fail = 0;
  let skipped = 0;
  const failures: string[] = [];
  for (const e of events) {
    if (e.event === 'start') {
      stack.length = e.nesting;
      stack[e.nesting] = e.name;
      failsAtStart[e.nesting] = fail;
      continue;
    }
    const where = [...stack.slice(0, e.nesting), e.name].join(' › ');
    stack.length = Math.min(stack.length, e.nesting);
    if (e.event === 'pass' && !e.suite) pass++;
    else if (e.event === 'skip' && !e.suite) skipped++;
    else if (e.event === 'fail' && (!e.suite || fail === (failsAtStart[e.nesting] ?? fail))) {
      fail++;
      failures.push(`${where}: ${e.error ?? ''}`);
    } else if (e.event === 'fail' && !/^\d+ subtests? failed$/.test(e.error ?? '')) {
      failures.push(`${where}: ${e.error ?? ''}`); // why its tests were cancelled: a hook that threw
    }
  }
  const running = stack.filter(Boolean).join(' › ');
  return { pass, fail, skipped, failures, ...(running ? { running } : {}) };
}

/**
 * A file's environment: its own TMPDIR and mark, where its events go, and no NODE_TEST_CONTEXT (set when the runner
 * itself runs under node --test, it would make the file's process talk to a parent runner instead of its reporters).
 */
function fileEnv(env: NodeJS.ProcessEnv, dir: string, eventsFile: string): NodeJS.ProcessEnv {
  const own: NodeJS.ProcessEnv = { ...env, TMPDIR: dir, [TEST_TMP_ENV]: dir, UNLEASH_TEST_EVENTS: eventsFile };
  delete own.NODE_TEST_CONTEXT;
  return own;
}

interface RunningFile {
  done: Promise<FileOutcome>;
  kill(why: string): void;
}

function startFile(file: string, index: number, layerTmp: string, o: RunFilesOptions, onOutput: (file: string, output: string) => void): RunningFile {
  const started = Date.now();
  // Short: a socket path under it (code-server's, PostgreSQL's) must stay within 107 bytes.
  const dir = path.join(layerTmp, String(index + 1));
  fs.mkdirSync(dir, { mode: TMP_MODE });
  const eventsFile = path.join(layerTmp, `${index + 1}.events.jsonl`);
  // A test that waits forever fails by name at half the file's bound (node's --test-timeout), and the file goes on;
  // the file's own bound stays the last resort.
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', `--test-timeout=${Math.floor(o.fileMs / 2)}`, '--test-reporter=tap', '--test-reporter-destination=stdout', `--test-reporter=${REPORTER}`, '--test-reporter-destination=stderr', file],
    {
      cwd: o.cwd,
      env: fileEnv(o.env, dir, eventsFile),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let output = '';
  const take = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEEP);
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);

  let killed: string | undefined;
  let settled = false;
  let grace: NodeJS.Timeout | undefined;
  let resolveDone!: (outcome: FileOutcome) => void;
  const done = new Promise<FileOutcome>((resolve) => (resolveDone = resolve));

  const settle = (code: number | null, spawnError?: Error): void => {
    if (settled) return;
    settled = true;
    clearTimeout(fileTimer);
    clearTimeout(grace);
    child.stdout.destroy();
    child.stderr.destroy();
    const leftovers = killMarked(dir);
    removeFolder(dir);
    const counted = tally(readEvents(eventsFile));
    const pass = counted.pass;
    let fail = counted.fail;
    const failures = [...counted.failures];
    if (killed) {
      fail++; // the test it was in
    } else if (spawnError) {
      fail++;
      failures.push(`the file did not start: ${spawnError.message}`);
    } else if (code !== 0 && fail === 0) {
      fail++;
      failures.push(`the file exited with code ${code} with no failed test: see its output`);
    }
    onOutput(file, output);
    resolveDone({
      file,
      pass,
      fail,
      skipped: counted.skipped,
      ms: Date.now() - started,
      failures,
      leftovers,
      ...(killed ? { killed } : {}),
      ...(killed && counted.running ? { runningTest: counted.running } : {}),
    });
  };

  const kill = (why: string): void => {
    if (killed || settled) return;
    killed = why;
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    killMarked(dir);
    grace = setTimeout(() => settle(null), KILL_GRACE_MS);
  };
  const fileTimer = setTimeout(() => kill(`its bound of ${minutes(o.fileMs)}`), o.fileMs);
  child.on('error', (error) => settle(null, error));
  child.on('close', (code) => settle(code));
  return { done, kill };
}

/** Layers being run, for stopAllNow(). */
const active = new Set<() => void>();

/**
 * Kills every file of every layer being run and removes their folders, synchronously: for a signal handler that
 * ends the process right after.
 */
export function stopAllNow(): void {
  for (const stop of active) stop();
}

export function runFiles(o: RunFilesOptions): Promise<LayerOutcome> {
  const started = Date.now();
  const layerTmp = fs.mkdtempSync(path.join(o.tmpRoot ?? os.tmpdir(), 'unleash-test-'));
  fs.chmodSync(layerTmp, TMP_MODE);
  const outcomes: Array<FileOutcome | undefined> = [];
  const running = new Map<number, RunningFile>();
  let next = 0;
  let stopped: string | undefined;

  const report = (outcome: FileOutcome, output: string): void => {
    const counts = [`${outcome.pass} passed`, ...(outcome.fail ? [`${outcome.fail} failed`] : []), ...(outcome.skipped ? [`${outcome.skipped} skipped`] : [])].join(', ');
    o.log(`  ${outcome.fail ? '✖' : '✔'} ${outcome.file}: ${counts} in ${seconds(outcome.ms)}`);
    if (outcome.killed) o.log(`    ✖ killed at ${outcome.killed} while running: ${outcome.runningTest ?? 'no test (a hook, or the file’s top level)'}`);
    for (const failure of outcome.failures) o.log(`    ✖ ${failure}`);
    if (outcome.leftovers) o.log(`    (${outcome.leftovers} process(es) it left running were killed)`);
    if ((outcome.fail || o.verbose) && output.trim()) {
      o.log(`    ── output of ${outcome.file} ──`);
      o.log(output.trimEnd());
      o.log(`    ── end of ${outcome.file} ──`);
    }
  };

  return new Promise((resolve) => {
    const outputs = new Map<string, string>();
    const stop = (why: string): void => {
      if (stopped) return;
      stopped = why;
      for (const file of running.values()) file.kill(why);
    };
    const stopNow = (): void => {
      stop('an interruption');
      removeFolder(layerTmp);
    };
    const onAbort = (): void => stop(String(o.signal?.reason instanceof Error ? o.signal.reason.message : o.signal?.reason ?? 'a stop'));
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      clearTimeout(layerTimer);
      o.signal?.removeEventListener('abort', onAbort);
      active.delete(stopNow);
      removeFolder(layerTmp);
      const files = outcomes.filter((outcome): outcome is FileOutcome => outcome !== undefined);
      resolve({
        pass: files.reduce((sum, f) => sum + f.pass, 0),
        fail: files.reduce((sum, f) => sum + f.fail, 0),
        ms: Date.now() - started,
        files,
        notRun: o.files.slice(next),
        ...(stopped ? { stopped } : {}),
      });
    };
    const pump = (): void => {
      while (!stopped && running.size < o.concurrency && next < o.files.length) {
        const index = next++;
        const file = o.files[index] as string;
        const run = startFile(file, index, layerTmp, o, (name, output) => outputs.set(name, output));
        running.set(index, run);
        void run.done.then((outcome) => {
          running.delete(index);
          outcomes[index] = outcome;
          report(outcome, outputs.get(outcome.file) ?? '');
          outputs.delete(outcome.file);
          pump();
        });
      }
      if (running.size === 0 && (stopped || next >= o.files.length)) finish();
    };
    active.add(stopNow);
    const layerTimer = setTimeout(() => stop(`the layer's bound of ${minutes(o.layerMs)}`), o.layerMs);
    if (o.signal?.aborted) onAbort();
    else o.signal?.addEventListener('abort', onAbort);
    pump();
  });
}
