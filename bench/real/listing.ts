/**
 * The ways of reading the flag list that the real-server bench compares, each run the same number of times in
 * rotating order: bare reads (the paged search, the per-project listings, and what a client can discover) against
 * the shipped client's listing, its refresh, and the store loaded through it.
 */
import type { ClientOptions } from '../../src/api/client';
import type { Pool } from 'undici';
import type { HttpEvent } from '../../src/api/httpOptions';
import { mapLimited } from '../../src/base/mapLimited';
import { gc, stats, type Stats } from '../measure';
import type { Subject } from '../subject-build';
import { bareGet, benchPool, CALL_TIMEOUT_MS, PAGE, searchRoute } from './bare';

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

export function bareCandidates(url: string, token: string, pool: Pool, projects: readonly string[]): Candidate[] {
  const get = <T>(route: string): Promise<T> => bareGet<T>(url, token, pool, route);
  const searchPage = (offset: number) => get<{ features: unknown[]; total?: number }>(searchRoute(offset));
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
            const page = await get<{ features: unknown[] }>(searchRoute(offset, filter));
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

export type Client = InstanceType<Subject['UnleashClient']>;
type Store = InstanceType<Subject['FlagStore']>;

/** The shipped client on a pool of the bare reads' settings, telling `onEvent` of every answer. */
/**
 * A client as the extension builds it: its large answers parsed and checked in the worker thread (`jobs`, as
 * serverEvaluation.ts passes them), or on this thread in time slices without one.
 */
export function newClient(S: Subject, url: string, token: string, onEvent?: (event: HttpEvent) => void, jobs?: InstanceType<Subject['WorkerJobs']>): Client {
  const parseLarge = jobs ? { parseLarge: (bytes: Uint8Array, schema: Parameters<NonNullable<ClientOptions['parseLarge']>>[1]) => jobs.run('answer', { bytes, ...(schema ? { schema } : {}) }) } : {};
  return new S.UnleashClient({ baseUrl: url, getToken: () => token, timeoutMs: CALL_TIMEOUT_MS, dispatcher: benchPool(url), onEvent, ...parseLarge });
}

/** The store loaded through ServerSource, as the Flags view loads it. */
export async function loadedStore(S: Subject, client: Client): Promise<Store> {
  const store = new S.FlagStore({ info() {}, error() {} });
  void store.load(); // needed from the start: setSource reads the list
  await store.setSource(new S.ServerSource(client, [], ''), 'ready');
  return store;
}

/**
 * `client.listing()` (listFeatures() and how it read the rows) with an `onRows` callback: the time of its first call
 * is the time to the first rows. `refresh`: the listing is told the projects of a previous listing
 * (`knownProjects`), as ServerSource does on a refresh.
 */
export function clientCandidate(
  client: Client,
  listen: (handler: ((event: HttpEvent) => void) | undefined) => void,
  refresh = false,
): Candidate & { offersRows: () => boolean; how: () => string } {
  let called = false;
  let how = '';
  let knownProjects: string[] = [];
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
          const last = await client.listing();
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
      const result = await client.listing({ onRows, ...(refresh ? { knownProjects } : {}) });
      how = `${result.method}, ${result.requests} requests`;
      listen(undefined);
      return { rows: result.features.length, firstMs: first ?? performance.now() - started, firstRequestSentMs };
    },
  };
}

export function storeCandidate(S: Subject, client: Client): Candidate {
  return {
    name: 'ours: FlagStore.setSource(ServerSource) (client + Catalog)',
    expectComplete: true,
    async run() {
      const started = performance.now();
      const store = await loadedStore(S, client);
      const rows = store.catalog.size;
      store.dispose();
      return { rows, firstMs: performance.now() - started };
    },
  };
}

export interface CandidateResult {
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
export async function runCandidates(candidates: Candidate[], reps: number, expected: number, log: (line: string) => void): Promise<CandidateResult[]> {
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
