/**
 * The search endpoint: one page of it, bounded in rows and bytes whatever the server says, and an archived flag found
 * by its exact name (the listing leaves archived flags out).
 */
import * as l10n from '@vscode/l10n';
import { parseAnswer, rowCount } from './answers';
import { ArchivedLookupError, SchemaError } from './errors';
import type { HttpClient } from './http';
import type { Call } from './httpOptions';
import { featureSearchSchema, type FeatureSummary } from './schemas';
import { SEARCH_PAGE, type ListingPage } from './searchPaging';

const SEARCH_PATH = '/api/admin/search/features';
/** Pages of search matches read to find one archived flag by name (each page a search request). */
const ARCHIVED_PAGES = 5;
/**
 * Bytes a search row may take on average: a page of 100 rows may be 3.2 MiB, far above what real rows take (a few
 * kB each), and small enough to parse without blocking the editor even when packed with the smallest rows.
 */
const SEARCH_ROW_BYTES = 32 * 1024;

/**
 * One page of the search, of at most `limit` rows: a server's answer is not trusted to be the size it was asked
 * for. The page may take `limit` rows of SEARCH_ROW_BYTES on average, and its rows are counted as they arrive: a
 * page holding more rows than asked is refused at the first row over, before any is parsed, checked or used.
 */
export async function searchPage(http: HttpClient, query: string, limit: number, call: Call): Promise<ListingPage> {
  const request = `GET ${SEARCH_PATH}`;
  const tooMany = () => new SchemaError(request, l10n.t('the server answered more than the {0} rows asked', limit));
  const response = await http.get(`${SEARCH_PATH}?${query}`, { ...call, maxBytes: limit * SEARCH_ROW_BYTES, rows: { max: limit, tooMany }, schema: 'featureSearch' });
  if (rowCount(response.body) > limit) throw tooMany();
  return parseAnswer(featureSearchSchema, response, request);
}

/**
 * The archived flag of exactly this name, if there is one: the search with `archived=IS:true`. Its `query` matches
 * parts of names and descriptions (`gone-17` also finds `gone-170`…), so the pages are read, at most ARCHIVED_PAGES of
 * them, until the exact name turns up or the matches end; a name with more matches is not known either way
 * (ArchivedLookupError).
 */
export async function findArchivedFeature(http: HttpClient, name: string, call: Call): Promise<FeatureSummary | undefined> {
  for (let page = 0; page < ARCHIVED_PAGES; page++) {
    const query = `archived=${encodeURIComponent('IS:true')}&query=${encodeURIComponent(name)}&limit=${SEARCH_PAGE}&offset=${page * SEARCH_PAGE}`;
    const { features, total } = await searchPage(http, query, SEARCH_PAGE, call);
    const found = features.find((feature) => feature.name === name);
    if (found) return { ...found, archived: true };
    const seen = page * SEARCH_PAGE + features.length;
    if (features.length < SEARCH_PAGE || total === undefined || seen >= total) return undefined;
  }
  throw new ArchivedLookupError(name, ARCHIVED_PAGES * SEARCH_PAGE);
}
