/**
 * The schemas of the answers that can be large (a listing, a search page, a flag's details, its history and usage,
 * segments, a playground evaluation), by name: a worker checks a large answer against one of them as it parses it (HttpOptions.parseLarge),
 * so that neither the parse nor the check of 64 MB runs on the extension host's thread.
 */
import { eventSearchSchema, featureEventsSchema, featureMetricsSchema } from './activitySchemas';
import { advancedPlaygroundSchema } from './playgroundSchemas';
import { featureSchema, featureSearchSchema, projectFeaturesSchema, segmentListSchema, segmentsSchema } from './schemas';

export const ANSWER_SCHEMAS = {
  feature: featureSchema,
  projectFeatures: projectFeaturesSchema,
  featureSearch: featureSearchSchema,
  strategySegments: segmentsSchema,
  segmentList: segmentListSchema,
  eventSearch: eventSearchSchema,
  featureEvents: featureEventsSchema,
  featureMetrics: featureMetricsSchema,
  playground: advancedPlaygroundSchema,
} as const;

export type AnswerSchemaName = keyof typeof ANSWER_SCHEMAS;

/** A large answer as parsed away from the host's thread: its body (checked, when a schema was named) or the first issue. */
export interface LargeAnswer {
  body: unknown;
  issue?: AnswerIssue;
}

/** Where an answer does not match its schema, and why (zod's first issue). */
interface AnswerIssue {
  path: PropertyKey[];
  message: string;
}

/** The schema an answer was checked against where it was parsed, and zod's first issue when it did not match. */
export interface CheckedAnswer {
  schema: AnswerSchemaName;
  issue?: AnswerIssue;
}
