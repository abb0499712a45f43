/**
 * zod schemas for every payload of the Unleash Admin API that the extension reads.
 *
 * Rules, so that a newer server never breaks the extension:
 * - fields the spec marks required are required; everything else is optional (or nullable where the spec says so);
 * - unknown fields are kept (`looseObject`), so an export written to disk holds whatever the server sent;
 * - nothing is transformed or defaulted: `validate()` (./validate.ts) answers for these schemas without zod's copy,
 *   and leaves a schema that changes its input (or strips fields) to zod;
 * - enumerations (operators, lifecycle stages, payload and flag types) are plain strings: an unknown value is data to
 *   show, not an error.
 */
import { z } from 'zod';

/** The operators the spec lists, plus REGEX (7.4.2+). Others are kept as they come. */
export const KNOWN_OPERATORS = [
  'IN', 'NOT_IN', 'STR_ENDS_WITH', 'STR_STARTS_WITH', 'STR_CONTAINS', 'NUM_EQ', 'NUM_GT', 'NUM_GTE', 'NUM_LT',
  'NUM_LTE', 'DATE_AFTER', 'DATE_BEFORE', 'SEMVER_EQ', 'SEMVER_GT', 'SEMVER_LT', 'REGEX',
] as const;

export const LIFECYCLE_STAGES = ['initial', 'pre-live', 'live', 'completed', 'archived'] as const;

const dateTime = z.string();

export const payloadSchema = z.looseObject({
  type: z.string(),
  value: z.string(),
});

export const overrideSchema = z.looseObject({
  contextName: z.string(),
  values: z.array(z.string()),
});

export const constraintSchema = z.looseObject({
  contextName: z.string(),
  operator: z.string(),
  caseInsensitive: z.boolean().optional(),
  inverted: z.boolean().optional(),
  values: z.array(z.string()).optional(),
  value: z.string().optional(),
});

/** A feature-level or environment-level variant. */
export const variantSchema = z.looseObject({
  name: z.string(),
  weight: z.number(),
  weightType: z.string().optional(),
  stickiness: z.string().optional(),
  payload: payloadSchema.optional(),
  overrides: z.array(overrideSchema).optional(),
});

export const strategyVariantSchema = z.looseObject({
  name: z.string(),
  weight: z.number().int(),
  weightType: z.string(),
  stickiness: z.string(),
  payload: payloadSchema.optional(),
});

/** Parameter values are strings in the spec; old servers stored numbers too, so those are accepted and shown. */
const parameterValue = z.union([z.string(), z.number(), z.boolean()]);

export const strategySchema = z.looseObject({
  id: z.string().optional(),
  name: z.string(),
  title: z.string().nullish(),
  disabled: z.boolean().nullish(),
  featureName: z.string().optional(),
  sortOrder: z.number().optional(),
  segments: z.array(z.number()).optional(),
  constraints: z.array(constraintSchema).optional(),
  variants: z.array(strategyVariantSchema).optional(),
  parameters: z.record(z.string(), parameterValue).optional(),
});

export const featureEnvironmentSchema = z.looseObject({
  name: z.string(),
  featureName: z.string().optional(),
  environment: z.string().optional(),
  type: z.string().optional(),
  enabled: z.boolean(),
  sortOrder: z.number().optional(),
  variantCount: z.number().optional(),
  strategies: z.array(strategySchema).optional(),
  variants: z.array(variantSchema).optional(),
  lastSeenAt: dateTime.nullish(),
  hasStrategies: z.boolean().optional(),
  hasEnabledStrategies: z.boolean().optional(),
});

export const tagSchema = z.looseObject({
  value: z.string(),
  type: z.string(),
});

export const tagWithVersionSchema = z.looseObject({
  version: z.number().int(),
  tag: tagSchema,
});

export const lifecycleSchema = z.looseObject({
  stage: z.string(),
  /** `kept` / `discarded` for a completed flag (a real server sends it; not in the spec). */
  status: z.string().nullish(),
  enteredStageAt: dateTime,
});

export const parentDependencySchema = z.looseObject({
  feature: z.string(),
  enabled: z.boolean().optional(),
  variants: z.array(z.string()).optional(),
});

/** Links are not in the spec; a real server sends them on a feature and in an export. */
export const featureLinkSchema = z.looseObject({
  id: z.string().optional(),
  url: z.string(),
  title: z.string().nullish(),
});

export const featureSchema = z.looseObject({
  name: z.string(),
  type: z.string().optional(),
  description: z.string().nullish(),
  archived: z.boolean().optional(),
  project: z.string().optional(),
  enabled: z.boolean().optional(),
  stale: z.boolean().optional(),
  favorite: z.boolean().optional(),
  impressionData: z.boolean().optional(),
  createdAt: dateTime.nullish(),
  archivedAt: dateTime.nullish(),
  /** Deprecated since v5; absent from 8.x. */
  lastSeenAt: dateTime.nullish(),
  environments: z.array(featureEnvironmentSchema).optional(),
  /** Deprecated; absent from 8.x. */
  variants: z.array(variantSchema).optional(),
  /** Deprecated since v5; element shape not given by the spec. */
  strategies: z.array(z.unknown()).optional(),
  tags: z.array(tagSchema).nullish(),
  children: z.array(z.string()).optional(),
  lifecycle: lifecycleSchema.nullish(),
  dependencies: z.array(parentDependencySchema).optional(),
  links: z.array(featureLinkSchema).optional(),
});

export const segmentSchema = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullish(),
  constraints: z.array(constraintSchema),
  usedInFeatures: z.number().int().nullish(),
  usedInProjects: z.number().int().nullish(),
  project: z.string().nullish(),
  createdBy: z.string().nullish(),
  createdAt: dateTime,
});

export const segmentsSchema = z.looseObject({
  segments: z.array(segmentSchema),
});

export const legalValueSchema = z.looseObject({
  value: z.string(),
  description: z.string().optional(),
});

export const contextFieldSchema = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  stickiness: z.boolean().optional(),
  sortOrder: z.number().int().optional(),
  createdAt: dateTime.nullish(),
  usedInFeatures: z.number().int().nullish(),
  usedInProjects: z.number().int().nullish(),
  legalValues: z.array(legalValueSchema).optional(),
});

export const featureTagSchema = z.looseObject({
  featureName: z.string(),
  tagType: z.string().optional(),
  tagValue: z.string(),
  type: z.string().optional(),
  value: z.string().optional(),
  createdByUserId: z.number().nullish(),
});

export const tagTypeSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  icon: z.string().nullish(),
});

export const exportedDependencySchema = z.looseObject({
  feature: z.string(),
  dependencies: z.array(parentDependencySchema),
});

/**
 * A segment's definition as an export file keeps it (`segmentDefinitions`, written by this extension: a server's
 * export names segments without their constraints). From the Admin API's segment listing.
 */
export const segmentDefinitionSchema = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullish(),
  project: z.string().nullish(),
  constraints: z.array(constraintSchema),
});

export const segmentListSchema = z.looseObject({
  segments: z.array(segmentDefinitionSchema),
});

/** The segments file this extension writes beside an export (`<file>.segments`, src/model/export/exportSegments.ts). */
export const segmentsFileSchema = z.looseObject({
  segmentDefinitions: z.array(segmentDefinitionSchema),
});

export const exportResultSchema = z.looseObject({
  features: z.array(featureSchema),
  featureStrategies: z.array(strategySchema),
  featureEnvironments: z.array(featureEnvironmentSchema).optional(),
  contextFields: z.array(contextFieldSchema).optional(),
  featureTags: z.array(featureTagSchema).optional(),
  segments: z.array(z.looseObject({ id: z.number(), name: z.string() })).optional(),
  tagTypes: z.array(tagTypeSchema),
  dependencies: z.array(exportedDependencySchema).optional(),
  links: z.array(z.looseObject({ feature: z.string(), links: z.array(featureLinkSchema) })).optional(),
  /** Added by this extension (files written before it have none). */
  segmentDefinitions: z.array(segmentDefinitionSchema).optional(),
});

// ---- Listing endpoints the tree and hovers need (not in the spec; shapes from the reference) ----

export const environmentSummarySchema = z.looseObject({
  name: z.string(),
  enabled: z.boolean(),
  type: z.string().optional(),
  sortOrder: z.number().optional(),
  variantCount: z.number().optional(),
  lastSeenAt: dateTime.nullish(),
  hasStrategies: z.boolean().optional(),
  hasEnabledStrategies: z.boolean().optional(),
});

/** One row of a feature listing: enough for the tree root and a hover, without reading the feature. */
export const featureSummarySchema = z.looseObject({
  name: z.string(),
  project: z.string().optional(),
  type: z.string().optional(),
  description: z.string().nullish(),
  stale: z.boolean().optional(),
  archived: z.boolean().optional(),
  archivedAt: dateTime.nullish(),
  createdAt: dateTime.nullish(),
  lastSeenAt: dateTime.nullish(),
  environments: z.array(environmentSummarySchema).optional(),
  tags: z.array(tagSchema).nullish(),
  lifecycle: lifecycleSchema.nullish(),
});

export const featureSearchSchema = z.looseObject({
  features: z.array(featureSummarySchema),
  total: z.number().optional(),
});

export const projectFeaturesSchema = z.looseObject({
  features: z.array(featureSummarySchema),
});

export const environmentSchema = z.looseObject({
  name: z.string(),
  type: z.string().optional(),
  enabled: z.boolean().optional(),
  sortOrder: z.number().optional(),
  protected: z.boolean().optional(),
});

export const environmentsSchema = z.looseObject({
  environments: z.array(environmentSchema),
});

export const projectsSchema = z.looseObject({
  projects: z.array(z.looseObject({ id: z.string(), name: z.string().optional() })),
});

export const tagTypesSchema = z.looseObject({
  tagTypes: z.array(tagTypeSchema),
});

export const uiConfigSchema = z.looseObject({
  version: z.string().optional(),
  environment: z.string().optional(),
  unleashUrl: z.string().optional(),
  baseUriPath: z.string().optional(),
  /**
   * `current.enterprise` is the version of an enterprise server, whatever its shape: only its presence is read. An
   * open-source server leaves it out.
   */
  versionInfo: z.looseObject({ current: z.looseObject({ oss: z.string().optional(), enterprise: z.unknown().optional() }).optional() }).optional(),
});

// ---- History and usage (shapes observed on 7.5.1 and 8.2.0: docs/unleash-api-notes.md) ----

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

export type Payload = z.infer<typeof payloadSchema>;
export type Override = z.infer<typeof overrideSchema>;
export type Constraint = z.infer<typeof constraintSchema>;
export type Variant = z.infer<typeof variantSchema>;
export type StrategyVariant = z.infer<typeof strategyVariantSchema>;
export type Strategy = z.infer<typeof strategySchema>;
export type FeatureEnvironment = z.infer<typeof featureEnvironmentSchema>;
export type Tag = z.infer<typeof tagSchema>;
export type TagWithVersion = z.infer<typeof tagWithVersionSchema>;
export type Lifecycle = z.infer<typeof lifecycleSchema>;
export type ParentDependency = z.infer<typeof parentDependencySchema>;
export type FeatureLink = z.infer<typeof featureLinkSchema>;
export type Feature = z.infer<typeof featureSchema>;
export type Segment = z.infer<typeof segmentSchema>;
export type SegmentDefinition = z.infer<typeof segmentDefinitionSchema>;
export type ContextField = z.infer<typeof contextFieldSchema>;
export type FeatureTag = z.infer<typeof featureTagSchema>;
export type TagType = z.infer<typeof tagTypeSchema>;
export type ExportResult = z.infer<typeof exportResultSchema>;
export type EnvironmentSummary = z.infer<typeof environmentSummarySchema>;
export type FeatureSummary = z.infer<typeof featureSummarySchema>;
export type Environment = z.infer<typeof environmentSchema>;
export type UiConfig = z.infer<typeof uiConfigSchema>;
export type FeatureEvent = z.infer<typeof featureEventSchema>;
export type FeatureMetricsRow = z.infer<typeof featureMetricsRowSchema>;
