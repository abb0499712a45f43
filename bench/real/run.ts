/**
 * `npm run bench:real` (= `npm run bench -- --real`): the extension's client against a REAL Unleash (the contract
 * harness's unleash-server on PostgreSQL, 127.0.0.1 only), filled with 1,000 and 10,000 bench flags (bench/real/
 * fill.ts; the filled database is cached under bench/results/real-cache/), side by side with bare reads of the same
 * data in the same run.
 *
 *   npx tsx bench/run.ts --real [--sizes 1000,10000] [--reps 3] [--reps-large 1] [--skip-large "1 in flight"]
 *                               [--no-profile] [--no-write]
 *   UNLEASH_CONTRACT_SERVER=8.2.0 npx tsx bench/run.ts --real     # the other server generation
 *
 * Per size: every way of reading the flag list with bare undici + JSON.parse (paged search 1/4/8 in flight, the
 * per-project listings in parallel, and combinations), `UnleashClient.listFeatures()` as it ships (and the time to its
 * first rows when it offers an `onRows` callback), the store loaded through ServerSource, `exportToFile()` against a
 * bare export request streamed to a file, and the heap the loaded store holds. Then a CPU profile of the export path.
 * Every candidate runs `reps` times in rotating order; figures are medians. Servers are stopped by pid at the end.
 */
import { createWriteStream } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { gunzipSync } from 'node:zlib';
import { Pool, request } from 'undici';
import { mapLimited } from '../../src/base/mapLimited';
import { gc, machine, retainedBytes, round, stats, type Stats } from '../measure';
import { loadSubject, type Subject } from '../subject-build';
import { profileExport, type ExportProfile } from './profile';
import { startFilled, type FilledUnleash, type Layout } from './server';

const RESULTS = path.resolve(__dirname, '..', 'results');
const PAGE = 100;
/** Every candidate's requests and the client's whole listing must finish within this (a hung server fails the run). */
const CALL_TIMEOUT_MS = 180_000;

export interface RealOptions {
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

export function parseRealArgs(argv: readonly string[]): RealOptions {
  const options: RealOptions = { sizes: [1_000, 10_000], reps: 3, repsLarge: 0, skipLarge: [], profile: true, write: true, layout: 'six-projects' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const v = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--real') continue;
    else if (arg === '--no-profile') options.profile = false;
    else if (arg === '--no-write') options.write = false;
    else if (arg === '--one-project') options.layout = 'one-project';
    else if (arg === '--quick') options.reps = 1;
    else if (arg.startsWith('--sizes')) options.sizes = value().split(',').map(Number);
    else if (arg.startsWith('--reps-large')) options.repsLarge = Number(value());
    else if (arg.startsWith('--skip-large')) options.skipLarge = value().split(',').filter(Boolean);
    else if (arg.startsWith('--reps')) options.reps = Number(value());
    else throw new Error(`--real: unknown option ${arg} (use --sizes 1000,10000 --reps 3 --reps-large 1 --skip-large "1 in flight" --no-profile --no-write --quick --one-project)`);
  }
  if (!options.repsLarge) options.repsLarge = options.reps;
  if (!options.sizes.every((n) => Number.isInteger(n) && n > 0 && n <= 50_000)) throw new Error('--sizes: flag counts from 1 to 50,000');
  if (![options.reps, options.repsLarge].every((r) => Number.isInteger(r) && r >= 1 && r <= 15)) throw new Error('--reps, --reps-large: 1 to 15');
  return options;
}

// ---- Bare reads --------------------------------------------------------------------------------------------------

interface Read {
  rows: number;
  /** ms from the start to the first rows parsed (what a tree could show first). */
  firstMs: number;
  /** When the request that brought the first rows was sent, ms from the start (0: the rows came after one request). */
  firstRequestSentMs?: number;
  /** What the server says exists (search `total`), when the candidate asked. */
  total?: number;
}

interface Candidate {
  name: string;
  /** False for the realistic-discovery candidate, which can miss projects (OSS lists only `default`). */
  expectComplete: boolean;
  /** True when it is told the projects (from the bench's own data): a client cannot know them up front. */
  knowsProjects?: boolean;
  /** Run once before the first repetition, untimed (a refresh's previous listing). */
  setup?(): Promise<void>;
  run(): Promise<Read>;
}

function bareCandidates(url: string, token: string, pool: Pool, projects: readonly string[]): Candidate[] {
  // unleash-server 8.x answers 429 to a burst of search requests: wait as told (Retry-After, at most 10 s), at most
  // 5 times, as the client's bounded GET retries do.
  const get = async <T>(route: string): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      const response = await request(`${url}${route}`, {
        dispatcher: pool,
        headers: { authorization: token, accept: 'application/json' },
        headersTimeout: CALL_TIMEOUT_MS,
        bodyTimeout: CALL_TIMEOUT_MS,
      });
      const text = await response.body.text();
      if (response.statusCode === 429 && attempt < 5) {
        const after = Number(response.headers['retry-after']);
        await new Promise((resolve) => setTimeout(resolve, Number.isFinite(after) ? Math.min(after * 1000, 10_000) : 1_000));
        continue;
      }
      if (response.statusCode !== 200) throw new Error(`GET ${route} → ${response.statusCode}`);
      return JSON.parse(text) as T;
    }
  };
  const searchPage = (offset: number) =>
    get<{ features: unknown[]; total?: number }>(`/api/admin/search/features?limit=${PAGE}&offset=${offset}&sortBy=name&sortOrder=asc`);
  const projectListing = (project: string) => get<{ features: unknown[] }>(`/api/admin/projects/${encodeURIComponent(project)}/features`);
  const clock = () => {
    const started = performance.now();
    let first: number | undefined;
    return { seen: () => (first ??= performance.now() - started), first: () => first ?? performance.now() - started };
  };

  const search = (inFlight: number): Candidate => ({
    name: `search, pages of ${PAGE}, ${inFlight} in flight`,
    expectComplete: true,
    async run() {
      const t = clock();
      const first = await searchPage(0);
      t.seen();
      const total = first.total ?? 0;
      const offsets: number[] = [];
      for (let offset = PAGE; offset < total && offsets.length < 1_000; offset += PAGE) offsets.push(offset);
      const rest = await mapLimited(offsets, inFlight, async (offset) => (await searchPage(offset)).features.length);
      return { rows: first.features.length + rest.reduce((a, b) => a + b, 0), firstMs: t.first(), total };
    },
  });
  const perProject = (ids: () => Promise<readonly string[]>, name: string, expectComplete: boolean): Candidate => ({
    name,
    expectComplete,
    knowsProjects: expectComplete,
    async run() {
      const t = clock();
      const list = await ids();
      const counts = await mapLimited(list, 8, async (project) => {
        const rows = (await projectListing(project)).features.length;
        t.seen();
        return rows;
      });
      return { rows: counts.reduce((a, b) => a + b, 0), firstMs: t.first() };
    },
  });
  const known = async () => projects;
  const listed = async () => (await get<{ projects: Array<{ id: string }> }>('/api/admin/projects')).projects.map((p) => p.id);
  return [
    search(1),
    search(4),
    search(8),
    perProject(known, `per-project listings, the ${projects.length} projects known, all in flight`, true),
    perProject(listed, 'GET /api/admin/projects, then its projects\' listings (what a client can discover)', false),
    {
      // What a client that knows nothing can do: the first search page and the project list together, then the
      // listings of every project either names, then the search for whatever they did not cover.
      name: 'search page 1 + GET /api/admin/projects, then listings of the projects seen, search for the rest',
      expectComplete: true,
      async run() {
        const t = clock();
        const [first, listedIds] = await Promise.all([searchPage(0).then((page) => (t.seen(), page)), listed()]);
        const seen = new Set([...listedIds, ...first.features.map((f) => (f as { project: string }).project)]);
        const counts = await mapLimited([...seen], 8, async (project) => {
          const rows = (await projectListing(project)).features.length;
          t.seen();
          return rows;
        });
        let rows = counts.reduce((a, b) => a + b, 0);
        const total = first.total ?? 0;
        if (rows < total) {
          const filter = `&project=${encodeURIComponent(`IS_NONE_OF:${[...seen].join(',')}`)}`;
          for (let offset = 0, pages = 0; pages < 1_000; offset += PAGE, pages++) {
            const page = await get<{ features: unknown[] }>(`/api/admin/search/features?limit=${PAGE}&offset=${offset}&sortBy=name&sortOrder=asc${filter}`);
            rows += page.features.length;
            if (page.features.length < PAGE) break;
          }
        }
        return { rows, firstMs: t.first(), total };
      },
    },
    {
      name: 'search page 1 (total) + per-project listings, the projects known, all in flight',
      expectComplete: true,
      knowsProjects: true,
      async run() {
        const t = clock();
        const [first, counts] = await Promise.all([
          searchPage(0).then((page) => (t.seen(), page)),
          mapLimited(projects, 8, async (project) => {
            const rows = (await projectListing(project)).features.length;
            t.seen();
            return rows;
          }),
        ]);
        return { rows: counts.reduce((a, b) => a + b, 0), firstMs: t.first(), total: first.total };
      },
    },
  ];
}

// ---- The code under test -----------------------------------------------------------------------------------------

type Client = InstanceType<Subject['UnleashClient']>;
type Store = InstanceType<Subject['FlagStore']>;

/** What the client reports of each answer (src/api/http.ts `onEvent`). */
type HttpEvent = { kind: string; request: string; ms: number };

function newClient(S: Subject, url: string, token: string, onEvent?: (event: HttpEvent) => void): Client {
  // The pool settings of src/api/dispatcher.ts, as the bare reads use.
  const dispatcher = new Pool(new URL(url).origin, { connections: 8, keepAliveTimeout: 10_000 });
  return new S.UnleashClient({ baseUrl: url, getToken: () => token, timeoutMs: CALL_TIMEOUT_MS, dispatcher, onEvent } as ConstructorParameters<Subject['UnleashClient']>[0]);
}

/**
 * `client.listFeatures()`, with an `onRows` callback: a client that offers one (rows as they arrive) calls it, and
 * the time of its first call is the time to the first rows; a client without it ignores the option. `refresh`: the
 * listing is told the projects of a previous listing (`knownProjects`), as ServerSource does on a refresh.
 */
function clientCandidate(
  client: Client,
  listen: (handler: ((event: HttpEvent) => void) | undefined) => void,
  refresh = false,
): Candidate & { offersRows: () => boolean; how: () => string } {
  let called = false;
  let how = '';
  let knownProjects: string[] = [];
  // `listing()` (where the client has it) is listFeatures() plus how the rows were read.
  type Listing = { features: Array<{ project?: string }>; method: string; requests: number };
  const withHow = client as unknown as { listing?: (options: Record<string, unknown>) => Promise<Listing> };
  const name = refresh
    ? 'ours: a refresh (UnleashClient.listFeatures() told the projects of the last listing)'
    : 'ours: UnleashClient.listFeatures() (bundled as shipped)';
  return {
    name,
    expectComplete: true,
    offersRows: () => called,
    how: () => how,
    setup: refresh
      ? async () => {
          if (typeof withHow.listing !== 'function') return;
          const last = await withHow.listing.call(client, {});
          knownProjects = [...new Set(last.features.map((feature) => feature.project ?? 'default'))];
        }
      : undefined,
    async run() {
      const started = performance.now();
      let first: number | undefined;
      let firstRequestSentMs: number | undefined;
      // Every answer, as it arrives: the last one before the first rows is the request that brought them.
      const answers: Array<{ at: number; ms: number }> = [];
      listen((event) => event.kind === 'response' && answers.push({ at: performance.now() - started, ms: event.ms }));
      const onRows = (): void => {
        called = true;
        if (first !== undefined) return;
        first = performance.now() - started;
        const last = answers[answers.length - 1];
        if (last) firstRequestSentMs = Math.max(0, last.at - last.ms);
      };
      let rows: number;
      if (typeof withHow.listing === 'function') {
        const result = await withHow.listing.call(client, { onRows, ...(refresh ? { knownProjects } : {}) });
        rows = result.features.length;
        how = `${result.method}, ${result.requests} requests`;
      } else {
        rows = (await (client.listFeatures as (options: Record<string, unknown>) => Promise<unknown[]>).call(client, { onRows })).length;
        how = 'search';
      }
      listen(undefined);
      return { rows, firstMs: first ?? performance.now() - started, firstRequestSentMs };
    },
  };
}

function storeCandidate(S: Subject, client: Client): Candidate {
  return {
    name: 'ours: FlagStore.setSource(ServerSource) (client + Catalog)',
    expectComplete: true,
    async run() {
      const started = performance.now();
      const store = new S.FlagStore({ info() {}, error() {} });
      void store.load(); // needed from the start: setSource reads the list
      await store.setSource(new S.ServerSource(client, [], ''), 'ready');
      const rows = store.catalog.size;
      store.dispose();
      return { rows, firstMs: performance.now() - started };
    },
  };
}

interface CandidateResult {
  name: string;
  /** The latest any repetition's first rows came from a request sent after the start (0: always after one request). */
  firstRequestSentMs?: number;
  ours: boolean;
  total: Stats;
  first: Stats;
  rows: number;
  complete: boolean;
  expectComplete: boolean;
  knowsProjects: boolean;
}

/**
 * Runs every candidate `reps` times (after one warm-up round when reps > 1; with one repetition, the server's
 * first answers are already warm from the start-up check), rotating which goes first; a full GC before each.
 */
async function runCandidates(candidates: Candidate[], reps: number, expected: number, log: (line: string) => void): Promise<CandidateResult[]> {
  const totals = candidates.map(() => [] as number[]);
  const firsts = candidates.map(() => [] as number[]);
  const sentAt = candidates.map(() => [] as number[]);
  const rows = candidates.map(() => 0);
  for (const candidate of candidates) await candidate.setup?.();
  for (let round = reps > 1 ? -1 : 0; round < reps; round++) {
    for (let k = 0; k < candidates.length; k++) {
      const index = (k + Math.max(round, 0)) % candidates.length;
      const candidate = candidates[index]!;
      gc();
      const started = performance.now();
      const read = await candidate.run();
      const elapsed = performance.now() - started;
      if (round < 0) {
        log(`  warm-up ${candidate.name}: ${Math.round(elapsed)} ms, ${read.rows} rows`);
        continue;
      }
      log(`  ${candidate.name}: ${Math.round(elapsed)} ms, ${read.rows} rows`);
      totals[index]!.push(elapsed);
      firsts[index]!.push(read.firstMs);
      if (read.firstRequestSentMs !== undefined) sentAt[index]!.push(read.firstRequestSentMs);
      rows[index] = read.rows;
      if (read.total !== undefined && read.total !== expected) throw new Error(`${candidate.name}: search total ${read.total}, expected ${expected}`);
      if (candidate.expectComplete && read.rows !== expected) throw new Error(`${candidate.name}: ${read.rows} rows, expected ${expected}`);
    }
  }
  return candidates.map((c, i) => ({
    name: c.name,
    ours: c.name.startsWith('ours'),
    total: stats(totals[i]!),
    first: stats(firsts[i]!),
    firstRequestSentMs: sentAt[i]!.length ? Math.max(...sentAt[i]!) : undefined,
    rows: rows[i]!,
    complete: rows[i] === expected,
    expectComplete: c.expectComplete,
    knowsProjects: Boolean(c.knowsProjects),
  }));
}

// ---- Export ------------------------------------------------------------------------------------------------------

interface ExportFigures {
  ours: Stats;
  bareToFile: Stats;
  ratio: number;
  bytesOnWire: number;
  bytesWritten: number;
  /** Highest heap + ArrayBuffer use seen during one exportToFile, above the settled heap before it (sampled every 2 ms). */
  peakExtraBytes: number;
  /**
   * The in-memory path's steps (the client's `exportFeatures()`, the layout, the write), measured while the answer
   * fits the client's 64 MiB for an answer held whole; undefined past it (exportToFile streams instead).
   */
  steps?: {
    requestParseValidate: Stats;
    serialize: Stats;
    atomicWrite: Stats;
    bareRequestJsonParse: Stats;
    /** The bare request asking for gzip (as our client does: `accept-encoding: gzip, br`), gunzip, JSON.parse. */
    bareGzipRequestJsonParse: Stats;
  };
}

/** The client's budget for an answer it holds whole (src/api/http.ts `maxResponseBytes`). */
const WHOLE_ANSWER_BYTES = 64 * 1024 * 1024;

async function benchExport(S: Subject, client: Client, url: string, token: string, pool: Pool, flags: number, reps: number): Promise<ExportFigures> {
  const folder = await fsp.mkdtemp(path.join(RESULTS, '.real-export-'));
  const ours = path.join(folder, '.unleash', 'development.json');
  const bareFile = path.join(folder, 'bare', 'development.json');
  await fsp.mkdir(path.dirname(bareFile), { recursive: true });
  const body = JSON.stringify({ environment: 'development', features: [], downloadFile: true });
  const bareRequest = (encoding?: string) =>
    request(`${url}/api/admin/features-batch/export`, {
      method: 'POST',
      dispatcher: pool,
      headers: { authorization: token, 'content-type': 'application/json', accept: 'application/json', ...(encoding ? { 'accept-encoding': encoding } : {}) },
      body,
      headersTimeout: CALL_TIMEOUT_MS,
      bodyTimeout: CALL_TIMEOUT_MS,
    });
  const bare = async () => pipeline((await bareRequest()).body, createWriteStream(bareFile));
  const run = () => S.exportToFile({ client, environment: 'development', scope: { kind: 'all' }, folder });
  const timed = async (fn: () => Promise<unknown>, prepare?: () => Promise<void>): Promise<number> => {
    await prepare?.();
    gc();
    const started = performance.now();
    await fn();
    return performance.now() - started;
  };
  try {
    const first = await run();
    if (first.flags !== flags) throw new Error(`export: ${first.flags} flags, expected ${flags}`);
    await bare();
    const bytesOnWire = (await fsp.stat(bareFile)).size;
    const samples = { ours: [] as number[], bare: [] as number[], request: [] as number[], serialize: [] as number[], write: [] as number[], bareParse: [] as number[], bareGzip: [] as number[] };
    const rmOurs = () => fsp.rm(ours, { force: true });
    const inMemory = bytesOnWire <= WHOLE_ANSWER_BYTES;
    const result = inMemory ? await client.exportFeatures({ environment: 'development', scope: { kind: 'all' } }) : undefined;
    const data = result && S.serializeExportBytes(result);
    for (let i = 0; i < reps; i++) {
      const pairOrder = i % 2 === 0 ? ['ours', 'bare'] : ['bare', 'ours'];
      for (const which of pairOrder) {
        if (which === 'ours') samples.ours.push(await timed(run, rmOurs));
        else samples.bare.push(await timed(bare, () => fsp.rm(bareFile, { force: true })));
      }
      if (!result || !data) continue;
      samples.request.push(await timed(() => client.exportFeatures({ environment: 'development', scope: { kind: 'all' } })));
      samples.serialize.push(await timed(async () => S.serializeExportBytes(result)));
      samples.write.push(await timed(() => S.writeFileAtomic(ours, data), rmOurs));
      samples.bareParse.push(await timed(async () => JSON.parse(await (await bareRequest()).body.text()) as unknown));
      samples.bareGzip.push(
        await timed(async () => {
          const response = await bareRequest('gzip');
          const raw = Buffer.from(await response.body.arrayBuffer());
          const text = response.headers['content-encoding'] === 'gzip' ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
          return JSON.parse(text) as unknown;
        }),
      );
    }
    const peakExtraBytes = await peakDuring(async () => {
      await rmOurs();
      await run();
    });
    const oursStats = stats(samples.ours);
    const bareStats = stats(samples.bare);
    return {
      ours: oursStats,
      bareToFile: bareStats,
      ratio: round(oursStats.median / bareStats.median, 3),
      bytesOnWire,
      bytesWritten: first.bytes,
      peakExtraBytes,
      ...(inMemory
        ? { steps: { requestParseValidate: stats(samples.request), serialize: stats(samples.serialize), atomicWrite: stats(samples.write), bareRequestJsonParse: stats(samples.bareParse), bareGzipRequestJsonParse: stats(samples.bareGzip) } }
        : {}),
    };
  } finally {
    await fsp.rm(folder, { recursive: true, force: true });
  }
}

/** The highest heapUsed + arrayBuffers seen while `fn` runs, above what was in use before it. Sampled: a lower bound. */
export async function peakDuring(fn: () => Promise<void>): Promise<number> {
  gc();
  gc();
  const use = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const before = use();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, use())), 2);
  try {
    await fn();
    peak = Math.max(peak, use());
  } finally {
    clearInterval(timer);
  }
  return peak - before;
}

// ---- Memory ------------------------------------------------------------------------------------------------------

interface MemoryFigures {
  storeBytes: number;
  parsedSearchBytes: number;
  bytesPerFlag: number;
}

async function benchMemory(S: Subject, client: Client, url: string, token: string, pool: Pool, flags: number): Promise<MemoryFigures> {
  const loadStore = async (): Promise<Store> => {
    const store = new S.FlagStore({ info() {}, error() {} });
    void store.load(); // needed from the start: setSource reads the list
    await store.setSource(new S.ServerSource(client, [], ''), 'ready');
    if (store.catalog.size !== flags) {
      const state = (store as unknown as { state?: unknown }).state;
      store.dispose();
      throw new Error(`memory: the store holds ${store.catalog.size} flags, expected ${flags} (state ${String(state)})`);
    }
    return store;
  };
  // The floor: the search pages JSON.parse'd and kept (what any client that keeps the listing holds at least).
  const loadParsed = async (): Promise<unknown[]> => {
    const pages = await mapLimited(
      Array.from({ length: Math.ceil(flags / PAGE) }, (_, i) => i * PAGE),
      4,
      async (offset) => {
        const response = await request(`${url}/api/admin/search/features?limit=${PAGE}&offset=${offset}&sortBy=name&sortOrder=asc`, {
          dispatcher: pool,
          headers: { authorization: token },
          headersTimeout: CALL_TIMEOUT_MS,
          bodyTimeout: CALL_TIMEOUT_MS,
        });
        return (JSON.parse(await response.body.text()) as { features: unknown[] }).features;
      },
    );
    return pages.flat();
  };
  (await loadStore()).dispose(); // one-time allocations (compiled schemas, pools) are not the store's
  const store = await retainedBytes(loadStore, (s) => s.dispose());
  const parsed = await retainedBytes(loadParsed);
  return { storeBytes: store, parsedSearchBytes: parsed, bytesPerFlag: Math.round(store / flags) };
}

// ---- One size ----------------------------------------------------------------------------------------------------

export interface SizeResult {
  flags: number;
  server: { version: string; filledBy: 'cache' | 'import' | 'copies'; fillMs: number; startMs: number; projects: string[] };
  candidates: CandidateResult[];
  /** The client called `onRows` (rows as they arrive). */
  clientOffersRows: boolean;
  /** How the client read the rows (its `listing()` method and request count), when it says. */
  clientHow: string;
  fastestBare: { name: string; ms: number };
  /** The fastest complete bare read that is not told the projects (what a client can do). */
  fastestDiscoverable: { name: string; ms: number };
  fastestBareFirst: { name: string; ms: number };
  /** One search request: the first page of the 1-in-flight search. */
  /** One search request: the first page of a paged search, when one ran. */
  oneRequestMs?: number;
  ours: { ms: number; firstMs: number; firstRequestSentMs?: number; ratio: number; ratioDiscoverable: number; refreshMs: number; refreshRatio: number; refreshHow: string };
  export: ExportFigures;
  memory?: MemoryFigures;
}

async function benchSize(S: Subject, running: FilledUnleash, projects: string[], options: RealOptions, log: (line: string) => void): Promise<SizeResult> {
  const { url, adminToken: token } = running.unleash;
  const pool = new Pool(new URL(url).origin, { connections: 8, keepAliveTimeout: 10_000 });
  let onEvent: ((event: HttpEvent) => void) | undefined;
  const client = newClient(S, url, token, (event) => onEvent?.(event));
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

// ---- Output ------------------------------------------------------------------------------------------------------

const ms = (value: number): string => (!Number.isFinite(value) ? '—' : value >= 1000 ? `${(value / 1000).toFixed(2)} s` : value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(1)} ms`);
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const times = (ratio: number): string => `${ratio.toFixed(2)}×`;
const n = (value: number): string => value.toLocaleString('en-US');

function markdownTable(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

export function candidatesTable(results: SizeResult[]): string {
  const names = [...new Set(results.flatMap((r) => r.candidates.map((c) => c.name)))];
  const head = ['read (median of reps)', ...results.map((r) => `${n(r.flags)} flags: all / first rows`)];
  const rows = names.map((name) => [
    name,
    ...results.map((r) => {
      const c = r.candidates.find((x) => x.name === name);
      if (!c) return 'not run (--skip-large)';
      const first = c.name.startsWith('ours: UnleashClient') && !r.clientOffersRows ? '— (no onRows)' : ms(c.first.median);
      const rowsNote = c.complete ? '' : ` (${n(c.rows)} rows: INCOMPLETE)`;
      return `${ms(c.total.median)} / ${first}${rowsNote}`;
    }),
  ]);
  return markdownTable(head, rows);
}

export function summaryTable(results: SizeResult[]): string {
  const rows: string[][] = [];
  for (const r of results) {
    rows.push([
      `catalog load, ${n(r.flags)} flags`,
      `${ms(r.ours.ms)} (listFeatures${r.clientHow ? `: ${r.clientHow}` : ''})`,
      `${ms(r.fastestBare.ms)} (${r.fastestBare.name})`,
      times(r.ours.ratio),
      '≤ 1.2×',
      r.ours.ratio <= 1.2 ? 'yes' : 'NO',
    ]);
    rows.push([
      `catalog load, ${n(r.flags)} flags, a refresh (projects known)`,
      `${ms(r.ours.refreshMs)} (listFeatures: ${r.ours.refreshHow})`,
      `${ms(r.fastestBare.ms)} (${r.fastestBare.name})`,
      times(r.ours.refreshRatio),
      '≤ 1.2×',
      r.ours.refreshRatio <= 1.2 ? 'yes' : 'NO',
    ]);
    rows.push([
      `catalog load, ${n(r.flags)} flags, vs what a client can discover`,
      ms(r.ours.ms),
      `${ms(r.fastestDiscoverable.ms)} (${r.fastestDiscoverable.name})`,
      times(r.ours.ratioDiscoverable),
      '≤ 1.2×',
      r.ours.ratioDiscoverable <= 1.2 ? 'yes' : 'NO',
    ]);
    const firstOurs = r.clientOffersRows ? r.ours.firstMs : r.ours.ms;
    rows.push([
      `first rows, ${n(r.flags)} flags`,
      r.clientOffersRows
        ? `${ms(r.ours.firstMs)} (onRows${r.ours.firstRequestSentMs === undefined ? '' : `; their request sent at ${ms(r.ours.firstRequestSentMs)}`})`
        : `${ms(r.ours.ms)} (no onRows: the whole list)`,
      `${ms(r.fastestBareFirst.ms)} (${r.fastestBareFirst.name})${r.oneRequestMs === undefined ? '' : `; one search request ${ms(r.oneRequestMs)}`}`,
      times(round(firstOurs / r.fastestBareFirst.ms, 3)),
      'after one request',
      // The first rows came with the answer to a request sent at the start (within 20 ms), in every repetition;
      // a client that does not say (no onEvent) is judged by the time of one search request instead.
      (r.ours.firstRequestSentMs === undefined ? firstOurs <= 1.5 * (r.oneRequestMs ?? Infinity) : r.ours.firstRequestSentMs <= 20) ? 'yes' : 'NO',
    ]);
    rows.push([
      `export, ${n(r.flags)} flags → file (${mb(r.export.bytesWritten)}; peak heap +${mb(r.export.peakExtraBytes)})`,
      `${ms(r.export.ours.median)} (exportToFile)`,
      `${ms(r.export.bareToFile.median)} (request streamed to file, ${mb(r.export.bytesOnWire)})`,
      times(r.export.ratio),
      '≤ 1.5×',
      r.export.ratio <= 1.5 ? 'yes' : 'NO',
    ]);
    if (r.memory) {
      rows.push([
        `store heap, ${n(r.flags)} flags`,
        `${mb(r.memory.storeBytes)} (${n(r.memory.bytesPerFlag)} B/flag)`,
        `${mb(r.memory.parsedSearchBytes)} (search pages JSON.parse'd)`,
        times(round(r.memory.storeBytes / r.memory.parsedSearchBytes, 3)),
        '—',
        '—',
      ]);
    }
  }
  return markdownTable(['measure (real server)', 'ours', 'fastest bare', 'ratio', 'goal', 'met?'], rows);
}

/** How each figure grows from the smallest to the largest size, and a linear extrapolation to 50,000 flags. */
export function growthTable(results: SizeResult[]): string {
  const small = results[0];
  const large = results[results.length - 1];
  if (!small || !large || small === large) return '(one size only: no growth)';
  type Figure = [string, (r: SizeResult) => number, ((value: number) => string)?];
  const figures: Figure[] = [
    ...large.candidates
      .filter((c) => small.candidates.some((x) => x.name === c.name))
      .map((c): Figure => [c.name, (r) => r.candidates.find((x) => x.name === c.name)!.total.median]),
    ['ours: time to the first rows (onRows)', (r) => r.ours.firstMs],
    ['export: exportToFile()', (r) => r.export.ours.median],
    ['export: bare request → file', (r) => r.export.bareToFile.median],
    ['export: peak extra memory', (r) => r.export.peakExtraBytes, mb],
    ['export: canonical layout + stringify (CPU, held whole)', (r) => r.export.steps?.serialize.median ?? NaN],
    ['export: request + JSON.parse + zod (held whole)', (r) => r.export.steps?.requestParseValidate.median ?? NaN],
    ['export: bare request + JSON.parse', (r) => r.export.steps?.bareRequestJsonParse.median ?? NaN],
    ['export: bare request asking gzip + gunzip + JSON.parse', (r) => r.export.steps?.bareGzipRequestJsonParse.median ?? NaN],
  ];
  const rows = figures.map(([name, of, format = ms]) => {
    const a = of(small);
    const b = of(large);
    // value = fixed + perFlag × N through the two measured points.
    const perFlag = (b - a) / (large.flags - small.flags);
    const at50k = b + perFlag * (50_000 - large.flags);
    return [name, format(a), format(b), times(round(b / a, 3)), format(at50k)];
  });
  return markdownTable(['figure', `${n(small.flags)} flags`, `${n(large.flags)} flags`, 'growth', '50,000 flags (linear)'], rows);
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
      const result = await benchSize(S, running, projects, options, log);
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
