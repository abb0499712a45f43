/**
 * The reading of one listing (listing.ts decides what to read): projects listed in parallel, each shown as it
 * arrives; those it could not list read through the search; the rows kept within the budget; the result.
 */
import { mapLimited } from '../base/mapLimited';
import { ForbiddenError, NotFoundError } from './errors';
import { endsListing, failsAgain } from './listingFailures';
import { ListingRows } from './listingRows';
import type { ListingFailure, ListingOptions, ListingRequests, ListingResult } from './listingTypes';
import { tooManyFlags, type ListLimits } from './listLimits';
import type { FeatureSummary } from './schemas';
import { anyOf, pageSearch, SEARCH_PAGE, type Pager } from './searchPaging';
import { compare } from '../base/compare';
import { TimeSlices } from '../base/timeSlices';

/** Requests in flight at once. */
const CONCURRENCY = 4;
/** Rows of a project's listing added at a time (each part's new rows handed to `onRows`). */
const ADD_ROWS = 2_000;

export class ListingRun {
  protected readonly rows = new ListingRows();
  /** Projects whose listing failed other than by 403/404, with why: the search reads each on its own. */
  private readonly listingErrors = new Map<string, unknown>();
  protected readonly failed: ListingFailure[] = [];
  protected readonly pager: Pager;
  protected readonly pageSize: number;
  private readonly concurrency: number;
  private readonly maxRows: number;
  private requestCount = 0;
  /** The server's version, asked once a listing and only when `fallbacks` needs it. */
  private version: Promise<string | undefined> | undefined;
  /** Why completeness could not be checked, for the result. */
  protected unchecked: string | undefined;
  private closed = false;
  /** The listing's work on the rows, in slices. */
  private readonly slices = new TimeSlices();

  constructor(
    protected readonly requests: ListingRequests,
    protected readonly options: ListingOptions,
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

  /**
   * Lists projects in parallel, each shown as it arrives; the answer is the set of projects listed. A project the
   * token may not read, or that the server cannot list per project (403, 404), and one whose listing failed otherwise
   * are left to the search (readUnlisted); one whose listing answered 500 on this server before is not asked again
   * (`fallbacks`).
   */
  protected async listProjects(projects: string[]): Promise<Set<string>> {
    const done = new Set<string>();
    const fallbacks = this.options.fallbacks;
    await mapLimited(projects, this.concurrency, async (project) => {
      if (fallbacks?.has(project) && fallbacks.holdsFor(await this.serverVersion())) {
        this.listingErrors.set(project, fallbacks.failure(project));
        return;
      }
      let rows: FeatureSummary[];
      try {
        rows = await this.count(this.requests.projectFeatures(project, this.options.signal, this.maxRows));
      } catch (error) {
        if (endsListing(error, this.options.signal)) throw error;
        if (!(error instanceof NotFoundError || error instanceof ForbiddenError)) this.listingErrors.set(project, error);
        if (fallbacks && failsAgain(error)) fallbacks.remember(project, error, await this.serverVersion());
        return;
      }
      fallbacks?.forget(project);
      // The rows are this listing's own (just parsed): they take their project in place, not as 10,000 copies.
      for (const row of rows) row.project ??= project;
      // A part at a time: a project's 100,000 rows added at once would hold the thread (bench/hostile, hostListing).
      for (let at = 0; at < rows.length; at += ADD_ROWS) {
        if (at > 0 && this.slices.due()) await this.slices.next();
        this.add(rows.length > ADD_ROWS ? rows.slice(at, at + ADD_ROWS) : rows, false);
      }
      done.add(project);
    });
    return done;
  }

  /**
   * Reads the projects the listings could not through the search: those refused (403, 404) in one query, each whose
   * listing failed otherwise in its own. One whose search fails too is a failed part; the others are still shown.
   */
  protected async readUnlisted(projects: string[]): Promise<void> {
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
  protected add(rows: FeatureSummary[], fromSearch: boolean): void {
    // Requests stopped early may still answer after the result is out: they change nothing then.
    if (this.closed) return;
    const fresh = this.rows.add(rows, fromSearch);
    if (this.rows.size > this.maxRows) throw tooManyFlags(this.maxRows);
    if (fresh.length) this.options.onRows?.(fresh);
  }

  /** The server's version, asked at most once a listing; undefined when it cannot be asked or does not say. */
  private serverVersion(): Promise<string | undefined> {
    const ask = this.requests.serverVersion;
    this.version ??= ask ? this.count(ask(this.options.signal)).catch(() => undefined) : Promise.resolve(undefined);
    return this.version;
  }

  protected count<T>(request: Promise<T>): Promise<T> {
    this.requestCount++;
    return request;
  }

  protected async result(method: string, total?: number): Promise<ListingResult> {
    this.closed = true;
    const failed = this.failed.sort((a, b) => compare(a.project, b.project));
    // Nothing could be read at all: the listing failed as a whole, for its first cause.
    if (failed.length && this.rows.size === 0) throw (failed[0] as ListingFailure).error;
    return {
      features: await this.rows.sorted(this.slices),
      // What the search counted leaves out the projects that could not be read: no proof of completeness then.
      total: failed.length ? undefined : total,
      method,
      requests: this.requestCount,
      ...(this.unchecked ? { unchecked: this.unchecked } : {}),
      ...(failed.length ? { failed } : {}),
    };
  }
}
