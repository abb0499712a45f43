/**
 * Reading the whole flag list the fastest way a real server allows, and proving it complete.
 *
 * A real Unleash charges about 170 ms for every page of its search endpoint, whatever the page size, and pages hold
 * at most 100 rows: 10,000 flags take 100 pages, about 7 s with 4 in flight. Its per-project listing answers every
 * flag of a project in one request (10,000 flags in about 0.3 s) but knows nothing of the search's `total`, and the
 * open-source server's project list names only `default`. So (bench/README.md has the figures):
 *
 *   1. the first search page and the project list are asked for together; the first page is shown at once and its
 *      `total` is the count the listing must reach;
 *   2. every known project (listed, seen on the first page, or configured) is listed in one request each, in
 *      parallel, each shown as it arrives;
 *   3. when those rows fall short of `total` (a project the project list leaves out, a project listing the token may
 *      not read or the server does not have), the search is paged for the flags outside the projects already listed;
 *   4. a server without search is listed per project alone (nothing to prove completeness against), and so is one
 *      whose search refuses for now: Unleash 8 allows 15 searches a minute per client address
 *      (SEARCH_FEATURES_RATE_LIMIT_PER_MINUTE) and answers 429 with `Retry-After` beyond that. The result then says
 *      what it could not check (`unchecked`), never silently.
 *
 * Every step is bounded: pages are asked for one window at a time (never from the server's `total` up front), at
 * most `limits.pages` of them, paging stops on a short, empty or repeated page, and the whole listing has
 * `limits.ms`. Imports nothing from 'vscode'.
 */
import * as l10n from '@vscode/l10n';
import { ConfigError, ForbiddenError, HttpError, NotFoundError, TimeoutError } from './errors';
import type { FeatureSummary } from './schemas';

export interface ListingPage {
  features: FeatureSummary[];
  total?: number;
}

/** The requests a listing makes; the client supplies them (parsed and typed), tests may fake them. */
export interface ListingRequests {
  /** One page of the search endpoint; `projectFilter` is a search filter such as `IS_ANY_OF:a,b`. */
  searchPage(offset: number, limit: number, projectFilter: string | undefined, signal?: AbortSignal): Promise<ListingPage>;
  /** Every flag of one project, in one request. */
  projectFeatures(project: string, signal?: AbortSignal): Promise<FeatureSummary[]>;
  /** The projects the server lists. */
  projects(signal?: AbortSignal): Promise<string[]>;
}

export interface ListingOptions {
  /** Projects to list; empty means all. */
  projects?: string[];
  signal?: AbortSignal;
  /** Called with every batch of rows as it arrives (a search page, a project), before the listing is complete. */
  onRows?: (rows: FeatureSummary[]) => void;
  /** Rows per search page: 100, the most a real server gives (it answers 50 for more). Smaller in tests. */
  pageSize?: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /** Bounds of one listing (LIST_LIMITS by default). */
  limits?: Partial<ListLimits>;
}

/** Bounds of one listing: at most `pages` search pages (and as many rows as they hold), within `ms`. */
export interface ListLimits {
  pages: number;
  ms: number;
}

export const LIST_LIMITS: ListLimits = { pages: 1_000, ms: 120_000 };
/** The setting that narrows the listing; named when a listing is too long. */
const PROJECTS_SETTING = 'unleash.projects';

export interface ListingResult {
  features: FeatureSummary[];
  /** What the search reported, when there is a search endpoint. */
  total?: number;
  /** How the rows were read, for the log: `search`, `projects`, `projects+search`. */
  method: string;
  requests: number;
  /** Why completeness could not be checked, when it could not (the search refused or is missing). */
  unchecked?: string;
}

export const SEARCH_PAGE = 100;
const CONCURRENCY = 4;
/** More projects than this are not listed one request each: the search reads them. */
const MAX_PROJECT_LISTINGS = 200;
/** Rounds of "a search page of the rest, then the listings of the projects it names" before the rest is paged. */
const MAX_ROUNDS = 5;

export async function listAllFeatures(requests: ListingRequests, options: ListingOptions = {}): Promise<ListingResult> {
  const limits = { ...LIST_LIMITS, ...options.limits };
  const deadline = AbortSignal.timeout(limits.ms);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  try {
    return await new Listing(requests, { ...options, signal }, limits).run();
  } catch (error) {
    if (deadline.aborted && !options.signal?.aborted) throw new TimeoutError('list the flags', limits.ms);
    throw error;
  }
}

class Listing {
  private readonly rows = new Map<string, FeatureSummary>();
  private readonly pageSize: number;
  private readonly concurrency: number;
  private readonly maxPages: number;
  private requestCount = 0;
  private unchecked: string | undefined;
  private closed = false;

  constructor(
    private readonly requests: ListingRequests,
    private readonly options: ListingOptions,
    limits: ListLimits,
  ) {
    this.pageSize = options.pageSize ?? SEARCH_PAGE;
    this.concurrency = options.concurrency ?? CONCURRENCY;
    this.maxPages = limits.pages;
  }

  async run(): Promise<ListingResult> {
    const signal = this.options.signal;
    const wanted = this.options.projects ?? [];
    // The project list and the projects' listings start beside the first search page (on a server with many flags
    // the search page is the slow request), and stop when that page turns out to hold every flag.
    const early = new AbortController();
    const earlySignal = signal ? AbortSignal.any([signal, early.signal]) : early.signal;
    const projectList = wanted.length ? Promise.resolve(wanted) : this.count(this.requests.projects(earlySignal));
    projectList.catch(() => undefined);
    const firstPage = this.count(this.requests.searchPage(0, this.pageSize, anyOf(wanted), signal));
    firstPage.catch(() => undefined);
    const attempted = new Set<string>();
    const listedEarly = projectList.then(
      (projects) => {
        if (projects.length > MAX_PROJECT_LISTINGS) return new Set<string>();
        for (const project of projects) attempted.add(project);
        return this.listProjects(projects, earlySignal);
      },
      () => new Set<string>(),
    );
    listedEarly.catch(() => undefined);

    let first: ListingPage;
    try {
      first = await firstPage;
    } catch (error) {
      const refusal = searchRefusal(error);
      if (!refusal) throw error;
      // No search (or none for now): per project only, with nothing to prove completeness against.
      this.unchecked = refusal;
      const projects = await projectList;
      if (projects.length > MAX_PROJECT_LISTINGS) throw tooManyProjects(projects.length);
      await listedEarly;
      return this.result('projects');
    }
    this.add(first.features);
    const total = validTotal(first.total);
    if (first.features.length < this.pageSize || (total !== undefined && this.rows.size >= total)) {
      early.abort();
      return this.result('search', total);
    }
    if (total === undefined) {
      early.abort();
      await this.pageSearch(anyOf(wanted), first);
      return this.result('search');
    }

    const done = await listedEarly;
    // Projects the first page names that the project list left out (open source lists only `default`).
    const seen = wanted.length ? [] : projectsOf(first.features).filter((project) => !attempted.has(project));
    await this.listMore(seen, attempted, done);
    if (this.rows.size >= total) return this.result('projects', total);

    // Flags outside every project listed: each round reads one search page of them, and lists the projects it names.
    try {
      await this.findTheRest(wanted, total, attempted, done, done.size ? undefined : first);
    } catch (error) {
      const refusal = searchRefusal(error);
      if (!refusal || !done.size) throw error;
      // The projects listed are shown; what the search would have added is named, not dropped silently.
      this.unchecked = l10n.t('{0}; {1} of {2} flags are outside the projects listed', refusal, total - this.rows.size, total);
    }
    return this.result(done.size ? 'projects+search' : 'search', total);
  }

  /** Lists `projects` (recording them as attempted), adding the ones listed to `done`. */
  private async listMore(projects: string[], attempted: Set<string>, done: Set<string>): Promise<void> {
    const fresh = projects.filter((project) => !attempted.has(project)).slice(0, Math.max(0, MAX_PROJECT_LISTINGS - attempted.size));
    for (const project of fresh) attempted.add(project);
    for (const project of await this.listProjects(fresh, this.options.signal)) done.add(project);
  }

  /**
   * Reads the flags no project listing reached, until the search's total is reached: a search page of the flags
   * outside the projects listed, then the listings of the projects it names (one request each, however large), for
   * at most MAX_ROUNDS rounds; a page that names no new project (projects the token may not list) means the search
   * is paged for them. `first`, when no project was listed, is the first page of the same query, already read.
   */
  private async findTheRest(wanted: string[], total: number, attempted: Set<string>, done: Set<string>, first?: ListingPage): Promise<void> {
    let known = first;
    for (let round = 0; this.rows.size < total; round++) {
      const filter = wanted.length ? anyOf(wanted.filter((project) => !done.has(project))) : noneOf([...done]);
      if (wanted.length && !filter) return;
      const page = known ?? (await this.count(this.requests.searchPage(0, this.pageSize, filter, this.options.signal)));
      known = undefined;
      this.add(page.features);
      if (page.features.length < this.pageSize) return;
      const named = projectsOf(page.features).filter((project) => !attempted.has(project));
      if (!named.length || round >= MAX_ROUNDS) return this.pageSearch(filter, page);
      await this.listMore(named, attempted, done);
    }
  }

  /**
   * Lists projects in parallel, each shown as it arrives. A project the token may not read, or that the server cannot
   * list per project, is left to the search; the answer is the set of projects listed.
   */
  private async listProjects(projects: string[], signal: AbortSignal | undefined): Promise<Set<string>> {
    const done = new Set<string>();
    await mapLimited(projects, this.concurrency, async (project) => {
      try {
        const rows = await this.count(this.requests.projectFeatures(project, signal));
        this.add(rows.map((row) => ({ ...row, project: row.project ?? project })));
        if (this.rows.size > this.maxPages * this.pageSize) throw tooManyFlags(this.maxPages * this.pageSize);
        done.add(project);
      } catch (error) {
        if (!(error instanceof NotFoundError || error instanceof ForbiddenError)) throw error;
      }
    });
    return done;
  }

  /**
   * Pages the search (filtered by `filter`) to its end: the first page alone (unless `first`, the page at offset 0 of
   * the same query, was already read), then windows of pages in parallel, never past the page's `total` and never
   * more than `maxPages` in all. Paging also stops on a short or empty page and on a page that repeats the one before.
   */
  private async pageSearch(filter: string | undefined, first?: ListingPage): Promise<void> {
    const { signal } = this.options;
    const head = first ?? (await this.count(this.requests.searchPage(0, this.pageSize, filter, signal)));
    if (!first) this.add(head.features);
    const total = validTotal(head.total);
    let previous = pageKey(head.features);
    let pages = 1;
    if (head.features.length < this.pageSize) return;
    for (;;) {
      const offset = pages * this.pageSize;
      const byTotal = total === undefined ? Infinity : Math.ceil((total - offset) / this.pageSize);
      if (byTotal <= 0) return;
      if (pages >= this.maxPages) throw tooManyFlags(this.maxPages * this.pageSize);
      const window = Math.min(this.concurrency, this.maxPages - pages, byTotal);
      const offsets = Array.from({ length: window }, (_, i) => offset + i * this.pageSize);
      const answers = await Promise.all(offsets.map((at) => this.count(this.requests.searchPage(at, this.pageSize, filter, signal))));
      for (const answer of answers) {
        pages++;
        const key = pageKey(answer.features);
        if (answer.features.length === 0 || key === previous) return;
        previous = key;
        this.add(answer.features);
        if (answer.features.length < this.pageSize) return;
      }
    }
  }

  private add(rows: FeatureSummary[]): void {
    // Listings stopped early may still answer after the result is out: they change nothing then.
    if (this.closed) return;
    const fresh: FeatureSummary[] = [];
    for (const row of rows) {
      const key = `${projectOf(row)}\u0000${row.name}`;
      const known = this.rows.get(key);
      // A search row carries more (lifecycle, segments, dependency type): it wins over a project row's fields.
      const merged = known ? ('lifecycle' in known ? { ...row, ...known } : { ...known, ...row }) : row;
      this.rows.set(key, merged);
      if (!known) fresh.push(merged);
    }
    if (fresh.length) this.options.onRows?.(fresh);
  }

  private count<T>(request: Promise<T>): Promise<T> {
    this.requestCount++;
    return request;
  }

  private result(method: string, total?: number): ListingResult {
    this.closed = true;
    const features = [...this.rows.values()].sort((a, b) => compare(a.name, b.name) || compare(projectOf(a), projectOf(b)));
    return { features, total, method, requests: this.requestCount, ...(this.unchecked ? { unchecked: this.unchecked } : {}) };
  }
}

function tooManyFlags(limit: number): ConfigError {
  return new ConfigError(PROJECTS_SETTING, l10n.t('takes in more than {0} flags, more than the extension lists. Name fewer projects to show.', limit.toLocaleString('en-US')));
}

function tooManyProjects(count: number): ConfigError {
  return new ConfigError(PROJECTS_SETTING, l10n.t('is empty and the server lists {0} projects, more than the extension reads one by one. Name the projects to show.', count.toLocaleString('en-US')));
}

/** Why the search cannot be used, when the error says it is missing or refuses for now; undefined otherwise. */
function searchRefusal(error: unknown): string | undefined {
  if (error instanceof NotFoundError) return l10n.t('the server has no flag search');
  if (error instanceof HttpError && error.status === 429) {
    return error.retryAfterSeconds === undefined
      ? l10n.t('the server refuses more searches (429: it limits searches per minute)')
      : l10n.t('the server refuses more searches for {0} s (429: it limits searches per minute)', error.retryAfterSeconds);
  }
  return undefined;
}

/** A finite, whole, non-negative `total`, or undefined: a server's count is not trusted to size anything. */
function validTotal(total: number | undefined): number | undefined {
  return total !== undefined && Number.isSafeInteger(total) && total >= 0 ? total : undefined;
}

function anyOf(projects: string[]): string | undefined {
  return projects.length ? `IS_ANY_OF:${projects.join(',')}` : undefined;
}

function noneOf(projects: string[]): string | undefined {
  return projects.length ? `IS_NONE_OF:${projects.join(',')}` : undefined;
}

function projectsOf(rows: FeatureSummary[]): string[] {
  return [...new Set(rows.map(projectOf))];
}

function projectOf(row: FeatureSummary): string {
  return row.project ?? '';
}

function pageKey(rows: FeatureSummary[]): string {
  return rows.length ? `${projectOf(rows[0] as FeatureSummary)}\u0000${(rows[0] as FeatureSummary).name}\u0000${rows.length}` : '';
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function mapLimited<T, R>(items: T[], limit: number, worker: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await worker(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
  return results;
}
