/**
 * The whole test suite, as `npm test` runs it (and so CI):
 *   1. unit tests (plain Node, fake servers on 127.0.0.1),
 *   2. contract tests against a real Unleash (PostgreSQL + unleash-server, started here, stopped by pid), once per
 *      server generation: 7.5.1, then 8.2.0, each on a fresh seeded server,
 *   3. end-to-end tests in a real VS Code (code-server + Chromium) against a fresh real Unleash 7.5.1.
 * Each layer is one `node --test` run, and every wait is bounded: the runner's `--test-timeout` ends a test file that
 * runs too long (Node 20 applies it to each file's process as a whole) and timeoutReporter.mjs names the test that
 * was running; a layer that still has not finished by its own timeout is killed and counted as a failure; and the
 * whole run has a budget (RUN_BUDGET_MS) that no layer may outlive, so that CI (90 minutes, of which setup takes
 * about 5) always reaches the last line: a plain `tests: N passed, N failed` that CI reads.
 *
 *   npm test                         everything
 *   npm test -- --only unit          one layer (unit | contract | e2e); repeatable
 *   npm test -- --server 8.2.0       the contract layer against one generation (7.5.1 | 8.2.0); repeatable.
 *                                    Without it: UNLEASH_CONTRACT_SERVER when set, else every generation.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import {
  E2E_SERVER_VERSION,
  SERVER_VERSIONS,
  SERVER_VERSION_ENV,
  parseServerVersion,
  startRealUnleash,
  SUITE_SEARCH_RATE_LIMIT,
  type RealUnleash,
  type ServerVersion,
} from '../tools/unleash';
import { contractEnv } from './contract/env';

type Layer = 'unit' | 'contract' | 'e2e';
const LAYERS: Layer[] = ['unit', 'contract', 'e2e'];

const MINUTE = 60_000;
/**
 * How long one test file, and a whole layer, may run before it is a failure. On 2 cores a whole run takes about
 * 5 minutes (unit 30 s, each contract run 20 s, e2e 3 min): the bounds leave room for a machine several times slower.
 */
const TIMEOUTS: Record<Layer, { fileMs: number; layerMs: number }> = {
  unit: { fileMs: 2 * MINUTE, layerMs: 6 * MINUTE },
  contract: { fileMs: 3 * MINUTE, layerMs: 8 * MINUTE },
  e2e: { fileMs: 10 * MINUTE, layerMs: 20 * MINUTE },
};
/** The whole run, server starts included: past it, a layer is cut short and the runs not started count as failed. */
const RUN_BUDGET_MS = 60 * MINUTE;

/** The values of `--name value` and `--name=value` in argv. */
function optionValues(argv: string[], name: string): string[] {
  return argv.flatMap((arg, i) => (arg === name ? [argv[i + 1] ?? ''] : arg.startsWith(`${name}=`) ? [arg.slice(name.length + 1)] : []));
}

function selectedLayers(argv: string[]): Layer[] {
  const picked = optionValues(argv, '--only');
  for (const layer of picked) {
    if (!LAYERS.includes(layer as Layer)) throw new Error(`Unknown layer "${layer}": use ${LAYERS.join(', ')}.`);
  }
  return picked.length ? (picked as Layer[]) : LAYERS;
}

/** The server generations the contract layer runs against, in order. */
function selectedServers(argv: string[]): ServerVersion[] {
  const picked = optionValues(argv, '--server').map((v) => parseServerVersion(v, '--server'));
  if (picked.length) return [...new Set(picked)];
  const fromEnv = process.env[SERVER_VERSION_ENV];
  return fromEnv ? [parseServerVersion(fromEnv, SERVER_VERSION_ENV)] : [...SERVER_VERSIONS];
}

function testFiles(layer: Layer): string[] {
  const dir = path.join(__dirname, layer);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => path.join('test', layer, name));
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** One `node --test` run of a layer, and the real Unleash it runs against (none for unit tests). */
interface Run {
  layer: Layer;
  server?: ServerVersion;
}

function plannedRuns(layers: Layer[], servers: ServerVersion[]): Run[] {
  return layers.flatMap((layer): Run[] => {
    if (layer === 'unit') return [{ layer }];
    if (layer === 'contract') return servers.map((server) => ({ layer, server }));
    return [{ layer, server: E2E_SERVER_VERSION }];
  });
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const layers = selectedLayers(argv);
  const runs = plannedRuns(layers, layers.includes('contract') ? selectedServers(argv) : []);
  const files = runs.flatMap((run) => testFiles(run.layer));
  const started = Date.now();
  const baseEnv: NodeJS.ProcessEnv = { ...process.env };
  delete baseEnv.UNLEASH_API_TOKEN;

  const counts = { pass: 0, fail: 0 };
  const deadline = started + RUN_BUDGET_MS;
  for (const run of runs) {
    const label = run.server ? `${run.layer} (unleash-server ${run.server})` : run.layer;
    if (Date.now() >= deadline) {
      console.log(`✖ layer ${label} not started: the run's budget of ${RUN_BUDGET_MS / MINUTE} min is spent.`);
      counts.fail += 1;
      continue;
    }
    const result = run.server
      ? await withRealUnleash(run.server, (unleash) => runNodeTests(run.layer, testFiles(run.layer), { ...baseEnv, ...contractEnv(unleash) }, deadline))
      : await runNodeTests(run.layer, testFiles(run.layer), baseEnv, deadline);
    console.log(`Layer ${label}: ${result.pass} passed, ${result.fail} failed in ${seconds(result.ms)}.`);
    counts.pass += result.pass;
    counts.fail += result.fail;
  }
  console.log(`Layers ${runs.map((run) => (run.server ? `${run.layer}@${run.server}` : run.layer)).join(', ')}: ${files.length} files in ${seconds(Date.now() - started)}.`);
  console.log(`tests: ${counts.pass} passed, ${counts.fail} failed`);
  return counts.fail === 0 ? 0 : 1;
}

/**
 * Starts a fresh, seeded real Unleash of that generation for `use`, and stops it (by pid) afterwards. A server that
 * does not start counts as one failure of that run (the other runs still go ahead).
 */
async function withRealUnleash(
  version: ServerVersion,
  use: (unleash: RealUnleash) => Promise<{ pass: number; fail: number; ms: number }>,
): Promise<{ pass: number; fail: number; ms: number }> {
  console.log(`Starting a real Unleash ${version} on 127.0.0.1 (PostgreSQL + unleash-server)…`);
  const started = Date.now();
  let unleash: RealUnleash;
  try {
    unleash = await startRealUnleash({ version, seed: true, searchRateLimit: SUITE_SEARCH_RATE_LIMIT });
  } catch (error) {
    console.log(`✖ the real Unleash ${version} did not start: ${error instanceof Error ? error.message : String(error)}`);
    return { pass: 0, fail: 1, ms: Date.now() - started };
  }
  try {
    console.log(
      `Real Unleash ${version} ready at ${unleash.url}: installed in ${seconds(unleash.timings.installMs)}, PostgreSQL ${seconds(unleash.timings.postgresMs)}, ` +
        `Unleash started in ${seconds(unleash.startMs)}, seeded in ${seconds(unleash.seedMs)} (pids ${unleash.pids.unleash}, ${unleash.pids.postgres}).`,
    );
    return await use(unleash);
  } finally {
    await unleash.stop();
    console.log(`Real Unleash ${version} and PostgreSQL stopped.`);
  }
}

/**
 * Runs node's test runner over one layer's files, echoing its output and reading its closing counts. A run that
 * exits non-zero without a failing count, or outlives the layer's timeout or the run's deadline (it is killed with its
 * file processes), counts as one more failure. Once killed, it is over within 10 s even if something it started still
 * holds its output open.
 */
function runNodeTests(layer: Layer, files: string[], env: NodeJS.ProcessEnv, deadline: number): Promise<{ pass: number; fail: number; ms: number }> {
  const { fileMs } = TIMEOUTS[layer];
  const started = Date.now();
  const layerMs = Math.min(TIMEOUTS[layer].layerMs, deadline - started);
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import', 'tsx', '--test', '--test-concurrency=2', `--test-timeout=${fileMs}`,
        '--test-reporter=tap', '--test-reporter-destination=stdout',
        `--test-reporter=${path.join(__dirname, 'support', 'timeoutReporter.mjs')}`, '--test-reporter-destination=stderr',
        ...files,
      ],
      { env, stdio: ['ignore', 'pipe', 'inherit'], detached: true },
    );
    let tail = '';
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      console.log(`✖ layer ${layer} did not finish within ${(layerMs / MINUTE).toFixed(1)} min: killed (pid ${child.pid}) with its test files.`);
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      setTimeout(() => finish(null), 10_000);
    }, layerMs);
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      tail = (tail + chunk.toString('utf8')).slice(-4000);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    let finished = false;
    const finish = (code: number | null): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      child.stdout.destroy();
      const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)`, 'm').exec(tail)?.[1] ?? 0);
      const pass = count('pass');
      let fail = count('fail') + count('cancelled');
      if ((killed || code !== 0) && fail === 0) fail = 1;
      resolve({ pass, fail, ms: Date.now() - started });
    };
    child.on('close', finish);
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.stack : error);
    console.log('tests: 0 passed, 1 failed');
    process.exit(1);
  },
);
