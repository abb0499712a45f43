/**
 * `npm run bench:real` (= `npm run bench -- --real`): the extension's code as it ships against a REAL Unleash (the
 * contract harness's, filled by server.ts and fill.ts, the database cached under bench/results/real-cache/), beside
 * bare reads of the same data in the same run, one size at a time: the flag list (listing.ts), the export (export.ts),
 * the store's heap (memory.ts), then a CPU profile of the export (profile.ts). Figures are medians. Options: USAGE
 * (`npx tsx bench/run.ts --real --help`).
 */
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import type { HttpEvent } from '../../src/api/httpOptions';
import { mb, ms, n, times } from '../format';
import { machine, round } from '../measure';
import { loadSubject, type Subject } from '../subject-build';
import { benchPool } from './bare';
import { benchExport } from './export';
import { bareCandidates, clientCandidate, newClient, runCandidates, storeCandidate } from './listing';
import { benchMemory, type MemoryFigures } from './memory';
import { profileExport, type ExportProfile } from './profile';
import { startFilled, type FilledUnleash, type Layout } from './server';
import { candidatesTable, growthTable, summaryTable, type SizeResult } from './tables';

const RESULTS = path.resolve(__dirname, '..', 'results');

const USAGE = `npx tsx bench/run.ts --real [--sizes 1000,10000] [--reps 3] [--reps-large 1] [--skip-large "1 in flight"] [--no-profile] [--no-write] [--quick] [--one-project]
UNLEASH_CONTRACT_SERVER=8.2.0 npx tsx bench/run.ts --real …     (the other server generation)`;

interface RealOptions {
  sizes: number[];
  reps: number;
  /** Repetitions at 10,000 flags and more (a loaded machine makes each search page there cost seconds). */
  repsLarge: number;
  /** Candidates left out at 10,000 flags and more (substrings of their names). */
  skipLarge: string[];
  profile: boolean;
  write: boolean;
  /** How the flags sit in projects (real/server.ts). */
  layout: Layout;
}

function parseRealArgs(argv: readonly string[]): RealOptions {
  const options: RealOptions = { sizes: [1_000, 10_000], reps: 3, repsLarge: 0, skipLarge: [], profile: true, write: true, layout: 'six-projects' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const v = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--real') continue;
    else if (arg === '--help') {
      console.log(USAGE);
      process.exit(0);
    }
    else if (arg === '--no-profile') options.profile = false;
    else if (arg === '--no-write') options.write = false;
    else if (arg === '--one-project') options.layout = 'one-project';
    else if (arg === '--quick') options.reps = 1;
    else if (arg.startsWith('--sizes')) options.sizes = value().split(',').map(Number);
    else if (arg.startsWith('--reps-large')) options.repsLarge = Number(value());
    else if (arg.startsWith('--skip-large')) options.skipLarge = value().split(',').filter(Boolean);
    else if (arg.startsWith('--reps')) options.reps = Number(value());
    else throw new Error(`--real: unknown option ${arg}; use ${USAGE}`);
  }
  if (!options.repsLarge) options.repsLarge = options.reps;
  if (!options.sizes.every((n) => Number.isInteger(n) && n > 0 && n <= 50_000)) throw new Error('--sizes: flag counts from 1 to 50,000');
  if (![options.reps, options.repsLarge].every((r) => Number.isInteger(r) && r >= 1 && r <= 15)) throw new Error('--reps, --reps-large: 1 to 15');
  return options;
}

// ---- One size ----------------------------------------------------------------------------------------------------

async function benchSize(S: Subject, jobs: InstanceType<Subject['WorkerJobs']>, running: FilledUnleash, projects: string[], options: RealOptions, log: (line: string) => void): Promise<SizeResult> {
  const { url, adminToken: token } = running.unleash;
  const pool = benchPool(url);
  let onEvent: ((event: HttpEvent) => void) | undefined;
  const client = newClient(S, url, token, (event) => onEvent?.(event), jobs);
  const listen = (handler: typeof onEvent) => (onEvent = handler);
  try {
    const large = running.flags >= 10_000;
    const reps = large ? options.repsLarge : options.reps;
    const bare = bareCandidates(url, token, pool, projects).filter((c) => !large || !options.skipLarge.some((skip) => c.name.includes(skip)));
    const ours = clientCandidate(client, listen);
    const refresh = clientCandidate(client, listen, true);
    log(`  reading the flag list (${reps} repetition(s) of ${bare.length + 3} candidates)`);
    const candidates = await runCandidates([...bare, ours, refresh, storeCandidate(S, client)], reps, running.flags, log);
    const completeBare = candidates.filter((c) => !c.ours && c.complete);
    const fastest = completeBare.reduce((a, b) => (b.total.median < a.total.median ? b : a));
    const fastestFirst = completeBare.reduce((a, b) => (b.first.median < a.first.median ? b : a));
    const discoverable = completeBare.filter((c) => !c.knowsProjects).reduce((a, b) => (b.total.median < a.total.median ? b : a));
    const mine = candidates.find((c) => c.name === ours.name)!;
    const mineRefresh = candidates.find((c) => c.name === refresh.name)!;
    log(`  export of development (${Math.max(reps, 3)} repetitions)`);
    const exported = await benchExport(S, client, url, token, pool, running.flags, Math.max(reps, 3));
    let memory: MemoryFigures | undefined;
    if (running.flags >= 10_000) {
      log('  heap of the loaded store');
      // A failed load here (a busy server timing out) costs the heap figure, not the run's other figures.
      memory = await benchMemory(S, client, url, token, pool, running.flags).catch((error: unknown) => {
        log(`  heap NOT measured: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      });
    }
    return {
      flags: running.flags,
      server: { version: running.version, filledBy: running.filledBy, fillMs: running.fillMs, startMs: running.startMs, projects },
      candidates,
      clientOffersRows: ours.offersRows(),
      clientHow: ours.how(),
      fastestBare: { name: fastest.name, ms: fastest.total.median },
      fastestDiscoverable: { name: discoverable.name, ms: discoverable.total.median },
      fastestBareFirst: { name: fastestFirst.name, ms: fastestFirst.first.median },
      oneRequestMs: candidates.find((c) => c.name.startsWith('search,'))?.first.median,
      ours: {
        ms: mine.total.median,
        firstMs: mine.first.median,
        firstRequestSentMs: mine.firstRequestSentMs,
        ratio: round(mine.total.median / fastest.total.median, 3),
        ratioDiscoverable: round(mine.total.median / discoverable.total.median, 3),
        refreshMs: mineRefresh.total.median,
        refreshRatio: round(mineRefresh.total.median / fastest.total.median, 3),
        refreshHow: refresh.how(),
      },
      export: exported,
      memory,
    };
  } finally {
    await client.close();
    await pool.close();
  }
}

// ---- Main --------------------------------------------------------------------------------------------------------

export async function runReal(argv: readonly string[]): Promise<void> {
  const options = parseRealArgs(argv);
  const started = performance.now();
  const date = new Date();
  const host = machine();
  const log = (line: string) => console.log(line);
  console.log(`Unleash flags benchmark against a REAL server, ${date.toISOString()}`);
  console.log(
    `machine: ${host.cpu}, ${host.cores} cores, ${host.memoryGiB} GiB, node ${host.node}, ${host.platform}, load average ${host.loadAverage}` +
      (host.loadAverage > host.cores ? ' (busy machine: figures are noisy)' : ''),
  );
  await fsp.mkdir(RESULTS, { recursive: true });
  const loaded = await loadSubject('bundle', path.join(RESULTS, '.build'));
  const S = loaded.subject;
  // Large answers are parsed in the worker thread, as the extension does (dist/worker.js, built beside the bundle).
  const jobs = new S.WorkerJobs(S.nodeWorker(loaded.worker.script, { eval: loaded.worker.eval }), undefined, undefined, true);
  console.log(`code measured: src/ bundled by esbuild as it ships, built in ${ms(loaded.buildMs ?? 0)}`);

  const results: SizeResult[] = [];
  let profile: ExportProfile | undefined;
  let durationSeconds = 0;
  const stamp = date.toISOString().replace(/:/g, '-').replace(/\.\d+Z$/, 'Z');
  const save = async (): Promise<void> => {
    const text = `${JSON.stringify({ date: date.toISOString(), durationSeconds, machine: host, options, results, profile }, null, 2)}\n`;
    await fsp.writeFile(path.join(RESULTS, `real-${stamp}.json`), text);
    await fsp.writeFile(path.join(RESULTS, 'real-latest.json'), text);
  };
  for (const flags of options.sizes) {
    console.log(`\n${n(flags)} flags: starting a real Unleash (cached database or import)…`);
    const running = await startFilled(flags, (line) => {
      if (/^(bench|fill|postgres):/.test(line) || /unleash: pid/.test(line)) log(`  ${line}`);
    }, options.layout);
    try {
      console.log(`  unleash-server ${running.version} at ${running.unleash.url} (pid ${running.unleash.pids.unleash}, postgres ${running.unleash.pids.postgres})`);
      const projects = (await running.unleash.postgres.psql("SELECT DISTINCT project FROM features WHERE archived_at IS NULL ORDER BY 1;")).split('\n').filter(Boolean);
      const result = await benchSize(S, jobs, running, projects, options, log);
      results.push(result);
      if (options.write) await save(); // what is measured so far survives an interrupted run
      console.log(`  catalog: ours ${ms(result.ours.ms)} vs ${ms(result.fastestBare.ms)} (${times(result.ours.ratio)}); export ${ms(result.export.ours.median)} vs ${ms(result.export.bareToFile.median)} (${times(result.export.ratio)})`);
      if (options.profile && flags === Math.max(...options.sizes)) {
        console.log('  profiling the export path…');
        profile = await profileExport({ url: running.unleash.url, token: running.unleash.adminToken, outDir: path.join(RESULTS, '.build'), log });
      }
    } finally {
      await running.unleash.stop();
    }
  }

  durationSeconds = round((performance.now() - started) / 1000, 1);
  console.log('');
  console.log(summaryTable(results));
  console.log('');
  console.log(candidatesTable(results));
  console.log('');
  console.log(growthTable(results));
  for (const r of results) {
    const s = r.export.steps;
    if (!s) {
      console.log(`\n  ${n(r.flags)} flags on unleash-server ${r.server.version}: the answer (${mb(r.export.bytesOnWire)}) is past what the client holds whole; exportToFile streamed it (peak heap +${mb(r.export.peakExtraBytes)})`);
      continue;
    }
    console.log(
      `\n  ${n(r.flags)} flags on unleash-server ${r.server.version} (${r.server.projects.length} projects; database ${{ cache: 'restored from the cache', import: 'filled by import', copies: 'copied in SQL from the imported 1,000' }[r.server.filledBy]} in ${ms(r.server.fillMs)}): ` +
        `export steps (medians): request+JSON.parse+zod ${ms(s.requestParseValidate.median)}, canonical layout+stringify ${ms(s.serialize.median)}, ` +
        `atomic write+fsync ${ms(s.atomicWrite.median)}; bare request+JSON.parse ${ms(s.bareRequestJsonParse.median)}, ` +
        `the same asking for gzip (as our client) +gunzip ${ms(s.bareGzipRequestJsonParse.median)}`,
    );
  }
  if (profile) {
    console.log(`\n  export profile (exportToFile of ${n(profile.flags)} flags, ${profile.runs} runs, self time by function, unminified bundle):`);
    console.log(profile.table.split('\n').map((l) => `  ${l}`).join('\n'));
    console.log(`  by area: ${profile.areas.map((a) => `${a.area} ${a.percent.toFixed(1)} %`).join(', ')}`);
  }
  console.log(`\n  ${host.cpu}, ${host.cores} cores, ${host.memoryGiB} GiB, node ${host.node}; ${date.toISOString()}; load average ${host.loadAverage}; ${durationSeconds} s`);

  if (options.write) {
    await save();
    console.log(`  wrote bench/results/real-${stamp}.json and real-latest.json`);
  }
}
