/**
 * The whole test suite, as `npm test` runs it (and so CI):
 *   1. unit tests (plain Node, fixture servers on 127.0.0.1),
 *   2. contract tests against one real Unleash 7.5.1 (PostgreSQL + unleash-server, started here, stopped by pid),
 *   3. end-to-end tests in a real VS Code (code-server + Chromium) against the same server.
 * Each layer is one `node --test` run, and every wait is bounded: the runner's `--test-timeout` ends a test file that
 * runs too long (Node 20 applies it to each file's process as a whole) and timeoutReporter.mjs names the test that
 * was running; a layer that still has not finished by its own timeout is killed and counted as a failure. The last
 * line is a plain `tests: N passed, N failed` that CI reads.
 *
 *   npm test                         everything
 *   npm test -- --only unit          one layer (unit | contract | e2e); repeatable
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { startRealUnleash, type RealUnleash } from './contract/harness';
import { contractEnv } from './contract/env';

type Layer = 'unit' | 'contract' | 'e2e';
const LAYERS: Layer[] = ['unit', 'contract', 'e2e'];

const MINUTE = 60_000;
/** How long one test file, and a whole layer, may run before it is a failure. */
const TIMEOUTS: Record<Layer, { fileMs: number; layerMs: number }> = {
  unit: { fileMs: 2 * MINUTE, layerMs: 10 * MINUTE },
  contract: { fileMs: 5 * MINUTE, layerMs: 20 * MINUTE },
  e2e: { fileMs: 20 * MINUTE, layerMs: 40 * MINUTE },
};

function selectedLayers(argv: string[]): Layer[] {
  const picked = argv.flatMap((arg, i) => (arg === '--only' ? [argv[i + 1]] : arg.startsWith('--only=') ? [arg.slice(7)] : []));
  for (const layer of picked) {
    if (!LAYERS.includes(layer as Layer)) throw new Error(`Unknown layer "${layer}": use ${LAYERS.join(', ')}.`);
  }
  return picked.length ? (picked as Layer[]) : LAYERS;
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

async function main(): Promise<number> {
  const layers = selectedLayers(process.argv.slice(2));
  const files = layers.flatMap(testFiles);
  const started = Date.now();
  let unleash: RealUnleash | undefined;
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.UNLEASH_API_TOKEN;

  const counts = { pass: 0, fail: 0 };
  try {
    if (layers.includes('contract') || layers.includes('e2e')) {
      console.log('Starting a real Unleash 7.5.1 on 127.0.0.1 (PostgreSQL + unleash-server)…');
      unleash = await startRealUnleash({ seed: true });
      console.log(
        `Real Unleash ready at ${unleash.url}: installed in ${seconds(unleash.timings.installMs)}, PostgreSQL ${seconds(unleash.timings.postgresMs)}, ` +
          `Unleash started in ${seconds(unleash.startMs)}, seeded in ${seconds(unleash.seedMs)} (pids ${unleash.pids.unleash}, ${unleash.pids.postgres}).`,
      );
      Object.assign(env, contractEnv(unleash));
    }
    for (const layer of layers) {
      const result = await runNodeTests(layer, testFiles(layer), env);
      console.log(`Layer ${layer}: ${result.pass} passed, ${result.fail} failed in ${seconds(result.ms)}.`);
      counts.pass += result.pass;
      counts.fail += result.fail;
    }
  } finally {
    if (unleash) {
      await unleash.stop();
      console.log('Real Unleash and PostgreSQL stopped.');
    }
  }
  console.log(`Layers ${layers.join(', ')}: ${files.length} files in ${seconds(Date.now() - started)}.`);
  console.log(`tests: ${counts.pass} passed, ${counts.fail} failed`);
  return counts.fail === 0 ? 0 : 1;
}

/**
 * Runs node's test runner over one layer's files, echoing its output and reading its closing counts. A run that
 * exits non-zero without a failing count, or outlives the layer's timeout (it is killed with its file processes),
 * counts as one more failure.
 */
function runNodeTests(layer: Layer, files: string[], env: NodeJS.ProcessEnv): Promise<{ pass: number; fail: number; ms: number }> {
  const { fileMs, layerMs } = TIMEOUTS[layer];
  const started = Date.now();
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
      console.log(`✖ layer ${layer} did not finish within ${layerMs / MINUTE} min: killed (pid ${child.pid}) with its test files.`);
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, layerMs);
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      tail = (tail + chunk.toString('utf8')).slice(-4000);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)`, 'm').exec(tail)?.[1] ?? 0);
      const pass = count('pass');
      let fail = count('fail') + count('cancelled');
      if ((killed || code !== 0) && fail === 0) fail = 1;
      resolve({ pass, fail, ms: Date.now() - started });
    });
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
