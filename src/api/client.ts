/**
 * The Unleash Admin API client: the four operations of the spec, plus the listings the tree and hovers need.
 * Every answer is checked against its zod schema (./validate: zod's verdict, without its copy); every failure is a
 * typed error from ./errors. Imports nothing from 'vscode'.
 */
import * as l10n from '@vscode/l10n';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { parseBaseUrl } from './baseUrl';
import { createDispatcher, type NetworkOptions } from './dispatcher';
import { chooseProxy } from './proxy';
import { ArchivedLookupError, NotFoundError, SchemaError } from './errors';
import { HttpClient, type HttpOptions, type JsonResponse } from './http';
import type { StreamOptions } from './streamedBody';
import { validate } from './validate';
import { listAllFeatures, SEARCH_PAGE, type ListingOptions, type ListingResult } from './listing';
import { tooManyFlags, type ListLimits } from './listLimits';
import type { ListingPage } from './searchPaging';
import {
  environmentsSchema,
  eventSearchSchema,
  exportResultSchema,
  featureEventsSchema,
  featureMetricsSchema,
  featureSchema,
  featureSearchSchema,
  projectFeaturesSchema,
  projectsSchema,
  segmentListSchema,
  segmentsSchema,
  tagTypesSchema,
  tagWithVersionSchema,
  uiConfigSchema,
  type Environment,
  type ExportResult,
  type Feature,
  type FeatureEvent,
  type FeatureMetricsRow,
  type FeatureSummary,
  type Segment,
  type SegmentDefinition,
  type TagType,
  type TagWithVersion,
} from './schemas';

export interface ClientOptions extends Omit<HttpOptions, 'baseUrl' | 'dispatcher' | 'proxy' | 'proxySource'> {
  /** The server URL as the user typed it; validated by parseBaseUrl. */
  baseUrl: string;
  network?: NetworkOptions;
  /** Overrides the pool built from `network` (tests). */
  dispatcher?: Dispatcher;
  /** Overrides LIST_LIMITS of listLimits.ts (tests). */
  listLimits?: Partial<ListLimits>;
}

export interface Call {
  signal?: AbortSignal;
}

/** Which flags an export covers. A tag is `type:value`, matched exactly. */
export type ExportScope =
  | { kind: 'all' }
  | { kind: 'features'; names: string[] }
  | { kind: 'project'; project: string }
  | { kind: 'tag'; type: string; value: string };

export interface ExportQuery {
  environment: string;
  scope: ExportScope;
}

export interface ServerInfo {
  version?: string;
  /** "Open Source", "Enterprise", … when the server says. */
  edition?: string;
}

/** One page of a flag's history, newest first. */
export interface EventPage {
  events: FeatureEvent[];
  /** How many events the server holds for the query, when it says. */
  total?: number;
  /** Read from the deprecated `GET /api/admin/events/:featureName` (its newest 50 only, no `label`/`summary`). */
  legacy?: boolean;
}

/** Largest page of events asked for (the server's own cap is 1,000; above it, it falls back to 50). */
export const MAX_EVENT_PAGE = 100;
/** Bytes an event may take on average: a strategy event carries the whole strategy, before and after. */
const EVENT_BYTES = 64 * 1024;
/** At most this many hours of usage are asked for: up to 48 the server answers per hour. */
export const MAX_USAGE_HOURS = 48;
/** Usage rows one answer may hold: the server caps applications at 100, per environment and hour. */
const MAX_USAGE_ROWS = 25_000;
const USAGE_BYTES = 4 * 1024 * 1024;

const FEATURE_CACHE_SIZE = 200;
const SEARCH_PATH = '/api/admin/search/features';
/** Pages of search matches read to find one archived flag by name (each page a search request). */
const ARCHIVED_PAGES = 5;
/**
 * Bytes a search row may take on average: a page of 100 rows may be 3.2 MiB, far above what real rows take (a few
 * kB each), and small enough to parse without blocking the editor even when packed with the smallest rows.
 */
const SEARCH_ROW_BYTES = 32 * 1024;

export class UnleashClient {
  readonly baseUrl: URL;
  private readonly http: HttpClient;
  private readonly dispatcher: Dispatcher;
  private readonly featureCache = new Map<string, { etag: string; feature: Feature }>();
  private readonly listLimits?: Partial<ListLimits>;
  /** The server has no event search (404): history comes from the deprecated per-flag endpoint. */
  private legacyEvents = false;

  constructor(options: ClientOptions) {
    this.baseUrl = parseBaseUrl(options.baseUrl);
    this.dispatcher = options.dispatcher ?? createDispatcher(this.baseUrl, options.network);
    this.listLimits = options.listLimits;
    const route = options.network ? chooseProxy(this.baseUrl, options.network) : undefined;
    this.http = new HttpClient({
      ...options,
      baseUrl: this.baseUrl,
      dispatcher: this.dispatcher,
      proxy: route?.kind === 'proxy' ? route.label : undefined,
      proxySource: route?.kind === 'proxy' ? route.source : undefined,
    });
  }

  /** GET a feature of a project, with per-environment variants. Unchanged features come from a cache on 304. */
  async getFeature(project: string, name: string, call: Call = {}): Promise<Feature> {
    const path = `/api/admin/projects/${seg(project)}/features/${seg(name)}?variantEnvironments=true`;
    const cached = this.featureCache.get(path);
    const response = await this.http.get(path, { signal: call.signal, etag: cached?.etag });
    if (response.status === 304 && cached) {
      this.remember(path, cached.etag, cached.feature);
      return cached.feature;
    }
    const feature = parse(featureSchema, response, 'GET feature');
    if (response.etag) this.remember(path, response.etag, feature);
    return feature;
  }

  /** GET a tag by type and value: the tag, or undefined when it does not exist. */
  async getTag(type: string, value: string, call: Call = {}): Promise<TagWithVersion | undefined> {
    try {
      const response = await this.http.get(`/api/admin/tags/${seg(type)}/${seg(value)}`, call);
      return parse(tagWithVersionSchema, response, 'GET tag');
    } catch (error) {
      if (error instanceof NotFoundError && isAnswerNotFound(error)) return undefined;
      throw error;
    }
  }

  /** GET the segments a strategy uses; an unknown strategy id gives an empty list, as the server does. */
  async getStrategySegments(strategyId: string, call: Call = {}): Promise<Segment[]> {
    const response = await this.http.get(`/api/admin/segments/strategies/${seg(strategyId)}`, call);
    return parse(segmentsSchema, response, 'GET strategy segments').segments;
  }

  /**
   * POST an export of one environment. Never retried and never used for listing: every export stores an audit
   * event with its whole payload on the server.
   *
   * A real server matches `tag` against the tag value only, whatever its type; when that brings in flags with the
   * same value under another tag type, the export is repeated for exactly the flags carrying `type:value`.
   */
  async exportFeatures(query: ExportQuery, call: Call = {}): Promise<ExportResult> {
    const body = exportBody(query);
    if (!body) return emptyExport();
    const result = await this.postExport(body, call);
    if (query.scope.kind !== 'tag') return result;
    const rows = (result.featureTags ?? []).map((tag) => ({ featureName: tag.featureName, type: tag.tagType ?? tag.type, value: tag.tagValue }));
    const names = onlyTagged(query.scope, result.features.map((feature) => feature.name), rows);
    if (!names) return result;
    return names.length ? this.postExport({ ...body, tag: undefined, features: names }, call) : emptyExport();
  }

  /**
   * POST an export of one environment and hand its answer to `onBytes` as it arrives (the token removed), never
   * holding it: an export of any size (http.ts `postStream`; `maxBytes` bounds it). The bytes are the server's JSON,
   * unchecked: the caller reads and checks them. For a tag scope the caller checks the tags (`onlyTagged`) and asks
   * again for the flags it names. Never retried.
   */
  async streamExport(query: ExportQuery, onBytes: StreamOptions['onBytes'], call: Call & Pick<StreamOptions, 'maxBytes' | 'measureUpTo'>): Promise<number> {
    const body = exportBody(query);
    if (!body) {
      const empty = Buffer.from(JSON.stringify(emptyExport()), 'utf8');
      await onBytes(empty);
      return empty.length;
    }
    return this.http.postStream('/api/admin/features-batch/export', body, { ...call, onBytes });
  }

  /**
   * Lists features with their per-environment summary, the fastest complete way the server offers (listing.ts):
   * per project where it can, the search for the rest and to know the total. `projects` narrows the listing (empty
   * means all); `onRows` sees the rows as they arrive.
   */
  async listFeatures(options: Omit<ListingOptions, 'signal'> & Call = {}): Promise<FeatureSummary[]> {
    return (await this.listing(options)).features;
  }

  /** listFeatures, with how the rows were read (total, method, requests) for the log and the benchmarks. */
  listing(options: Omit<ListingOptions, 'signal'> & Call = {}): Promise<ListingResult> {
    return listAllFeatures(
      {
        searchPage: async (offset, limit, filter, signal) => {
          const project = filter ? `&project=${encodeURIComponent(filter)}` : '';
          return this.searchPage(`limit=${limit}&offset=${offset}&sortBy=name&sortOrder=asc${project}`, limit, { signal });
        },
        projectFeatures: async (project, signal, maxRows) => {
          const path = `/api/admin/projects/${seg(project)}/features`;
          const rows = maxRows === undefined ? undefined : { max: maxRows, tooMany: () => tooManyFlags(maxRows) };
          const response = await this.http.get(path, { signal, rows });
          // Refused before its rows are checked one by one: the count alone says the project is too large.
          if (rows && rowCount(response.body) > rows.max) throw rows.tooMany();
          return parse(projectFeaturesSchema, response, `GET ${path}`).features;
        },
        projects: (signal) => this.listProjects({ signal }),
        openSource: (signal) => this.isOpenSource({ signal }),
      },
      { limits: this.listLimits, ...options },
    );
  }

  /**
   * The archived flag of exactly this name, if there is one (the listing leaves archived flags out): the search
   * endpoint with `archived=IS:true`. Its `query` matches parts of names and descriptions (`gone-17` also finds
   * `gone-170`…), so the pages are read, at most ARCHIVED_PAGES of them, until the exact name turns up or the
   * matches end; a name with more matches than that is not known either way (ArchivedLookupError).
   */
  async findArchivedFeature(name: string, call: Call = {}): Promise<FeatureSummary | undefined> {
    for (let page = 0; page < ARCHIVED_PAGES; page++) {
      const query = `archived=${encodeURIComponent('IS:true')}&query=${encodeURIComponent(name)}&limit=${SEARCH_PAGE}&offset=${page * SEARCH_PAGE}`;
      const { features, total } = await this.searchPage(query, SEARCH_PAGE, call);
      const found = features.find((feature) => feature.name === name);
      if (found) return { ...found, archived: true };
      const seen = page * SEARCH_PAGE + features.length;
      if (features.length < SEARCH_PAGE || total === undefined || seen >= total) return undefined;
    }
    throw new ArchivedLookupError(name, ARCHIVED_PAGES * SEARCH_PAGE);
  }

  /**
   * A page of one flag's history, newest first: `GET /api/admin/search/events` filtered by flag and project. A
   * server without the search (404) answers from the deprecated per-flag endpoint, its newest 50 events only.
   */
  async featureEvents(name: string, page: { project?: string; limit: number; offset: number }, call: Call = {}): Promise<EventPage> {
    const limit = Math.max(1, Math.min(MAX_EVENT_PAGE, Math.floor(page.limit)));
    const offset = Math.max(0, Math.floor(page.offset));
    const request = 'GET /api/admin/search/events';
    const project = page.project === undefined ? '' : `&project=${encodeURIComponent(`IS:${page.project}`)}`;
    const query = `feature=${encodeURIComponent(`IS:${name}`)}${project}&limit=${limit}&offset=${offset}`;
    if (!this.legacyEvents) {
      try {
        const response = await this.http.get(`/api/admin/search/events?${query}`, { ...call, maxBytes: limit * EVENT_BYTES });
        const result = parse(eventSearchSchema, response, request);
        if (result.events.length > limit) throw new SchemaError(request, l10n.t('the server answered more than the {0} rows asked', limit));
        return { events: result.events, total: result.total };
      } catch (error) {
        if (!(error instanceof NotFoundError) || isAnswerNotFound(error)) throw error;
        this.legacyEvents = true;
      }
    }
    const path = `/api/admin/events/${seg(name)}`;
    const response = await this.http.get(path, { ...call, maxBytes: MAX_EVENT_PAGE * EVENT_BYTES });
    const all = parse(featureEventsSchema, response, `GET ${path}`).events.filter(
      (event) => page.project === undefined || event.project === undefined || event.project === null || event.project === page.project,
    );
    return { events: all.slice(offset, offset + limit), total: all.length, legacy: true };
  }

  /**
   * Evaluations of one flag in the last `hoursBack` hours (1 to MAX_USAGE_HOURS), per environment, application and
   * hour, with zero rows for the quiet hours: `GET /api/admin/client-metrics/features/:name/raw`.
   */
  async featureUsage(name: string, hoursBack: number, call: Call = {}): Promise<FeatureMetricsRow[]> {
    const hours = Math.max(1, Math.min(MAX_USAGE_HOURS, Math.floor(hoursBack)));
    const path = `/api/admin/client-metrics/features/${seg(name)}/raw`;
    const response = await this.http.get(`${path}?hoursBack=${hours}`, { ...call, maxBytes: USAGE_BYTES });
    const rows = parse(featureMetricsSchema, response, `GET ${path}`).data;
    if (rows.length > MAX_USAGE_ROWS) throw new SchemaError(`GET ${path}`, l10n.t('the server answered more than {0} rows', MAX_USAGE_ROWS));
    return rows;
  }

  /** Every segment with its constraints (one request; what the web UI reads to show segments). */
  async listSegments(call: Call = {}): Promise<SegmentDefinition[]> {
    const response = await this.http.get('/api/admin/segments', call);
    return parse(segmentListSchema, response, 'GET segments').segments;
  }

  async listEnvironments(call: Call = {}): Promise<Environment[]> {
    const response = await this.http.get('/api/admin/environments', call);
    return parse(environmentsSchema, response, 'GET environments').environments.sort(
      (a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0) || a.name.localeCompare(b.name),
    );
  }

  async listTagTypes(call: Call = {}): Promise<TagType[]> {
    const response = await this.http.get('/api/admin/tag-types', call);
    return parse(tagTypesSchema, response, 'GET tag types').tagTypes;
  }

  /** Projects the server lists. Open-source Unleash lists only `default`, whatever exists. */
  async listProjects(call: Call = {}): Promise<string[]> {
    const response = await this.http.get('/api/admin/projects', call);
    return parse(projectsSchema, response, 'GET projects').projects.map((project) => project.id);
  }

  /** The server's version; needs a token that can read the Admin API, so it doubles as a connection test. */
  async getServerInfo(call: Call = {}): Promise<ServerInfo> {
    const config = await this.uiConfig(call);
    return { version: config.version ?? config.versionInfo?.current?.oss, edition: config.environment };
  }

  /** Open-source Unleash: its ui-config says so and names no enterprise version. Its project list is `default` alone. */
  private async isOpenSource(call: Call): Promise<boolean> {
    const config = await this.uiConfig(call);
    return config.environment === 'Open Source' && !config.versionInfo?.current?.enterprise;
  }

  private async uiConfig(call: Call): Promise<z.infer<typeof uiConfigSchema>> {
    return parse(uiConfigSchema, await this.http.get('/api/admin/ui-config', call), 'GET ui-config');
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  /**
   * One page of the search, of at most `limit` rows: a server's answer is not trusted to be the size it was asked
   * for. The page may take `limit` rows of SEARCH_ROW_BYTES on average, and its rows are counted as they arrive: a
   * page holding more rows than asked is refused at the first row over, before any is parsed, checked or used.
   */
  private async searchPage(query: string, limit: number, call: Call): Promise<ListingPage> {
    const request = `GET ${SEARCH_PATH}`;
    const tooMany = () => new SchemaError(request, l10n.t('the server answered more than the {0} rows asked', limit));
    const response = await this.http.get(`${SEARCH_PATH}?${query}`, { ...call, maxBytes: limit * SEARCH_ROW_BYTES, rows: { max: limit, tooMany } });
    if (rowCount(response.body) > limit) throw tooMany();
    return parse(featureSearchSchema, response, request);
  }

  private async postExport(body: Record<string, unknown>, call: Call): Promise<ExportResult> {
    const response = await this.http.post('/api/admin/features-batch/export', body, call);
    return parse(exportResultSchema, response, 'POST export');
  }

  private remember(path: string, etag: string, feature: Feature): void {
    this.featureCache.delete(path);
    this.featureCache.set(path, { etag, feature });
    if (this.featureCache.size > FEATURE_CACHE_SIZE) {
      this.featureCache.delete(this.featureCache.keys().next().value as string);
    }
  }
}

/** Parses an answer, turning a mismatch into a SchemaError naming the first field that did not match. */
function parse<S extends z.ZodType>(schema: S, response: JsonResponse, request: string): z.infer<S> {
  const result = validate(schema, response.body);
  if (result.success) return result.data;
  throw schemaIssueError(request, result.error.issues[0]);
}

/** The SchemaError for zod's first issue with an answer (`prefix`: where the value checked sits in the answer). */
export function schemaIssueError(request: string, issue: z.core.$ZodIssue | undefined, prefix: readonly PropertyKey[] = []): SchemaError {
  const path = [...prefix, ...(issue?.path ?? [])].map(String).join('.');
  return new SchemaError(request, issue ? issue.message.replace(/^Invalid input: /, '') : l10n.t('does not match'), path || '(root)');
}

/** How many rows an answer's `features` holds, before any of them is checked. */
function rowCount(body: unknown): number {
  const features = typeof body === 'object' && body !== null ? (body as { features?: unknown }).features : undefined;
  return Array.isArray(features) ? features.length : 0;
}

/** A 404 that answers the question (Unleash's own JSON error), not one from a wrong URL or a proxy. */
function isAnswerNotFound(error: NotFoundError): boolean {
  return Boolean(error.serverMessage) && !/path you were looking for/i.test(error.serverMessage ?? '');
}

/** One path segment, percent-encoded: tag values and flag names may hold any character. */
function seg(value: string): string {
  return encodeURIComponent(value);
}

/** The export request's body for a query; undefined when the query names no flag (the export is empty). */
function exportBody(query: ExportQuery): Record<string, unknown> | undefined {
  const { environment, scope } = query;
  const base = { environment, downloadFile: true };
  switch (scope.kind) {
    case 'all':
      return { ...base, features: [] };
    case 'features':
      return scope.names.length ? { ...base, features: scope.names } : undefined;
    case 'project':
      return { ...base, project: scope.project };
    case 'tag':
      return { ...base, tag: scope.value };
  }
}

/**
 * A real server exports a tag scope by the tag's value alone, whatever its type. Given the flags an export holds and
 * its tag rows: undefined when every flag carries exactly `type:value`, else the flags that do (sorted; maybe none),
 * to export instead.
 */
export function onlyTagged(
  tag: { type: string; value: string },
  features: readonly string[],
  rows: ReadonlyArray<{ featureName: string; type?: string; value: string }>,
): string[] | undefined {
  const tagged = new Set(rows.filter((row) => row.type === tag.type && row.value === tag.value).map((row) => row.featureName));
  return features.every((name) => tagged.has(name)) ? undefined : [...tagged].sort();
}

function emptyExport(): ExportResult {
  return { features: [], featureStrategies: [], featureEnvironments: [], featureTags: [], tagTypes: [] };
}
