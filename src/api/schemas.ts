/**
 * zod schemas of the flags, strategies, segments and listings the Admin API answers (exports: exportSchemas.ts, history
 * and usage: activitySchemas.ts). So that a newer server never breaks the extension, only what the spec requires is
 * required, unknown fields are kept, nothing is transformed (validate.ts relies on it), enumerations are plain strings.
 */
import { z } from 'zod';

/** An ISO 8601 date and time, as the server writes it (kept as text). */
export const dateTime = z.string();

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

/** `GET /api/admin/projects/:project/features/:name/lifecycle`: every stage the flag entered, with when. */
export const lifecycleStagesSchema = z.array(lifecycleSchema);

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

export const tagTypeSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  icon: z.string().nullish(),
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
export type TagType = z.infer<typeof tagTypeSchema>;
export type EnvironmentSummary = z.infer<typeof environmentSummarySchema>;
export type FeatureSummary = z.infer<typeof featureSummarySchema>;
export type Environment = z.infer<typeof environmentSchema>;
