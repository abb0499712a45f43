/**
 * Paging the search endpoint to the end of one query, for the listing (listing.ts), bounded whatever the server
 * says: pages are asked for one window at a time (never from the server's `total` up front), at most `maxPages` of
 * them, and paging stops on a short, empty or repeated page.
 */
import { projectOf } from './listingRows';
import { tooManyFlags } from './listLimits';
import type { FeatureSummary } from './schemas';

/** Rows a search page asks for: the most a real server gives (it answers 50 for more). */
export const SEARCH_PAGE = 100;

/** One page of the search: its rows, and how many rows the query matches in all, as the server says. */
export interface ListingPage {
  features: FeatureSummary[];
  total?: number;
}

/** What paging needs from the listing. */
export interface Pager {
  /** One page of the query at `offset` (counted as a request). */
  search(offset: number, filter: string | undefined): Promise<ListingPage>;
  /** Takes a page's rows. */
  add(rows: FeatureSummary[]): void;
  pageSize: number;
  concurrency: number;
  maxPages: number;
}

/**
 * Pages the search (filtered by `filter`) to its end: the first page alone (unless `first`, the page at offset 0 of
 * the same query, was already read and added), then windows of pages in parallel, never past the page's `total` and
 * never more than `maxPages` in all.
 */
export async function pageSearch(pager: Pager, filter: string | undefined, first?: ListingPage): Promise<void> {
  const { pageSize, concurrency, maxPages } = pager;
  const head = first ?? (await pager.search(0, filter));
  if (!first) pager.add(head.features);
  const total = validTotal(head.total);
  let previous = pageKey(head.features);
  let pages = 1;
  if (head.features.length < pageSize) return;
  for (;;) {
    const offset = pages * pageSize;
    const byTotal = total === undefined ? Infinity : Math.ceil((total - offset) / pageSize);
    if (byTotal <= 0) return;
    if (pages >= maxPages) throw tooManyFlags(maxPages * pageSize);
    const window = Math.min(concurrency, maxPages - pages, byTotal);
    const offsets = Array.from({ length: window }, (_, i) => offset + i * pageSize);
    const answers = await Promise.all(offsets.map((at) => pager.search(at, filter)));
    for (const answer of answers) {
      pages++;
      const key = pageKey(answer.features);
      if (answer.features.length === 0 || key === previous) return;
      previous = key;
      pager.add(answer.features);
      if (answer.features.length < pageSize) return;
    }
  }
}

/** A finite, whole, non-negative `total`, or undefined: a server's count is not trusted to size anything. */
export function validTotal(total: number | undefined): number | undefined {
  return total !== undefined && Number.isSafeInteger(total) && total >= 0 ? total : undefined;
}

/** The search filter for flags of these projects (none: no filter). */
export function anyOf(projects: string[]): string | undefined {
  return projects.length ? `IS_ANY_OF:${projects.join(',')}` : undefined;
}

/** The search filter for flags outside these projects (none: no filter). */
export function noneOf(projects: string[]): string | undefined {
  return projects.length ? `IS_NONE_OF:${projects.join(',')}` : undefined;
}

function pageKey(rows: FeatureSummary[]): string {
  return rows.length ? `${projectOf(rows[0] as FeatureSummary)}\u0000${(rows[0] as FeatureSummary).name}\u0000${rows.length}` : '';
}
