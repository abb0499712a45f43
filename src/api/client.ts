/**
 * The Unleash Admin API client: the four operations of the spec, plus the listings, history and usage the tree and
 * hovers need. Every answer is checked against its zod schema (answers.ts); every failure is a typed error (errors.ts).
 */
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { ActivityReader, type EventPage } from './activityReader';
import type { FeatureMetricsRow } from './activitySchemas';
import { parseAnswer, rowCount } from './answers';
import { parseBaseUrl } from './baseUrl';
import { createDispatcher, type NetworkOptions } from './dispatcher';
import { NotFoundError } from './errors';
import { exportBody, emptyExport, onlyTagged, type ExportQuery } from './exportQuery';
import { exportResultSchema, type ExportResult } from './exportSchemas';
import { findArchivedFeature, searchPage } from './featureSearch';
import { HttpClient } from './http';
import type { Call, HttpOptions } from './httpOptions';
import { listAllFeatures } from './listing';
import type { ListingOptions, ListingResult } from './listingTypes';
import { tooManyFlags, type ListLimits } from './listLimits';
import { readPlayground, type PlaygroundLimits, type PlaygroundQuery } from './playground';
import type { PlaygroundResult } from './playgroundResult';
import { chooseProxy } from './proxy';
import {
  environmentsSchema,
  featureSchema,
  lifecycleStagesSchema,
  projectFeaturesSchema,
  projectsSchema,
  segmentListSchema,
  segmentsSchema,
  tagTypesSchema,
  tagWithVersionSchema,
  uiConfigSchema,
  type Environment,
  type Feature,
  type FeatureSummary,
  type Lifecycle,
  type Segment,
  type SegmentDefinition,
  type TagType,
  type TagWithVersion,
} from './schemas';
import type { StreamOptions } from './streamedBody';

export interface ClientOptions extends Omit<HttpOptions, 'baseUrl' | 'dispatcher' | 'proxy' | 'proxySource'> {
  /** The server URL as the user typed it; validated by parseBaseUrl. */
  baseUrl: string;
  network?: NetworkOptions;
  /** Overrides the pool built from `network` (tests). */
  dispatcher?: Dispatcher;
  /** Overrides LIST_LIMITS of listLimits.ts (tests). */
  listLimits?: Partial<ListLimits>;
  /** Overrides PLAYGROUND_LIMITS of playground.ts (tests). */
  playgroundLimits?: Partial<PlaygroundLimits>;
}

interface ServerInfo {
  version?: string;
  /** "Open Source", "Enterprise", … when the server says. */
  edition?: string;
}

const FEATURE_CACHE_SIZE = 200;
/** Bytes a flag's stage list may take (five stages take a few hundred). */
const STAGES_BYTES = 64 * 1024;

export class UnleashClient {
  readonly baseUrl: URL;
  private readonly http: HttpClient;
  private readonly dispatcher: Dispatcher;
  private readonly featureCache = new Map<string, { etag: string; feature: Feature }>();
  private readonly listLimits?: Partial<ListLimits>;
  private readonly playgroundLimits?: Partial<PlaygroundLimits>;
  private readonly activity: ActivityReader;

  constructor(options: ClientOptions) {
    this.baseUrl = parseBaseUrl(options.baseUrl);
    this.dispatcher = options.dispatcher ?? createDispatcher(this.baseUrl, options.network);
    this.listLimits = options.listLimits;
    this.playgroundLimits = options.playgroundLimits;
    const route = options.network ? chooseProxy(this.baseUrl, options.network) : undefined;
    this.http = new HttpClient({
      ...options,
      baseUrl: this.baseUrl,
      dispatcher: this.dispatcher,
      proxy: route?.kind === 'proxy' ? route.label : undefined,
      proxySource: route?.kind === 'proxy' ? route.source : undefined,
    });
    this.activity = new ActivityReader(this.http);
  }

  /** GET a feature of a project, with per-environment variants. Unchanged features come from a cache on 304. */
  async getFeature(project: string, name: string, call: Call = {}): Promise<Feature> {
    const path = `/api/admin/projects/${seg(project)}/features/${seg(name)}?variantEnvironments=true`;
    const cached = this.featureCache.get(path);
    const response = await this.http.get(path, { signal: call.signal, etag: cached?.etag, schema: 'feature' });
    if (response.status === 304 && cached) {
      this.remember(path, cached.etag, cached.feature);
      return cached.feature;
    }
    const feature = parseAnswer(featureSchema, response, 'GET feature');
    if (response.etag) this.remember(path, response.etag, feature);
    return feature;
  }

  /**
   * GET the stages a flag entered, each with when (in no order the extension relies on: a real server lists stages
   * entered in the same instant latest first). Small: a few stages, at most STAGES_BYTES.
   */
  async getStages(project: string, name: string, call: Call = {}): Promise<Lifecycle[]> {
    const response = await this.http.get(`/api/admin/projects/${seg(project)}/features/${seg(name)}/lifecycle`, { ...call, maxBytes: STAGES_BYTES });
    return parseAnswer(lifecycleStagesSchema, response, 'GET lifecycle stages');
  }

  /** GET a tag by type and value: the tag, or undefined when it does not exist. */
  async getTag(type: string, value: string, call: Call = {}): Promise<TagWithVersion | undefined> {
    try {
      const response = await this.http.get(`/api/admin/tags/${seg(type)}/${seg(value)}`, call);
      return parseAnswer(tagWithVersionSchema, response, 'GET tag');
    } catch (error) {
      if (error instanceof NotFoundError && error.answered) return undefined;
      throw error;
    }
  }

  /** GET the segments a strategy uses; an unknown strategy id gives an empty list, as the server does. */
  async getStrategySegments(strategyId: string, call: Call = {}): Promise<Segment[]> {
    const response = await this.http.get(`/api/admin/segments/strategies/${seg(strategyId)}`, { ...call, schema: 'strategySegments' });
    return parseAnswer(segmentsSchema, response, 'GET strategy segments').segments;
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
   * holding it: an export of any size (streamedBody.ts; `maxBytes` bounds it). The bytes are the server's JSON,
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
          return searchPage(this.http, `limit=${limit}&offset=${offset}&sortBy=name&sortOrder=asc${project}`, limit, { signal });
        },
        projectFeatures: async (project, signal, maxRows) => {
          const path = `/api/admin/projects/${seg(project)}/features`;
          const rows = maxRows === undefined ? undefined : { max: maxRows, tooMany: () => tooManyFlags(maxRows) };
          const response = await this.http.get(path, { signal, rows, schema: 'projectFeatures' });
          // Refused before its rows are checked one by one: the count alone says the project is too large.
          if (rows && rowCount(response.body) > rows.max) throw rows.tooMany();
          return parseAnswer(projectFeaturesSchema, response, `GET ${path}`).features;
        },
        projects: (signal) => this.listProjects({ signal }),
        openSource: (signal) => this.isOpenSource({ signal }),
        serverVersion: async (signal) => (await this.getServerInfo({ signal })).version,
      },
      { limits: this.listLimits, ...options },
    );
  }

  /** The archived flag of exactly this name, if there is one (featureSearch.ts); the listing leaves them out. */
  async findArchivedFeature(name: string, call: Call = {}): Promise<FeatureSummary | undefined> {
    return findArchivedFeature(this.http, name, call);
  }

  /**
   * A page of one flag's history, newest first: `GET /api/admin/search/events` filtered by flag and project. A
   * server without the search (404) answers from the deprecated per-flag endpoint, its newest 50 events only.
   */
  featureEvents(name: string, page: { project?: string; limit: number; offset: number }, call: Call = {}): Promise<EventPage> {
    return this.activity.featureEvents(name, page, call);
  }

  /** Evaluations of one flag in the last `hoursBack` hours (activityReader.ts). */
  featureUsage(name: string, hoursBack: number, call: Call = {}): Promise<FeatureMetricsRow[]> {
    return this.activity.featureUsage(name, hoursBack, call);
  }

  /**
   * Evaluates flags for a context through the server's playground (playground.ts): per flag, environment and
   * combination of the context's values, whether it is on and which strategy and constraint decided. Read-only; a
   * query past the server's limit is read in parts.
   */
  playground(query: PlaygroundQuery, call: Call = {}): Promise<PlaygroundResult> {
    return readPlayground(this.http, query, call, this.playgroundLimits);
  }

  /** Every segment with its constraints (one request; what the web UI reads to show segments). */
  async listSegments(call: Call = {}): Promise<SegmentDefinition[]> {
    const response = await this.http.get('/api/admin/segments', { ...call, schema: 'segmentList' });
    return parseAnswer(segmentListSchema, response, 'GET segments').segments;
  }

  async listEnvironments(call: Call = {}): Promise<Environment[]> {
    const response = await this.http.get('/api/admin/environments', call);
    return parseAnswer(environmentsSchema, response, 'GET environments').environments.sort(
      (a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0) || a.name.localeCompare(b.name),
    );
  }

  async listTagTypes(call: Call = {}): Promise<TagType[]> {
    const response = await this.http.get('/api/admin/tag-types', call);
    return parseAnswer(tagTypesSchema, response, 'GET tag types').tagTypes;
  }

  /** Projects the server lists. Open-source Unleash lists only `default`, whatever exists. */
  async listProjects(call: Call = {}): Promise<string[]> {
    const response = await this.http.get('/api/admin/projects', call);
    return parseAnswer(projectsSchema, response, 'GET projects').projects.map((project) => project.id);
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
    return parseAnswer(uiConfigSchema, await this.http.get('/api/admin/ui-config', call), 'GET ui-config');
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  private async postExport(body: Record<string, unknown>, call: Call): Promise<ExportResult> {
    const response = await this.http.post('/api/admin/features-batch/export', body, call);
    return parseAnswer(exportResultSchema, response, 'POST export');
  }

  private remember(path: string, etag: string, feature: Feature): void {
    this.featureCache.delete(path);
    this.featureCache.set(path, { etag, feature });
    if (this.featureCache.size > FEATURE_CACHE_SIZE) {
      this.featureCache.delete(this.featureCache.keys().next().value as string);
    }
  }
}

/** One path segment, percent-encoded: tag values and flag names may hold any character. */
function seg(value: string): string {
  return encodeURIComponent(value);
}
