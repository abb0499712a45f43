/**
 * Reading the whole flag list the fastest way a real server allows, and proving it complete: known projects are
 * listed at once (one request each) while a search counts the flags outside them (only the search counts, at a cost
 * that grows with what it matches); the projects it names are listed in turn, the rest is paged. Bounded: LIST_LIMITS.
 */
import * as l10n from '@vscode/l10n';
import { TimeoutError } from './errors';
import { searchRefusal } from './listingFailures';
import { projectOf } from './listingRows';
import { ListingRun } from './listingRun';
import type { ListingOptions, ListingRequests, ListingResult } from './listingTypes';
import { LIST_LIMITS, MAX_PROJECT_LISTINGS } from './listLimits';
import type { FeatureSummary } from './schemas';
import { anyOf, noneOf, pageSearch, validTotal, type ListingPage } from './searchPaging';

/** Rounds of "a search page of the rest, then the listings of the projects it names" before the rest is paged. */
const MAX_ROUNDS = 5;

/**
 * Every flag the server holds (or of `options.projects`). A project whose listing fails is read through the search
 * on its own, and named in `failed` when that fails too; a server whose search is missing or refuses is listed per
 * project alone, and the result says what it could not check (`unchecked`). Only what concerns the whole listing
 * ends it: a cancellation, the token, a setting or a bound.
 */
export async function listAllFeatures(requests: ListingRequests, options: ListingOptions = {}): Promise<ListingResult> {
  const limits = { ...LIST_LIMITS, ...options.limits };
  const deadline = AbortSignal.timeout(limits.ms);
  // Once the listing has its answer, or has failed (a server that refuses connections ends it at its first
  // refusal), the requests still out stop, and with them their waits for a retry.
  const done = new AbortController();
  const signal = AbortSignal.any([...(options.signal ? [options.signal] : []), deadline, done.signal]);
  try {
    return await new Listing(requests, { ...options, signal }, limits).run();
  } catch (error) {
    if (deadline.aborted && !options.signal?.aborted) throw new TimeoutError('list the flags', limits.ms);
    throw error;
  } finally {
    done.abort();
  }
}

/** A search for the flags outside `excluded` (every project known to be listed or read), one page of it. */
interface Proof {
  excluded: string[];
  page: Promise<ListingPage>;
  settled: boolean;
  stop: AbortController;
}

class Listing extends ListingRun {
  /** Flags the search counted outside the projects covered that no request has given yet. */
  private shortfall: number | undefined;

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
      return await this.result(this.rows.method(), proven ? this.rows.size : undefined);
    } catch (error) {
      const refusal = searchRefusal(error);
      if (!refusal) throw error;
      this.unchecked = unlisted.length ? l10n.t('{0}; the projects {1} could not be read', refusal, unlisted.join(', ')) : refusal;
      return await this.result(this.rows.method());
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
    // projects listed, so the search finds them.
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
      return await this.result('projects');
    }
    try {
      // Projects the token may not list (or a server without per-project listings): read through the search.
      const unlisted = proof.excluded.filter((project) => !done.has(project));
      if (unlisted.length && !done.size) {
        await pageSearch(this.pager, undefined);
        return await this.result('search', this.rows.size);
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
      return await this.result(this.rows.method());
    }
    return await this.result(this.rows.method(), this.rows.size);
  }

  /** The projects the server lists; none asked of an open-source server, whose list is `default` alone. */
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

}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

function projectsOf(rows: FeatureSummary[]): string[] {
  return [...new Set(rows.map(projectOf))];
}
