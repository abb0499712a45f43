/** What a listing of the flags (listing.ts) asks of the client, what it takes, and what it answers. */
import type { ListingFallbacks } from './listingFallbacks';
import type { ListLimits } from './listLimits';
import type { FeatureSummary } from './schemas';
import type { ListingPage } from './searchPaging';

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
  /** The server's version (its ui-config), when it says: whether projects remembered in `fallbacks` still fail. */
  serverVersion?(signal?: AbortSignal): Promise<string | undefined>;
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
  /**
   * Projects whose listing this server failed with a 500 before, kept by the caller from one listing to the next:
   * read through the search at once while the server's version is the same; the listing adds and removes them.
   */
  fallbacks?: ListingFallbacks;
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
