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
 * A project whose listing fails for any other reason (a real server answers 500 for a project holding a flag named
 * `constructor`) is read through the search on its own; when that fails too, the result names it in `failed` and
 * every other project is still listed. Only what concerns the whole listing ends it: a cancellation, the token, a
 * setting or a bound.
 *
 * A project's listing has no pages: it is every flag of the project, so flags inside listed projects need no count.
 * Every step is bounded: the search is paged as searchPaging.ts says, at most `limits.pages` pages a query, at most
 * `limits.rows` flags in all, and the whole listing has `limits.ms`. Imports nothing from 'vscode'.
 */
import * as l10n from '@vscode/l10n';
import {
  AuthError,
  CancelledError,
  ConfigError,
  ForbiddenError,
  HttpError,
  InvalidTokenError,
  MissingTokenError,
  NotFoundError,
  TimeoutError,
} from './errors';
import { LIST_LIMITS, tooManyFlags, type ListLimits } from './listLimits';
import type { FeatureSummary } from './schemas';
import { compare, ListingRows, projectOf } from './listingRows';
import { anyOf, noneOf, pageSearch, validTotal, type ListingPage, type Pager } from './searchPaging';

/** The requests a listing makes; the client supplies them (parsed and typed), tests may fake them. */
export interface ListingRequests {
  /** One page of the search endpoint; `projectFilter` is a search filter such as `IS_ANY_OF:a,b`. */
  searchPage(offset: number, limit: number, projectFilter: string | undefined, signal?: AbortSignal): Promise<ListingPage>;
  /**
   * Every flag of one project, in one request. A project of more than `maxRows` flags is refused (tooManyFlags)
   * before its rows are checked one by one.
   */
  projectFeatures(project: string, signal?: AbortSignal, maxRows?: number): Promise<FeatureSummary[]>;
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

/** A project whose flags could not be read: its listing failed, and reading it through the search failed too. */
export interface ListingFailure {
  project: string;
  /** Why its listing failed (the first cause). */
  error: unknown;
  /** Why the search for its flags failed. */
  searchError: unknown;
}

export interface ListingResult {
  features: FeatureSummary[];
  /** How many flags the search proved there are, when it could prove it. */
  total?: number;
  /** How the rows were read, for the log: `search`, `projects`, `projects+search`. */
  method: string;
  requests: number;
  /** Why completeness could not be checked, when it could not (the search refused or is missing). */
  unchecked?: string;
  /** Projects whose flags could not be read (by project name); every other project's flags are in `features`. */
  failed?: ListingFailure[];
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
  private readonly rows = new ListingRows();
  /** Projects whose listing failed other than by 403/404, with why: the search reads each on its own. */
  private readonly listingErrors = new Map<string, unknown>();
  private readonly failed: ListingFailure[] = [];
  private readonly pager: Pager;
  /** Flags the search counted outside the projects covered that no request has given yet. */
  private shortfall: number | undefined;
  private readonly pageSize: number;
  private readonly concurrency: number;
  private readonly maxRows: number;
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
    this.maxRows = limits.rows;
    this.pager = {
      search: (offset, filter) => this.count(this.requests.searchPage(offset, this.pageSize, filter, this.options.signal)),
      add: (rows) => this.add(rows, true),
      pageSize: this.pageSize,
      concurrency: this.concurrency,
      maxPages: limits.pages,
    };
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
      if (unlisted.length) await this.readUnlisted(unlisted);
      const proven = await this.completeSmall(anyOf(wanted));
      return this.result(this.rows.method(), proven ? this.rows.size : undefined);
    } catch (error) {
      const refusal = searchRefusal(error);
      if (!refusal) throw error;
      this.unchecked = unlisted.length ? l10n.t('{0}; the projects {1} could not be read', refusal, unlisted.join(', ')) : refusal;
      return this.result(this.rows.method());
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
        await pageSearch(this.pager, undefined);
        return this.result('search', this.rows.size);
      }
      if (unlisted.length) await this.readUnlisted(unlisted);
      await this.findTheRest(proof.excluded, page, attempted);
      await this.completeSmall(undefined);
    } catch (error) {
      const refusal = searchRefusal(error);
      if (!refusal) throw error;
      // The projects listed are shown; what the search would have added is named, not dropped silently.
      this.unchecked = this.shortfall
        ? l10n.t('{0}; {1} of {2} flags are outside the projects listed', refusal, this.shortfall, this.rows.size + this.shortfall)
        : l10n.t('{0}; flags outside the projects listed may be missing', refusal);
      return this.result(this.rows.method());
    }
    return this.result(this.rows.method(), this.rows.size);
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
    // Shown as it arrives, like a project listing: while the projects' listings are still on their way.
    const page = this.count(this.requests.searchPage(0, this.pageSize, noneOf(excluded), signal)).then((answer) => {
      this.add(answer.features, true);
      return answer;
    });
    const proof: Proof = { excluded, stop, settled: false, page };
    const settle = () => (proof.settled = true);
    page.then(settle, settle);
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
      const have = unfiltered ? this.rows.size : this.rows.countOutside(outsideOf);
      this.shortfall = total === undefined ? undefined : Math.max(0, total - have);
      return total !== undefined && have >= total;
    };
    for (let round = 0; ; round++) {
      const total = validTotal(page.total);
      if (page.features.length < this.pageSize || complete(total)) return;
      const named = projectsOf(page.features).filter((project) => !attempted.has(project)).slice(0, Math.max(0, MAX_PROJECT_LISTINGS - attempted.size));
      if (!named.length || round >= MAX_ROUNDS || total === undefined) return pageSearch(this.pager, noneOf([...outsideOf]), page);
      for (const project of named) attempted.add(project);
      const done = await this.listProjects(named);
      const unlisted = named.filter((project) => !done.has(project));
      if (unlisted.length) await this.readUnlisted(unlisted);
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
    // With a project that could not be read there is nothing to prove, and its search already failed.
    if (this.failed.length || this.rows.size > this.pageSize || this.rows.allSearched) return false;
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
   * Lists projects in parallel, each shown as it arrives; the answer is the set of projects listed. A project the
   * token may not read, or that the server cannot list per project (403, 404), and one whose listing failed otherwise
   * are left to the search (readUnlisted).
   */
  private async listProjects(projects: string[]): Promise<Set<string>> {
    const done = new Set<string>();
    await mapLimited(projects, this.concurrency, async (project) => {
      let rows: FeatureSummary[];
      try {
        rows = await this.count(this.requests.projectFeatures(project, this.options.signal, this.maxRows));
      } catch (error) {
        if (endsListing(error, this.options.signal)) throw error;
        if (!(error instanceof NotFoundError || error instanceof ForbiddenError)) this.listingErrors.set(project, error);
        return;
      }
      // The rows are this listing's own (just parsed): they take their project in place, not as 10,000 copies.
      for (const row of rows) row.project ??= project;
      this.add(rows, false);
      done.add(project);
    });
    return done;
  }

  /**
   * Reads the projects the listings could not through the search: those refused (403, 404) in one query, each whose
   * listing failed otherwise in its own. One whose search fails too is a failed part; the others are still shown.
   */
  private async readUnlisted(projects: string[]): Promise<void> {
    const refused = projects.filter((project) => !this.listingErrors.has(project));
    if (refused.length) await pageSearch(this.pager, anyOf(refused));
    const broken = projects.filter((project) => this.listingErrors.has(project));
    await mapLimited(broken, this.concurrency, async (project) => {
      try {
        await pageSearch(this.pager, anyOf([project]));
      } catch (searchError) {
        if (endsListing(searchError, this.options.signal)) throw searchError;
        this.failed.push({ project, error: this.listingErrors.get(project), searchError });
      }
    });
  }

  /** Adds rows (ListingRows), within the row budget, and hands the new ones to `onRows`. */
  private add(rows: FeatureSummary[], fromSearch: boolean): void {
    // Requests stopped early may still answer after the result is out: they change nothing then.
    if (this.closed) return;
    const fresh = this.rows.add(rows, fromSearch);
    if (this.rows.size > this.maxRows) throw tooManyFlags(this.maxRows);
    if (fresh.length) this.options.onRows?.(fresh);
  }

  private count<T>(request: Promise<T>): Promise<T> {
    this.requestCount++;
    return request;
  }

  private result(method: string, total?: number): ListingResult {
    this.closed = true;
    const failed = this.failed.sort((a, b) => compare(a.project, b.project));
    // Nothing could be read at all: the listing failed as a whole, for its first cause.
    if (failed.length && this.rows.size === 0) throw (failed[0] as ListingFailure).error;
    return {
      features: this.rows.sorted(),
      // What the search counted leaves out the projects that could not be read: no proof of completeness then.
      total: failed.length ? undefined : total,
      method,
      requests: this.requestCount,
      ...(this.unchecked ? { unchecked: this.unchecked } : {}),
      ...(failed.length ? { failed } : {}),
    };
  }
}

/**
 * Failures that are never one project's and end the listing: a cancellation (or the listing's deadline), a setting
 * or a bound, the token.
 */
function endsListing(error: unknown, signal: AbortSignal | undefined): boolean {
  return (
    Boolean(signal?.aborted) ||
    error instanceof CancelledError ||
    error instanceof ConfigError ||
    error instanceof AuthError ||
    error instanceof MissingTokenError ||
    error instanceof InvalidTokenError
  );
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

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

function projectsOf(rows: FeatureSummary[]): string[] {
  return [...new Set(rows.map(projectOf))];
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
