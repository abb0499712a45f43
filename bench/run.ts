/**
 * `npm run bench`: every figure the README quotes, each against a baseline measured in the same run.
 *
 *   npx tsx bench/run.ts [--quick] [--only catalog,export,hover,code,tree,package,activation] [--flags 10000] [--source] [--package] [--no-write]
 *
 *   --quick     fewer repetitions (a smoke run; the figures are noisier)
 *   --only      run only some measures (comma-separated)
 *   --flags     flags of the tree, hover, completion and diagnostics measures (default 10,000; catalog and export
 *               keep 1,000 and 10,000: at 50,000 they are measured against a real server, `npm run bench:real`)
 *   --source    measure the TypeScript source under tsx instead of the esbuild bundle (what ships)
 *   --package   run `npm run package` first even when dist/ already has a .vsix
 *   --no-write  do not write bench/results/*.json
 *
 * Serves generated data sets (bench/data.ts) of 1,000 and 10,000 flags from a fixture server on 127.0.0.1 in a
 * child process (bench/server.ts), prints the machine, one table and where the export time goes, and writes the
 * results to bench/results/<date>.json and bench/results/latest.json. Nothing is asserted.
 *
 * `--real` (or `npm run bench:real`) measures against a real Unleash instead: see bench/real/run.ts.
 */
import { createWriteStream } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Pool, request } from 'undici';
import type { FlagSource } from '../src/model/store/flagSource';
import { activationLines, runActivationBench, type ActivationBenchResult } from './activation.bench';
import { activateTime, packageSizes, type ActivateTime, type PackageSizes } from './artifacts';
import { runCodeBench, type CodeBenchResult } from './code.bench';
import { runHoverBench, type HoverBenchResult } from './hover.bench';
import { runHoverContentBench, type HoverContentBenchResult } from './hoverContent.bench';
import { mapLimited } from '../src/base/mapLimited';
import { markdownTable, mb, ms, n, times } from './format';
import { gc, machine, pair, retainedBytes, round, single, stats, type Pair, type Stats } from './measure';
import { startBenchServers, type BenchServers } from './server';
import { loadSubject, type Subject } from './subject-build';

const ROOT = path.resolve(__dirname, '..');
const RESULTS = path.join(__dirname, 'results');
const TOKEN = '*:*.bench-admin-token';
const PAGE = 100;
const PAGE_CONCURRENCY = 4; // as UnleashClient.listFeatures
const SIZES = [1_000, 10_000];
const MEASURES = ['catalog', 'export', 'hover', 'code', 'tree', 'package', 'activation'] as const;
type Measure = (typeof MEASURES)[number];

interface Options {
  quick: boolean;
  /** Flags of the tree, hover, completion and diagnostics measures (`--flags`, default 10,000). */
  flags: number;
  only: Set<Measure>;
  forcePackage: boolean;
  source: boolean;
  write: boolean;
}

const USAGE = `npx tsx bench/run.ts [--quick] [--only ${MEASURES.join(',')}] [--flags 10000] [--source] [--package] [--no-write]
npx tsx bench/run.ts --real --help     (against a real Unleash)`;

function parseArgs(argv: readonly string[]): Options {
  const options: Options = { quick: false, flags: 10_000, only: new Set(MEASURES), forcePackage: false, source: false, write: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help') {
      console.log(USAGE);
      process.exit(0);
    } else if (arg === '--quick') options.quick = true;
    else if (arg === '--package') options.forcePackage = true;
    else if (arg === '--no-write') options.write = false;
    else if (arg === '--source') options.source = true;
    else if (arg === '--flags' || arg.startsWith('--flags=')) {
      options.flags = Number(arg === '--flags' ? argv[++i] : arg.slice('--flags='.length));
      if (!Number.isInteger(options.flags) || options.flags < 1_000 || options.flags > 50_000) throw new Error('--flags: 1,000 to 50,000');
    }
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const list = arg === '--only' ? (argv[++i] ?? '') : arg.slice('--only='.length);
      const picked = list.split(',').filter(Boolean);
      for (const name of picked) {
        if (!(MEASURES as readonly string[]).includes(name)) throw new Error(`--only: unknown measure "${name}" (use ${MEASURES.join(', ')})`);
      }
      options.only = new Set(picked as Measure[]);
    } else throw new Error(`unknown option ${arg}; use ${USAGE}`);
  }
  return options;
}

// ---- 1. Catalog load ---------------------------------------------------------------------------------------------

/** The floor: the same pages, the same concurrency, the same pool settings, `JSON.parse` only. */
async function bareList(pool: Pool, url: string): Promise<unknown[]> {
  const page = async (offset: number): Promise<{ features: unknown[]; total?: number }> => {
    const response = await request(`${url}/api/admin/search/features?limit=${PAGE}&offset=${offset}&sortBy=name&sortOrder=asc`, {
      dispatcher: pool,
      headers: { authorization: TOKEN, accept: 'application/json' },
    });
    return JSON.parse(await response.body.text()) as { features: unknown[]; total?: number };
  };
  const first = await page(0);
  const offsets: number[] = [];
  for (let offset = PAGE; offset < (first.total ?? 0); offset += PAGE) offsets.push(offset);
  const rest = await mapLimited(offsets, PAGE_CONCURRENCY, async (offset) => (await page(offset)).features);
  return [first.features, ...rest].flat();
}

function newPool(url: string): Pool {
  // The same settings as src/api/dispatcher.ts, so the comparison is about the code, not the connections.
  return new Pool(new URL(url).origin, { connections: 8, keepAliveTimeout: 10_000 });
}

type Client = InstanceType<Subject['UnleashClient']>;
type Store = InstanceType<Subject['FlagStore']>;

/** The code under test: bundled as it ships, or the source (--source). Set once in main(). */
let S!: Subject;

function newClient(url: string): Client {
  return new S.UnleashClient({ baseUrl: url, getToken: () => TOKEN, timeoutMs: 120_000, dispatcher: newPool(url) });
}

interface CatalogResult {
  flags: number;
  pages: number;
  bytes: number;
  client: Pair;
  /** The whole refresh: client + Catalog (sort and name index), through FlagStore and ServerSource. */
  store: Pair;
  /** CPU only, on the same page texts (no network): JSON.parse of every page, and the zod schema on the parsed pages. */
  cpu: { jsonParse: Stats; zod: Stats };
}

async function benchCatalog(servers: BenchServers, flags: number, quick: boolean): Promise<CatalogResult> {
  const info = servers.byFlags(flags);
  const client = newClient(info.url);
  const pool = newPool(info.url);
  const big = flags >= 10_000;
  const reps = { warmup: quick ? 1 : big ? 3 : 10, repetitions: quick ? 3 : big ? 15 : 41 };
  try {
    const check = await client.listFeatures();
    const bare = await bareList(pool, info.url);
    if (check.length !== flags || bare.length !== flags) throw new Error(`catalog: expected ${flags} flags, got ${check.length} / ${bare.length}`);
    const clientPair = await pair(() => client.listFeatures(), () => bareList(pool, info.url), reps);
    const store = new S.FlagStore({ info() {}, error() {} });
    void store.load(); // needed from the start: setSource reads the list
    const source = new S.ServerSource(client, [], '');
    const storePair = await pair(
      async () => {
        await store.setSource(source, 'ready');
        if (store.catalog.size !== flags) throw new Error('store: wrong catalog size');
      },
      () => bareList(pool, info.url),
      reps,
    );
    store.dispose();

    const texts = await mapLimited(
      Array.from({ length: Math.ceil(flags / PAGE) }, (_, i) => i * PAGE),
      PAGE_CONCURRENCY,
      async (offset) =>
        (await request(`${info.url}/api/admin/search/features?limit=${PAGE}&offset=${offset}&sortBy=name&sortOrder=asc`, { dispatcher: pool, headers: { authorization: TOKEN } })).body.text(),
    );
    const cpuReps = quick ? 3 : 9;
    const cpuParse = {
      jsonParse: await single(() => texts.map((text) => JSON.parse(text) as unknown), 2, cpuReps),
    };
    const parsedPages = texts.map((text) => JSON.parse(text) as unknown);
    const cpu = { ...cpuParse, zod: await single(() => parsedPages.map((page) => S.featureSearchSchema.parse(page)), 2, cpuReps) };
    return { flags, pages: Math.ceil(flags / PAGE), bytes: info.searchBytes, client: clientPair, store: storePair, cpu };
  } finally {
    await client.close();
    await pool.close();
  }
}

// ---- 2. Export to a file -----------------------------------------------------------------------------------------

interface ExportResult {
  flags: number;
  bytesOnWire: number;
  bytesWritten: number;
  strategies: number;
  pair: Pair;
  /** Our steps timed one by one, and the request + JSON.parse floor, in milliseconds (medians). */
  steps: {
    requestParseValidate: Stats;
    serialize: Stats;
    atomicWrite: Stats;
    bareRequestJsonParse: Stats;
    bareRequestToFile: Stats;
    /** The least any tool writing a formatted file does: bare request, JSON.parse, JSON.stringify(…, 2), writeFile. */
    bareFormattedFile: Stats;
    /** CPU only, on the export text: JSON.parse, and the zod schema on the parsed value. */
    jsonParse: Stats;
    zod: Stats;
  };
  /** Our export when the file already holds the same bytes (no write). */
  unchanged: Stats;
}

async function benchExport(servers: BenchServers, quick: boolean): Promise<ExportResult> {
  const info = servers.byFlags(10_000);
  const client = newClient(info.url);
  const pool = newPool(info.url);
  const folder = await fsp.mkdtemp(path.join(RESULTS, '.export-'));
  const ours = path.join(folder, '.unleash', 'development.json');
  const bareFile = path.join(folder, 'bare', 'development.json');
  await fsp.mkdir(path.dirname(bareFile), { recursive: true });
  const body = JSON.stringify({ environment: 'development', features: [], downloadFile: true });
  const bareRequest = () =>
    request(`${info.url}/api/admin/features-batch/export`, {
      method: 'POST',
      dispatcher: pool,
      headers: { authorization: TOKEN, 'content-type': 'application/json', accept: 'application/json' },
      body,
    });
  const bare = async () => {
    const response = await bareRequest();
    await pipeline(response.body, createWriteStream(bareFile));
  };
  const run = () => S.exportToFile({ client, environment: 'development', scope: { kind: 'all' }, folder });
  const clean = async () => {
    await fsp.rm(ours, { force: true });
    await fsp.rm(bareFile, { force: true });
  };
  const reps = { warmup: quick ? 1 : 2, repetitions: quick ? 3 : 7 };
  try {
    await clean();
    const first = await run();
    if (!first.changed || first.flags !== 10_000) throw new Error(`export: unexpected result ${JSON.stringify({ ...first, previous: undefined })}`);
    const exportPair = await pair(run, bare, { ...reps, prepare: clean });

    const stepReps = quick ? 2 : 5;
    const result = await client.exportFeatures({ environment: 'development', scope: { kind: 'all' } });
    const wire = await (await bareRequest()).body.text();
    const parsedWire: unknown = JSON.parse(wire);
    const text = S.serializeExport(result);
    const data = Buffer.from(text, 'utf8');
    const steps = {
      requestParseValidate: await single(() => client.exportFeatures({ environment: 'development', scope: { kind: 'all' } }), 1, stepReps),
      serialize: await single(() => S.serializeExportBytes(result), 1, stepReps),
      atomicWrite: await single(() => S.writeFileAtomic(ours, data), 1, stepReps, () => fsp.rm(ours, { force: true })),
      bareRequestJsonParse: await single(async () => JSON.parse(await (await bareRequest()).body.text()), 1, stepReps),
      bareRequestToFile: await single(bare, 1, stepReps, () => fsp.rm(bareFile, { force: true })),
      bareFormattedFile: await single(
        async () => {
          const parsed: unknown = JSON.parse(await (await bareRequest()).body.text());
          await fsp.writeFile(bareFile, `${JSON.stringify(parsed, null, 2)}\n`);
        },
        1,
        stepReps,
        () => fsp.rm(bareFile, { force: true }),
      ),
      jsonParse: await single(() => JSON.parse(wire) as unknown, 1, stepReps),
      zod: await single(() => S.exportResultSchema.parse(parsedWire), 1, stepReps),
    };
    await run(); // the file as exportToFile writes it (with the segment definitions it reads besides the export)
    const unchanged = await single(async () => {
      if ((await run()).changed) throw new Error('export: expected an unchanged file');
    }, 1, stepReps);
    return {
      flags: first.flags,
      bytesOnWire: info.exportBytes,
      bytesWritten: first.bytes,
      strategies: first.strategies,
      pair: exportPair,
      steps,
      unchanged,
    };
  } finally {
    await client.close();
    await pool.close();
    await fsp.rm(folder, { recursive: true, force: true });
  }
}

// ---- 4. Tree root and memory -------------------------------------------------------------------------------------

interface TreeResult {
  flags: number;
  projects: number;
  /** Catalog + rootNodes + every project's children: every flag's row (label, description, tooltip). */
  total: Stats;
  catalog: Stats;
  rootNodes: Stats;
  rows: number;
  memory: {
    /** Heap the loaded store holds (after full GCs), bytes. */
    storeBytes: number;
    /** Heap held by the same pages when only JSON.parse'd (the floor for keeping the listing), bytes. */
    parsedBytes: number;
    ratio: number;
    bytesPerFlag: number;
  };
}

async function benchTree(servers: BenchServers, quick: boolean, flags: number): Promise<TreeResult> {
  const info = servers.byFlags(flags);
  const client = newClient(info.url);
  const pool = newPool(info.url);
  try {
    // Memory first, on a settled heap: the store as the extension holds it, and the JSON.parse'd pages.
    const loadStore = async (): Promise<Store> => {
      const store = new S.FlagStore({ info() {}, error() {} });
      void store.load(); // needed from the start: setSource reads the list
      await store.setSource(new S.ServerSource(client, [], ''), 'ready');
      if (store.catalog.size !== flags) throw new Error('tree: bad store');
      return store;
    };
    const loadParsed = async (): Promise<unknown[]> => {
      const parsed = await bareList(pool, info.url);
      if (parsed.length !== flags) throw new Error('tree: bad listing');
      return parsed;
    };
    const storeSamples: number[] = [];
    const parsedSamples: number[] = [];
    (await loadStore()).dispose(); // one-time allocations (compiled schemas, pools) are not the store's
    await loadParsed();
    for (let i = 0; i < 3; i++) {
      storeSamples.push(await retainedBytes(loadStore, (store) => store.dispose()));
      parsedSamples.push(await retainedBytes(loadParsed));
    }
    const storeBytes = stats(storeSamples).median;
    const parsedBytes = stats(parsedSamples).median;

    // The tree, from a listing already read: Catalog, then the rows.
    const features = await client.listFeatures();
    const fixed: FlagSource = {
      kind: 'server',
      label: new URL(info.url).host,
      listFeatures: async () => features,
      getFeature: () => Promise.reject(new Error('not in the benchmark')),
      getStrategySegments: async () => [],
      listEnvironments: async () => ['development', 'production'],
      webUrl: (project, name) => `${info.url}/projects/${encodeURIComponent(project)}/features/${encodeURIComponent(name)}`,
    };
    const now = () => new Date(Date.UTC(2026, 0, 1));
    let rows = 0;
    const buildRows = async (target: Store): Promise<number> => {
      let count = 0;
      for (const node of S.rootNodes(target, { now })) {
        if (node.kind === 'project' && node.children) count += (await node.children()).length;
        else count++;
      }
      return count;
    };
    const reps = quick ? 3 : 9;
    const total = await single(async () => {
      const target = new S.FlagStore({ info() {}, error() {} });
      void target.load(); // needed from the start: setSource reads the list
      await target.setSource(fixed, 'ready');
      rows = await buildRows(target);
    }, 2, reps);
    const catalog = await single(async () => {
      const target = new S.FlagStore({ info() {}, error() {} });
      void target.load(); // needed from the start: setSource reads the list
      await target.setSource(fixed, 'ready');
    }, 2, reps);
    const loaded = new S.FlagStore({ info() {}, error() {} });
    void loaded.load(); // needed from the start: setSource reads the list
    await loaded.setSource(fixed, 'ready');
    const rootOnly = await single(() => S.rootNodes(loaded, { now }).length, 2, reps);
    if (rows !== flags) throw new Error(`tree: expected ${n(flags)} flag rows, built ${rows}`);
    return {
      flags,
      projects: loaded.catalog.projects().length,
      total,
      catalog,
      rootNodes: rootOnly,
      rows,
      memory: { storeBytes, parsedBytes, ratio: round(storeBytes / parsedBytes, 3), bytesPerFlag: Math.round(storeBytes / flags) },
    };
  } finally {
    await client.close();
    await pool.close();
  }
}

// ---- Output ------------------------------------------------------------------------------------------------------

interface Row {
  measure: string;
  ours: string;
  baseline: string;
  ratio: string;
  goal: string;
  met: string;
}

const us = (value: number): string => (value >= 1000 ? `${(value / 1000).toFixed(2)} ms` : `${value.toFixed(2)} µs`);
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
const yes = (ok: boolean): string => (ok ? 'yes' : 'NO');

function table(rows: Row[]): string {
  return markdownTable(['measure', 'ours', 'baseline', 'ratio', 'goal', 'met?'], rows.map((r) => [r.measure, r.ours, r.baseline, r.ratio, r.goal, r.met]));
}

interface Results {
  date: string;
  durationSeconds: number;
  machine: ReturnType<typeof machine>;
  options: { quick: boolean; only: string[] };
  /** The code measured: the esbuild bundle (as shipped) or the TypeScript source under tsx. */
  subject: 'bundle' | 'source';
  datasets: Array<{ flags: number; searchBytes: number; exportBytes: number; generateMs: number }>;
  catalog: CatalogResult[];
  export?: ExportResult;
  hover?: Omit<HoverBenchResult, 'outFile'>;
  /** bench/hoverContent.bench.ts: building the hover's markdown (informational, no goal). */
  hoverContent?: Omit<HoverContentBenchResult, 'outFile'>;
  /** bench/code.bench.ts: completion lists and diagnostics. */
  code?: CodeBenchResult;
  tree?: TreeResult;
  package?: PackageSizes;
  activate?: ActivateTime;
  /** bench/activation.bench.ts: activation and the first need, in fresh processes over the 'vscode' stand-in. */
  activation?: ActivationBenchResult;
  rows: Row[];
}

function rowsOf(results: Results): Row[] {
  const rows: Row[] = [];
  for (const c of results.catalog) {
    rows.push({
      measure: `catalog load, ${n(c.flags)} flags (client, zod)`,
      ours: ms(c.client.ours.median),
      baseline: `${ms(c.client.baseline.median)} (undici + JSON.parse)`,
      ratio: times(c.client.ratio),
      goal: '≤ 1.3×',
      met: yes(c.client.ratio <= 1.3),
    });
  }
  const bigCatalog = results.catalog.find((c) => c.flags === 10_000);
  if (bigCatalog) {
    rows.push({
      measure: 'catalog load, 10,000 flags, into the store',
      ours: ms(bigCatalog.store.ours.median),
      baseline: `${ms(bigCatalog.store.baseline.median)} (undici + JSON.parse)`,
      ratio: times(bigCatalog.store.ratio),
      goal: '—',
      met: '—',
    });
  }
  const e = results.export;
  if (e) {
    rows.push({
      measure: `export, ${n(e.flags)} flags → file (${mb(e.bytesWritten)})`,
      ours: ms(e.pair.ours.median),
      baseline: `${ms(e.pair.baseline.median)} (request piped to file)`,
      ratio: times(e.pair.ratio),
      goal: '≤ 1.5×',
      met: yes(e.pair.ratio <= 1.5),
    });
    const formatted = e.steps.bareFormattedFile.median;
    rows.push({
      measure: 'export, same, against a formatted-file floor',
      ours: ms(e.pair.ours.median),
      baseline: `${ms(formatted)} (request, parse, pretty-print, write)`,
      ratio: times(round(e.pair.ours.median / formatted, 3)),
      goal: '—',
      met: '—',
    });
  }
  const h = results.hover;
  if (h) {
    const label = `${n(h.config.flags)} flags, ${n(h.config.lines)} lines`;
    rows.push({
      measure: `hover, median (${label})`,
      ours: us(h.findFlagAt.median),
      baseline: `${us(h.naive.median)} (naive scan)`,
      ratio: `${Math.round(h.speedup.median)}× faster`,
      goal: '≥ 50× faster',
      met: yes(h.speedup.median >= 50),
    });
    rows.push({
      measure: `hover, p99 (${label})`,
      ours: us(h.findFlagAt.p99),
      baseline: `${us(h.naive.p99)} (naive scan)`,
      ratio: `${Math.round(h.speedup.p99)}× faster`,
      goal: '< 1 ms, ≥ 50× faster',
      met: yes(h.findFlagAt.p99 < 1000 && h.speedup.p99 >= 50),
    });
  }
  const whole = results.hoverContent?.cases.find((c) => c.name.startsWith('whole hover'));
  if (whole) {
    rows.push({
      measure: 'hover with markdown, p99 (find + lookup + markdown)',
      ours: us(whole.p99),
      baseline: '—',
      ratio: '—',
      goal: '—',
      met: '—',
    });
  }
  const code = results.code;
  if (code) {
    for (const c of code.completion) {
      rows.push({
        measure: `completion list, p99 (${n(c.flags)} flags)`,
        ours: ms(c.build.p99),
        baseline: '—',
        ratio: '—',
        goal: c.flags >= 10_000 ? '< 50 ms' : '—',
        met: c.flags >= 10_000 ? yes(c.build.p99 < 50) : '—',
      });
    }
    const d = code.diagnostics;
    rows.push({
      measure: `diagnostics, ${n(d.lines)} lines, ${n(d.references)} references (${n(d.flags)} flags)`,
      ours: `${ms(d.warm.p99)} p99`,
      baseline: `${ms(d.naive.median)} (naive scan)`,
      ratio: `${Math.round(d.naive.median / d.warm.median)}× faster`,
      goal: '< 100 ms',
      met: yes(d.warm.p99 < 100),
    });
    rows.push({
      measure: 'diagnostics, same, first after a refresh (cold)',
      ours: `${ms(d.cold.p99)} p99`,
      baseline: '—',
      ratio: '—',
      goal: '< 500 ms',
      met: yes(d.cold.p99 < 500),
    });
  }
  const t = results.tree;
  if (t) {
    rows.push({
      measure: `tree root, ${n(t.flags)} flags (catalog + ${n(t.rows)} rows)`,
      ours: ms(t.total.median),
      baseline: '—',
      ratio: '—',
      goal: '< 100 ms',
      met: yes(t.total.median < 100),
    });
    rows.push({
      measure: `store memory, ${n(t.flags)} flags (heap after GC)`,
      ours: `${mb(t.memory.storeBytes)} (${n(t.memory.bytesPerFlag)} B/flag)`,
      baseline: `${mb(t.memory.parsedBytes)} (JSON.parse'd pages)`,
      ratio: times(t.memory.ratio),
      goal: '—',
      met: '—',
    });
  }
  const p = results.package;
  if (p) {
    rows.push({ measure: 'dist/extension.js', ours: kb(p.bundleInVsixBytes ?? p.bundleBytes), baseline: '—', ratio: '—', goal: '—', met: '—' });
    rows.push({ measure: '.vsix', ours: kb(p.vsixBytes), baseline: '—', ratio: '—', goal: '< 400 KB', met: yes(p.vsixBytes < 400 * 1024) });
    const a = results.activate;
    rows.push({
      measure: 'activate()',
      ours: a ? `${a.ms.toFixed(1)} ms${a.runs > 1 ? ` (median of ${a.runs})` : ''}` : 'not measured yet (run npm run test:e2e)',
      baseline: '—',
      ratio: '—',
      goal: '< 25 ms',
      met: a ? yes(a.ms < 25) : '—',
    });
  }
  const a = results.activation;
  if (a) {
    rows.push({
      measure: `activation (bundle + activate()), ${a.windows * 2} windows, 'vscode' stand-in`,
      ours: `${ms(a.activation.median)} (${ms(a.activation.min)}–${ms(a.activation.max)})`,
      baseline: '—',
      ratio: '—',
      goal: '≤ 10 ms, no core.js',
      met: yes(a.activation.median <= 10 && a.coreLoadedBeforeNeed === 0),
    });
    rows.push({ measure: 'first need → first listing request', ours: ms(a.server.needToRequest.median), baseline: '—', ratio: '—', goal: '—', met: '—' });
    rows.push({ measure: `first need → ${n(a.server.flags)} flags in the store`, ours: ms(a.server.needToFlags.median), baseline: '—', ratio: '—', goal: '—', met: '—' });
  }
  return rows;
}

function details(results: Results): string[] {
  const lines: string[] = [];
  for (const d of results.datasets) {
    lines.push(
      `data set ${n(d.flags)} flags: search pages ${mb(d.searchBytes)} (${Math.round(d.searchBytes / d.flags)} B/flag), ` +
        `export of development ${mb(d.exportBytes)} (${Math.round(d.exportBytes / d.flags)} B/flag), generated in ${ms(d.generateMs)}`,
    );
  }
  for (const c of results.catalog) {
    lines.push(
      `catalog ${n(c.flags)}: ${c.pages} pages; client ${ms(c.client.ours.min)}–${ms(c.client.ours.max)}, bare ${ms(c.client.baseline.min)}–${ms(c.client.baseline.max)}, ` +
        `paired ratio ${times(c.client.pairedRatio)}; CPU only: JSON.parse ${ms(c.cpu.jsonParse.median)}, zod ${ms(c.cpu.zod.median)}`,
    );
  }
  const e = results.export;
  if (e) {
    const s = e.steps;
    lines.push(
      `export steps (medians): request+JSON.parse+zod ${ms(s.requestParseValidate.median)}, canonical layout+stringify ${ms(s.serialize.median)}, ` +
        `atomic write+fsync ${ms(s.atomicWrite.median)}; CPU only: JSON.parse ${ms(s.jsonParse.median)}, zod ${ms(s.zod.median)}; ` +
        `floors: bare request+JSON.parse ${ms(s.bareRequestJsonParse.median)}, bare request→file ${ms(s.bareRequestToFile.median)}, ` +
        `bare request+parse+pretty-print+write ${ms(s.bareFormattedFile.median)}; unchanged file (no write) ${ms(e.unchanged.median)}; paired ratio ${times(e.pair.pairedRatio)}`,
    );
  }
  const h = results.hover;
  if (h) {
    lines.push(
      `hover: ${n(h.config.hovers)} hovers × ${h.config.rounds} rounds; findFlagAt max ${us(h.findFlagAt.max)}, naive max ${us(h.naive.max)}; ` +
        `findFlagInCode (the default) median ${us(h.findFlagInCode.median)}, p99 ${us(h.findFlagInCode.p99)}; ` +
        `accuracy known ${h.accuracy.knownFound}/${h.accuracy.knownTotal}, typos ${h.accuracy.typosReported}/${h.accuracy.typosTotal}, ` +
        `false positives ours ${h.accuracy.findFlagAtFalsePositives} / naive ${h.accuracy.naiveFalsePositives}`,
    );
  }
  if (results.code) {
    const d = results.code.diagnostics;
    lines.push(
      `completion: ${results.code.completion.map((c) => `${n(c.flags)} flags median ${ms(c.build.median)}, per-catalog setup ${ms(c.catalogSetupMs)}`).join('; ')}; ` +
        `diagnostics: ${n(d.diagnostics)} found, warm median ${ms(d.warm.median)}, cold median ${ms(d.cold.median)}`,
    );
  }
  if (results.hoverContent) {
    lines.push(
      `hover markdown (µs, median / p99): ${results.hoverContent.cases.map((c) => `${c.name} ${c.median.toFixed(1)} / ${c.p99.toFixed(1)}`).join('; ')}`,
    );
  }
  const t = results.tree;
  if (t) {
    lines.push(
      `tree: ${t.projects} projects (so the root is ${t.projects} project rows; the figure includes expanding all of them); Catalog alone ${ms(t.catalog.median)}, rootNodes alone ${ms(t.rootNodes.median)}`,
    );
  }
  const p = results.package;
  if (p) {
    lines.push(
      `package: ${p.vsixPath} (${p.vsixFiles ?? '?'} files, built ${p.vsixModified}${p.packagedNow ? ', packaged by this run' : ''}); ` +
        `${p.bundlePath} on disk ${kb(p.bundleBytes)}${p.bundleInVsixBytes !== undefined && p.bundleInVsixBytes !== p.bundleBytes ? ` (differs from the one in the .vsix: rebuilt since)` : ''}`,
    );
    if (p.packageError) lines.push(`package: npm run package FAILED (${p.packageError}); the sizes are those of the files already in dist/`);
    if (p.staleSources.length) {
      lines.push(
        `package: STALE, ${p.staleSources.length} source file(s) changed since it was built (${p.staleSources.slice(0, 3).join(', ')}${p.staleSources.length > 3 ? ', …' : ''}): run with --package for current sizes`,
      );
    }
    if (results.activate) {
      const a = results.activate;
      lines.push(`activate(): from ${a.source}${a.recordedAt ? `, recorded ${a.recordedAt}` : ''}${a.host ? ` in ${a.host}` : ''}`);
    }
  }
  if (results.activation) lines.push(...activationLines(results.activation));
  return lines;
}

// ---- Main --------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const date = new Date();
  const host = machine();
  console.log(`Unleash flags benchmark, ${date.toISOString()}`);
  console.log(
    `machine: ${host.cpu}, ${host.cores} cores, ${host.memoryGiB} GiB, node ${host.node}, ${host.platform}, load average ${host.loadAverage}` +
      (host.loadAverage > host.cores ? ' (busy machine: figures are noisy)' : ''),
  );
  await fsp.mkdir(RESULTS, { recursive: true });
  const loaded = await loadSubject(options.source ? 'source' : 'bundle', path.join(RESULTS, '.build'));
  S = loaded.subject;
  console.log(
    loaded.form === 'bundle'
      ? `code measured: src/ bundled by esbuild as it ships (minified, node20), built in ${ms(loaded.buildMs ?? 0)}`
      : 'code measured: the TypeScript source under tsx (--source)',
  );
  gc();

  const results: Results = {
    date: date.toISOString(),
    durationSeconds: 0,
    machine: host,
    options: { quick: options.quick, only: [...options.only] },
    subject: options.source ? 'source' : 'bundle',
    datasets: [],
    catalog: [],
    rows: [],
  };

  const needServer = options.only.has('catalog') || options.only.has('export') || options.only.has('tree');
  const served = [...(options.only.has('catalog') ? SIZES : []), ...(options.only.has('export') ? [10_000] : []), ...(options.only.has('tree') ? [options.flags] : [])];
  const sizes = [...new Set(served)].sort((a, b) => a - b);
  let servers: BenchServers | undefined;
  try {
    if (needServer) {
      process.stdout.write(`Generating ${sizes.map(n).join(' and ')} flags and starting the fixture server… `);
      servers = await startBenchServers(sizes);
      results.datasets = servers.servers.map(({ flags, searchBytes, exportBytes, generateMs }) => ({ flags, searchBytes, exportBytes, generateMs: round(generateMs) }));
      console.log(`ready (pid ${servers.pid}).`);
    }
    if (servers && options.only.has('catalog')) {
      for (const flags of SIZES) {
        process.stdout.write(`1. catalog load, ${n(flags)} flags… `);
        const c = await benchCatalog(servers, flags, options.quick);
        results.catalog.push(c);
        console.log(`${ms(c.client.ours.median)} vs ${ms(c.client.baseline.median)}`);
      }
    }
    if (servers && options.only.has('export')) {
      process.stdout.write('2. export of 10,000 flags to a file… ');
      results.export = await benchExport(servers, options.quick);
      console.log(`${ms(results.export.pair.ours.median)} vs ${ms(results.export.pair.baseline.median)}`);
    }
    if (options.only.has('hover')) {
      process.stdout.write('3. hover resolution… ');
      const hover = await runHoverBench({ flags: options.flags, lines: 5_000, outFile: false, log: false, ...(options.quick ? { hovers: 600, rounds: 1, warmupRounds: 1 } : {}) });
      delete hover.outFile;
      results.hover = hover;
      console.log(`p99 ${us(hover.findFlagAt.p99)} vs ${us(hover.naive.p99)}`);
      process.stdout.write('3b. hover content (markdown)… ');
      const content = await runHoverContentBench({ outFile: false, log: false, ...(options.quick ? { iterations: 500, warmup: 50 } : {}) });
      delete content.outFile;
      results.hoverContent = content;
      console.log(`${content.cases.length} cases`);
    }
    if (options.only.has('code')) {
      process.stdout.write('3c. completion and diagnostics… ');
      results.code = await runCodeBench({ quick: options.quick, log: false, flags: options.flags });
      console.log(`completion p99 ${ms(results.code.completion.at(-1)!.build.p99)}, diagnostics p99 ${ms(results.code.diagnostics.warm.p99)}`);
    }
    if (servers && options.only.has('tree')) {
      process.stdout.write('4. tree root and store memory… ');
      results.tree = await benchTree(servers, options.quick, options.flags);
      console.log(`${ms(results.tree.total.median)}, ${mb(results.tree.memory.storeBytes)}`);
    }
  } finally {
    await servers?.stop();
  }
  if (options.only.has('package')) {
    console.log('5. package sizes and activate()');
    results.package = packageSizes(ROOT, options.forcePackage);
    results.activate = activateTime(RESULTS);
  }
  if (options.only.has('activation')) {
    process.stdout.write('6. activation and the first need, one process per window… ');
    results.activation = await runActivationBench({ quick: options.quick });
    console.log(`${ms(results.activation.activation.median)}; first need → first request ${ms(results.activation.server.needToRequest.median)}`);
  }

  results.rows = rowsOf(results);
  results.durationSeconds = round((performance.now() - started) / 1000, 1);
  console.log('');
  console.log(table(results.rows));
  console.log('');
  for (const line of details(results)) console.log(`  ${line}`);
  console.log(`\n  ${results.machine.cpu}, ${results.machine.cores} cores, ${results.machine.memoryGiB} GiB, node ${results.machine.node}; ${results.date}; ${results.durationSeconds} s`);

  if (options.write) {
    const stamp = results.date.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z');
    const text = `${JSON.stringify(results, null, 2)}\n`;
    await fsp.writeFile(path.join(RESULTS, `${stamp}.json`), text);
    await fsp.writeFile(path.join(RESULTS, 'latest.json'), text);
    console.log(`  wrote ${path.relative(process.cwd(), path.join(RESULTS, `${stamp}.json`))} and latest.json`);
  }
}

const run = process.argv.includes('--real') ? import('./real/run').then((real) => real.runReal(process.argv.slice(2))) : main();
run.then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
