/**
 * A flag's activity as the server records it: its history a page at a time (the event search, or on a server without
 * it the deprecated per-flag endpoint, its newest 50 events only), and its evaluations per environment, application
 * and hour. Every answer is bounded in rows and bytes.
 */
import * as l10n from '@vscode/l10n';
import { eventSearchSchema, featureEventsSchema, featureMetricsSchema, type FeatureEvent, type FeatureMetricsRow } from './activitySchemas';
import { parseAnswer } from './answers';
import { NotFoundError, SchemaError } from './errors';
import type { HttpClient } from './http';
import type { Call } from './httpOptions';

/** One page of a flag's history, newest first. */
export interface EventPage {
  events: FeatureEvent[];
  /** How many events the server holds for the query, when it says. */
  total?: number;
  /** Read from the deprecated `GET /api/admin/events/:featureName` (its newest 50 only, no `label`/`summary`). */
  legacy?: boolean;
}

/** Largest page of events asked for (the server's own cap is 1,000; above it, it falls back to 50). */
const MAX_EVENT_PAGE = 100;
/** Bytes an event may take on average: a strategy event carries the whole strategy, before and after. */
const EVENT_BYTES = 64 * 1024;
/** At most this many hours of usage are asked for: up to 48 the server answers per hour. */
const MAX_USAGE_HOURS = 48;
/** Usage rows one answer may hold: the server caps applications at 100, per environment and hour. */
const MAX_USAGE_ROWS = 25_000;
const USAGE_BYTES = 4 * 1024 * 1024;

export class ActivityReader {
  /** The server has no event search (404): history comes from the deprecated per-flag endpoint. */
  private legacyEvents = false;

  constructor(private readonly http: HttpClient) {}

  /** A page of one flag's history, newest first: `GET /api/admin/search/events` filtered by flag and project. */
  async featureEvents(name: string, page: { project?: string; limit: number; offset: number }, call: Call = {}): Promise<EventPage> {
    const limit = Math.max(1, Math.min(MAX_EVENT_PAGE, Math.floor(page.limit)));
    const offset = Math.max(0, Math.floor(page.offset));
    const request = 'GET /api/admin/search/events';
    const project = page.project === undefined ? '' : `&project=${encodeURIComponent(`IS:${page.project}`)}`;
    const query = `feature=${encodeURIComponent(`IS:${name}`)}${project}&limit=${limit}&offset=${offset}`;
    if (!this.legacyEvents) {
      try {
        const response = await this.http.get(`/api/admin/search/events?${query}`, { ...call, maxBytes: limit * EVENT_BYTES, schema: 'eventSearch' });
        const result = parseAnswer(eventSearchSchema, response, request);
        if (result.events.length > limit) throw new SchemaError(request, l10n.t('the server answered more than the {0} rows asked', limit));
        return { events: result.events, total: result.total };
      } catch (error) {
        if (!(error instanceof NotFoundError) || error.answered) throw error;
        this.legacyEvents = true;
      }
    }
    const path = `/api/admin/events/${encodeURIComponent(name)}`;
    const response = await this.http.get(path, { ...call, maxBytes: MAX_EVENT_PAGE * EVENT_BYTES, schema: 'featureEvents' });
    const all = parseAnswer(featureEventsSchema, response, `GET ${path}`).events.filter(
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
    const path = `/api/admin/client-metrics/features/${encodeURIComponent(name)}/raw`;
    const response = await this.http.get(`${path}?hoursBack=${hours}`, { ...call, maxBytes: USAGE_BYTES, schema: 'featureMetrics' });
    const rows = parseAnswer(featureMetricsSchema, response, `GET ${path}`).data;
    if (rows.length > MAX_USAGE_ROWS) throw new SchemaError(`GET ${path}`, l10n.t('the server answered more than {0} rows', MAX_USAGE_ROWS));
    return rows;
  }
}
