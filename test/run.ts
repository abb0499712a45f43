/**
 * The whole test suite, as `npm test` runs it (and so CI), layer by layer (test/runner/layers.ts):
 *   1. unit      plain Node, fake servers on 127.0.0.1 (test/unit/),
 *   2. checks    the repository as a whole: linter, dead code, translations, bundles, the .vsix (test/checks/),
 *   3. hostile   the bench/hostile/ scenarios, each in a fresh Node with a 256 MB heap (test/hostile/),
 *   4. contract  a real Unleash (PostgreSQL + unleash-server, started here, stopped by pid), once per server
 *                generation: 7.5.1, then 8.2.0, each fresh and seeded (test/contract/),
 *   5. e2e       the packaged extension in a real VS Code (code-server + Chromium) against a fresh real Unleash 7.5.1
 *                (test/e2e/).
 * Every test file runs in its own process and every wait is bounded (test/runner/runFiles.ts): a file that outlives
 * its bound, or every file of a layer that outlives the layer's, is killed with what it started, and the test it was
 * in is named and counts as failed; the tests that passed before still count. The whole run has a budget
 * (RUN_BUDGET_MS) that no layer may outlive, so that CI always reaches the last line: `tests: N passed, N failed`.
 *
 *   npm test                         everything
 *   npm test -- --only unit          one layer (unit | checks | hostile | contract | e2e); repeatable
 *   npm test -- --server 8.2.0       the contract layer against one generation (7.5.1 | 8.2.0); repeatable.
 *                                    Without it: UNLEASH_CONTRACT_SERVER when set, else every generation.
 *   npm test -- --verbose            print every file's output (by default only a failing file's)
 */
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
import { ensureHost } from '../tools/editor/ensureHost';
import { ensureVsix } from '../tools/vsix';
import { contractEnv } from './contract/env';
import { LAYERS, testFiles, type LayerSpec } from './runner/layers';
import { runFiles, stopAllNow, type LayerOutcome } from './runner/runFiles';

const MINUTE = 60_000;
/** The whole run, server starts included: past it, a layer is cut short and the runs not started count as failed. */
const RUN_BUDGET_MS = 60 * MINUTE;
const ROOT = path.resolve(__dirname, '..');

/** The values of `--name value` and `--name=value` in argv. */
function optionValues(argv: string[], name: string): string[] {
  return argv.flatMap((arg, i) => (arg === name ? [argv[i + 1] ?? ''] : arg.startsWith(`${name}=`) ? [arg.slice(name.length + 1)] : []));
}

function selectedLayers(argv: string[]): LayerSpec[] {
  const picked = optionValues(argv, '--only');
  for (const name of picked) {
    if (!LAYERS.some((layer) => layer.name === name)) throw new Error(`Unknown layer "${name}": use ${LAYERS.map((l) => l.name).join(', ')}.`);
  }
  return picked.length ? LAYERS.filter((layer) => picked.includes(layer.name)) : LAYERS;
}

/** The server generations the contract layer runs against, in order. */
function selectedServers(argv: string[]): ServerVersion[] {
  const picked = optionValues(argv, '--server').map((v) => parseServerVersion(v, '--server'));
  if (picked.length) return [...new Set(picked)];
  const fromEnv = process.env[SERVER_VERSION_ENV];
  return fromEnv ? [parseServerVersion(fromEnv, SERVER_VERSION_ENV)] : [...SERVER_VERSIONS];
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** One run of a layer's files, and the real Unleash it runs against (none but for contract and e2e). */
interface Run {
  layer: LayerSpec;
  server?: ServerVersion;
}

function plannedRuns(layers: LayerSpec[], servers: ServerVersion[]): Run[] {
  return layers.flatMap((layer): Run[] => {
    if (layer.name === 'contract') return servers.map((server) => ({ layer, server }));
    if (layer.name === 'e2e') return [{ layer, server: E2E_SERVER_VERSION }];
    return [{ layer }];
  });
}

const counts = { pass: 0, fail: 0 };

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const layers = selectedLayers(argv);
  const runs = plannedRuns(layers, layers.some((l) => l.name === 'contract') ? selectedServers(argv) : []);
  const verbose = argv.includes('--verbose');
  const started = Date.now();
  const baseEnv: NodeJS.ProcessEnv = { ...process.env };
  delete baseEnv.UNLEASH_API_TOKEN;

  const deadline = started + RUN_BUDGET_MS;
  let files = 0;
  for (const run of runs) {
    const label = run.server ? `${run.layer.name} (unleash-server ${run.server})` : run.layer.name;
    if (Date.now() >= deadline) {
      console.log(`✖ layer ${label} not started: the run's budget of ${RUN_BUDGET_MS / MINUTE} min is spent.`);
      counts.fail += 1;
      continue;
    }
    const layerFiles = testFiles(run.layer.name);
    files += layerFiles.length;
    console.log(`Layer ${label}: ${layerFiles.length} files (${run.layer.what}).`);
    if (run.layer.name === 'e2e' && !(await prepareEditor())) {
      counts.fail += 1;
      continue;
    }
    const go = (env: NodeJS.ProcessEnv): Promise<LayerOutcome> =>
      runFiles({
        files: layerFiles,
        cwd: ROOT,
        env,
        concurrency: run.layer.concurrency,
        fileMs: run.layer.fileMs,
        layerMs: Math.min(run.layer.layerMs, deadline - Date.now()),
        log: (line) => console.log(line),
        verbose,
      });
    const result = run.server ? await withRealUnleash(run.server, (unleash) => go({ ...baseEnv, ...contractEnv(unleash) })) : await go(baseEnv);
    if (result.stopped) {
      const running = result.files.filter((f) => f.killed).map((f) => `${f.file} › ${f.runningTest ?? 'no test'}`);
      console.log(
        `✖ layer ${label} stopped at ${result.stopped}: ${result.pass} passed before it; it was in ${running.join('; ') || 'no test'}` +
          (result.notRun.length ? `; not run: ${result.notRun.join(', ')}` : '') +
          '.',
      );
    }
    console.log(`Layer ${label}: ${result.pass} passed, ${result.fail} failed in ${seconds(result.ms)}.`);
    counts.pass += result.pass;
    counts.fail += result.fail;
  }
  console.log(`Layers ${runs.map((run) => (run.server ? `${run.layer.name}@${run.server}` : run.layer.name)).join(', ')}: ${files} files in ${seconds(Date.now() - started)}.`);
  console.log(`tests: ${counts.pass} passed, ${counts.fail} failed`);
  return counts.fail === 0 ? 0 : 1;
}

/**
 * What the e2e files need before they start, done once here rather than by the first file within its bound: the
 * editor host installed (install.mjs bounds its own steps) and the packaged extension current. Their output is shown
 * only when they fail.
 */
async function prepareEditor(): Promise<boolean> {
  const output: string[] = [];
  const log = (line: string): void => void output.push(line);
  try {
    const t0 = Date.now();
    const { installed } = await ensureHost({ log });
    console.log(`The editor host (code-server 4.100.3, playwright-core): ${installed ? 'installed' : 'installed already'}, ${seconds(Date.now() - t0)}.`);
    const t1 = Date.now();
    const vsix = await ensureVsix(log);
    console.log(`The packaged extension: ${vsix.built ? `packaged (${vsix.built})` : 'current'}, ${seconds(Date.now() - t1)}.`);
    return true;
  } catch (error) {
    console.log(`✖ the e2e layer cannot start: ${error instanceof Error ? error.message : String(error)}`);
    console.log(output.slice(-40).join('\n'));
    return false;
  }
}

/**
 * Starts a fresh, seeded real Unleash of that generation for `use`, and stops it (by pid) afterwards. A server that
 * does not start counts as one failure of that run (the other runs still go ahead).
 */
async function withRealUnleash(version: ServerVersion, use: (unleash: RealUnleash) => Promise<LayerOutcome>): Promise<LayerOutcome> {
  console.log(`Starting a real Unleash ${version} on 127.0.0.1 (PostgreSQL + unleash-server)…`);
  const started = Date.now();
  let unleash: RealUnleash;
  try {
    unleash = await startRealUnleash({ version, seed: true, searchRateLimit: SUITE_SEARCH_RATE_LIMIT });
  } catch (error) {
    console.log(`✖ the real Unleash ${version} did not start: ${error instanceof Error ? error.message : String(error)}`);
    return { pass: 0, fail: 1, ms: Date.now() - started, files: [], notRun: [] };
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

// Ctrl+C or a kill: the files running are killed with what they started and their folders removed, before the
// harness's own hooks stop the real Unleash and end the process; the summary line still comes out.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.prependListener(signal, () => {
    stopAllNow();
    console.log(`✖ interrupted by ${signal}: the files running were killed.`);
    console.log(`tests: ${counts.pass} passed, ${counts.fail + 1} failed`);
    process.exit(130);
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
