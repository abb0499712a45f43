/**
 * The whole test suite, as `npm test` runs it (and so CI):
 *   1. unit tests (plain Node, fixture servers on 127.0.0.1),
 *   2. contract tests against one real Unleash 7.5.1 (PostgreSQL + unleash-server, started here, stopped by pid),
 *   3. end-to-end tests in a real VS Code (code-server + Chromium) against the same server.
 * One `node --test` run covers the selected files, so node's runner prints one summary; the last line is a plain
 * `tests: N passed, N failed` that CI reads.
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

  let counts = { code: 1, pass: 0, fail: 0 };
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
    counts = await runNodeTests(files, env);
  } finally {
    if (unleash) {
      await unleash.stop();
      console.log('Real Unleash and PostgreSQL stopped.');
    }
  }
  console.log(`Layers ${layers.join(', ')}: ${files.length} files in ${seconds(Date.now() - started)}.`);
  console.log(`tests: ${counts.pass} passed, ${counts.fail} failed`);
  return counts.code === 0 && counts.fail === 0 ? 0 : 1;
}

/** Runs node's test runner over the files, echoing its output and reading its closing counts. */
function runNodeTests(files: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; pass: number; fail: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let tail = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      tail = (tail + chunk.toString('utf8')).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)`, 'm').exec(tail)?.[1] ?? 0);
      resolve({ code: code ?? 1, pass: count('pass'), fail: count('fail') + count('cancelled') });
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
