/** zod schemas of a flag's history (events) and usage (metrics), as 7.5.1 and 8.2.0 answer them (see schemas.ts). */
import { z } from 'zod';
import { dateTime } from './schemas';

/**
 * One event of the event log. `data` / `preData` hold what the change wrote (a strategy, a tag…), of a shape per
 * type; `label` / `summary` are markdown the server writes around user-written names (search endpoint only).
 */
export const featureEventSchema = z.looseObject({
  id: z.number().optional(),
  type: z.string(),
  createdBy: z.string().nullish(),
  createdAt: dateTime,
  featureName: z.string().nullish(),
  project: z.string().nullish(),
  environment: z.string().nullish(),
  data: z.unknown().optional(),
  preData: z.unknown().optional(),
  label: z.string().nullish(),
  summary: z.string().nullish(),
});

/** `GET /api/admin/search/events`. */
export const eventSearchSchema = z.looseObject({
  events: z.array(featureEventSchema),
  total: z.number().optional(),
});

/** `GET /api/admin/events/:featureName` (deprecated; its newest 50 events). */
export const featureEventsSchema = z.looseObject({
  events: z.array(featureEventSchema),
  totalEvents: z.number().optional(),
});

/** One application's evaluations of a flag in one environment and hour. */
export const featureMetricsRowSchema = z.looseObject({
  timestamp: dateTime,
  environment: z.string(),
  appName: z.string().optional(),
  yes: z.number(),
  no: z.number(),
  /** Variant name → evaluations. The counts are checked where they are summed (usageSummary.ts), not here: a record
   * of numbers would be checked by zod row by row, too slow for an answer of 25,000 rows. */
  variants: z.looseObject({}).optional(),
});

/** `GET /api/admin/client-metrics/features/:name/raw`. */
export const featureMetricsSchema = z.looseObject({
  data: z.array(featureMetricsRowSchema),
});

export type FeatureEvent = z.infer<typeof featureEventSchema>;
export type FeatureMetricsRow = z.infer<typeof featureMetricsRowSchema>;
