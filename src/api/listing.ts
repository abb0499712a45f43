/**
 * Reading the whole flag list the fastest way a real server allows, and proving it complete.
 *
 * A real Unleash answers every flag of a project in one request (10,000 flags in about 0.3 s), but its search
 * endpoint, the only one that can say how many flags there are, costs more the more flags match: a page of 100 out of
 * 10,000 takes about 0.9 s, the same page filtered down to nothing about 15 ms. The open-source server's project list
 * names only `default`. So (bench/README.md has the figures):
 *
 *   1. at once, in parallel: the listings of the projects already known (`default`, those of the last listing, or the
 *      configured ones), the project list (not on a refresh, nor of an open-source server: its ui-config says so,
 *      and its project list names only `default`), and a search for the flags *outside* those projects
 *      (`project=IS_NONE_OF:…`), whose `total` is what the listings cannot see; each listing is shown as it arrives;
 *   2. projects the project list adds are listed too, and the search restarts excluding them (while it is still out:
 *      cheap when nothing is left outside);
 *   3. the listing is complete when the rows outside the excluded projects reach the search's `total`. Otherwise the
 *      search page names projects no listing covered (open source lists only `default`): they are listed, and the
 *      search asked again without them; a project whose listing the token may not read (or the server does not
 *      offer) is read through the search instead;
 *   4. a catalog of one search page is then read through that page as well, for what only search rows carry
 *      (lifecycle, tags, segments, dependency type);
 *   5. a server without search is listed per project alone (nothing to prove completeness against), and so is one
 *      whose search refuses for now: Unleash 8 allows 15 searches a minute per client address
 *      (SEARCH_FEATURES_RATE_LIMIT_PER_MINUTE) and answers 429 with `Retry-After` beyond that. The result then says
 *      what it could not check (`unchecked`), never silently.
 *
 * A project's listing has no pages: it is every flag of the project, so flags inside listed projects need no count.
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
  /**
   * Whether the server is open source, whose project list is always `default` alone: then it is not asked. Absent,
   * or failing, means the project list is asked.
   */
  openSource?(signal?: AbortSignal): Promise<boolean>;
}

export interface ListingOptions {
  /** Projects to list; empty means all. */
  projects?: string[];
  /** Projects the last listing found, listed at once beside `default` (all projects only). */
  knownProjects?: string[];
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
  /** How many flags the search proved there are, when it could prove it. */
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

/** A search for the flags outside `excluded` (every project known to be listed or read), one page of it. */
interface Proof {
  excluded: string[];
  page: Promise<ListingPage>;
  settled: boolean;
  stop: AbortController;
}

class Listing {
  private readonly rows = new Map<string, FeatureSummary>();
  /** Rows a search page gave (they carry lifecycle, tags, segments, dependency type). */
  private readonly searched = new Set<string>();
  /** Rows project listings / search pages brought (for `method`). */
  private readonly brought = { listing: 0, search: 0 };
  /** Flags the search counted outside the projects covered that no request has given yet. */
  private shortfall: number | undefined;
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
    const wanted = unique(this.options.projects ?? []);
    return wanted.length ? this.listWanted(wanted) : this.listAll();
  }

  /** Configured projects: their listings are the answer; the search reads only those it cannot list. */
  private async listWanted(wanted: string[]): Promise<ListingResult> {
    const done = await this.listProjects(wanted);
    const unlisted = wanted.filter((project) => !done.has(project));
    try {
      if (unlisted.length) await this.pageSearch(anyOf(unlisted));
      const proven = await this.completeSmall(anyOf(wanted));
      return this.result(this.method(), proven ? this.rows.size : undefined);
    } catch (error) {
      const refusal = searchRefusal(error);
      if (!refusal) throw error;
      this.unchecked = unlisted.length ? l10n.t('{0}; the projects {1} could not be read', refusal, unlisted.join(', ')) : refusal;
      return this.result(this.method());
    }
  }

  private async listAll(): Promise<ListingResult> {
    const signal = this.options.signal;
    const initial = unique(['default', ...(this.options.knownProjects ?? [])]).slice(0, MAX_PROJECT_LISTINGS);
    const attempted = new Set(initial);
    let proof = this.startProof(initial);
    const listed = this.listProjects(initial);
    listed.catch(() => undefined);
    // Projects the server lists that were not known: listed too, and the search restarted without them. A refresh
    // (projects known from the last listing) does without the project list: a new project's flags are outside the
    // projects listed, so the search finds them, and the project list costs a real server 40–120 ms of work beside
    // the listings.
    const known = Boolean(this.options.knownProjects?.length);
    const projectList = known ? Promise.resolve([]) : this.projectList();
    const more = projectList.then(
      (projects) => {
        if (projects.length > MAX_PROJECT_LISTINGS) return new Set<string>();
        const fresh = projects.filter((project) => !attempted.has(project));
        for (const project of fresh) attempted.add(project);
        if (fresh.length && !proof.settled) {
          proof.stop.abort();
          proof = this.startProof([...attempted]);
        }
        return this.listProjects(fresh);
      },
      (error: unknown) => {
        if (signal?.aborted) throw error;
        return new Set<string>();
      },
    );
    more.catch(() => undefined);
    const done = new Set([...(await listed), ...(await more)]);

    let page: ListingPage;
    try {
      page = await proof.page;
    } catch (error) {
      const refusal = searchRefusal(error);
      if (!refusal) throw error;
      // No search (or none for now): the projects listed, with nothing to prove completeness against.
      this.unchecked = refusal;
      return this.result('projects');
    }
    try {
      // Projects the token may not list (or a server without per-project listings): read through the search.
      const unlisted = proof.excluded.filter((project) => !done.has(project));
      if (unlisted.length && !done.size) {
        await this.pageSearch(undefined);
        return this.result('search', this.rows.size);
      }
      if (unlisted.length) await this.pageSearch(anyOf(unlisted));
      await this.findTheRest(proof.excluded, page, attempted);
      await this.completeSmall(undefined);
    } catch (error) {
      const refusal = searchRefusal(error);
      if (!refusal) throw error;
      // The projects listed are shown; what the search would have added is named, not dropped silently.
      this.unchecked = this.shortfall
        ? l10n.t('{0}; {1} of {2} flags are outside the projects listed', refusal, this.shortfall, this.rows.size + this.shortfall)
        : l10n.t('{0}; flags outside the projects listed may be missing', refusal);
      return this.result(this.method());
    }
    return this.result(this.method(), this.rows.size);
  }

  /**
   * The projects the server lists; none asked of an open-source server, whose list is `default` alone (its
   * ui-config costs the server ~8 ms, the project list 40–60 ms at 10,000 flags).
   */
  private async projectList(): Promise<string[]> {
    const { signal } = this.options;
    const openSource = this.requests.openSource && (await this.count(this.requests.openSource(signal)).catch(() => false));
    return openSource ? [] : this.count(this.requests.projects(signal));
  }

  private startProof(excluded: string[]): Proof {
    const stop = new AbortController();
    const signal = this.options.signal ? AbortSignal.any([this.options.signal, stop.signal]) : stop.signal;
    const proof: Proof = { excluded, stop, settled: false, page: this.count(this.requests.searchPage(0, this.pageSize, noneOf(excluded), signal)) };
    proof.page.then(
      (page) => {
        proof.settled = true;
        // Shown as it arrives, like a project listing: while the projects' listings are still on their way.
        this.add(page.features, true);
      },
      () => (proof.settled = true),
    );
    return proof;
  }

  /**
   * Reads the flags outside `excluded` (all of whose projects are listed or read) until there are as many as the
   * search counts: the projects a page of them names are listed (one request each, however large), and the search
   * asked again without them, for at most MAX_ROUNDS rounds; a page that names no new project (flags the listings
   * should have held, or projects beyond the bounds) means the search is paged for them. `first` is the proof's page,
   * whose rows were added when it arrived.
   */
  private async findTheRest(excluded: string[], first: ListingPage, attempted: Set<string>): Promise<void> {
    let page = first;
    let outsideOf = new Set(excluded);
    const covered = new Set(excluded);
    /**
     * Whether the rows outside the projects the page left out reach its total (all rows, when the server ignored the
     * filter: its page holds rows of those projects); keeps the shortfall for the note.
     */
    const complete = (total: number | undefined): boolean => {
      const unfiltered = page.features.some((row) => outsideOf.has(projectOf(row)));
      const have = unfiltered ? this.rows.size : this.countOutside(outsideOf);
      this.shortfall = total === undefined ? undefined : Math.max(0, total - have);
      return total !== undefined && have >= total;
    };
    for (let round = 0; ; round++) {
      const total = validTotal(page.total);
      if (page.features.length < this.pageSize || complete(total)) return;
      const named = projectsOf(page.features).filter((project) => !attempted.has(project)).slice(0, Math.max(0, MAX_PROJECT_LISTINGS - attempted.size));
      if (!named.length || round >= MAX_ROUNDS || total === undefined) return this.pageSearch(noneOf([...outsideOf]), page);
      for (const project of named) attempted.add(project);
      const done = await this.listProjects(named);
      const unlisted = named.filter((project) => !done.has(project));
      if (unlisted.length) await this.pageSearch(anyOf(unlisted));
      // The listings may hold every flag the page counted: no further search needed then.
      if (complete(total)) return;
      for (const project of named) covered.add(project);
      outsideOf = new Set(covered);
      page = await this.count(this.requests.searchPage(0, this.pageSize, noneOf([...covered]), this.options.signal));
      this.add(page.features, true);
    }
  }

  /**
   * A catalog that fits one search page is read through that page as well: search rows carry what project listings
   * do not. Its total also proves the count. Answers whether it did.
   */
  private async completeSmall(filter: string | undefined): Promise<boolean> {
    if (this.rows.size > this.pageSize || this.searched.size >= this.rows.size) return false;
    try {
      const page = await this.count(this.requests.searchPage(0, this.pageSize, filter, this.options.signal));
      this.add(page.features, true);
      return validTotal(page.total) === this.rows.size;
    } catch (error) {
      // The rows are complete without it: a search refused for now costs only what search rows add.
      if (searchRefusal(error)) return false;
      throw error;
    }
  }

  /**
   * Lists projects in parallel, each shown as it arrives. A project the token may not read, or that the server cannot
   * list per project, is left to the search; the answer is the set of projects listed.
   */
  private async listProjects(projects: string[]): Promise<Set<string>> {
    const done = new Set<string>();
    await mapLimited(projects, this.concurrency, async (project) => {
      try {
        const rows = await this.count(this.requests.projectFeatures(project, this.options.signal));
        // The rows are this listing's own (just parsed): they take their project in place, not as 10,000 copies.
        for (const row of rows) row.project ??= project;
        this.add(rows, false);
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
   * the same query, was already read and added), then windows of pages in parallel, never past the page's `total` and never
   * more than `maxPages` in all. Paging also stops on a short or empty page and on a page that repeats the one before.
   */
  private async pageSearch(filter: string | undefined, first?: ListingPage): Promise<void> {
    const { signal } = this.options;
    const head = first ?? (await this.count(this.requests.searchPage(0, this.pageSize, filter, signal)));
    if (!first) this.add(head.features, true);
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
        this.add(answer.features, true);
        if (answer.features.length < this.pageSize) return;
      }
    }
  }

  /** Adds rows, de-duplicated by project and name; `fromSearch` rows carry more (lifecycle, segments…) and win. */
  private add(rows: FeatureSummary[], fromSearch: boolean): void {
    // Requests stopped early may still answer after the result is out: they change nothing then.
    if (this.closed) return;
    const fresh: FeatureSummary[] = [];
    for (const row of rows) {
      const key = `${projectOf(row)}\u0000${row.name}`;
      const known = this.rows.get(key);
      // A search row carries more (lifecycle, segments, dependency type): its fields win, whichever arrives first.
      const merged = !known ? row : fromSearch || !this.searched.has(key) ? { ...known, ...row } : { ...row, ...known };
      this.rows.set(key, merged);
      if (fromSearch) this.searched.add(key);
      if (!known) fresh.push(merged);
    }
    this.brought[fromSearch ? 'search' : 'listing'] += rows.length;
    if (fresh.length) this.options.onRows?.(fresh);
  }

  /** Rows outside the given projects. */
  private countOutside(projects: Set<string>): number {
    let count = 0;
    for (const row of this.rows.values()) if (!projects.has(projectOf(row))) count++;
    return count;
  }

  private count<T>(request: Promise<T>): Promise<T> {
    this.requestCount++;
    return request;
  }

  /** How the rows were read: `projects`, `search`, or `projects+search` when both brought rows. */
  private method(): string {
    const { listing, search } = this.brought;
    return listing && search ? 'projects+search' : search ? 'search' : 'projects';
  }

  private result(method: string, total?: number): ListingResult {
    this.closed = true;
    const byName = (a: FeatureSummary, b: FeatureSummary) => compare(a.name, b.name) || compare(projectOf(a), projectOf(b));
    const features = [...this.rows.values()];
    // A project listing usually arrives in name order already: checked in one pass, sorted only when not.
    if (!features.every((row, i) => i === 0 || byName(features[i - 1] as FeatureSummary, row) <= 0)) features.sort(byName);
    return { features, total, method, requests: this.requestCount, ...(this.unchecked ? { unchecked: this.unchecked } : {}) };
  }
}

function tooManyFlags(limit: number): ConfigError {
  return new ConfigError(PROJECTS_SETTING, l10n.t('takes in more than {0} flags, more than the extension lists. Name fewer projects to show.', limit.toLocaleString('en-US')));
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

function unique(items: string[]): string[] {
  return [...new Set(items)];
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
