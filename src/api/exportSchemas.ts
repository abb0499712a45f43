/** zod schemas of an export: the server's answer, and the segments file this extension writes beside it (see schemas.ts). */
import { z } from 'zod';
import {
  dateTime,
  featureEnvironmentSchema,
  featureLinkSchema,
  featureSchema,
  parentDependencySchema,
  segmentDefinitionSchema,
  strategySchema,
  tagTypeSchema,
} from './schemas';

const legalValueSchema = z.looseObject({
  value: z.string(),
  description: z.string().optional(),
});

const contextFieldSchema = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  stickiness: z.boolean().optional(),
  sortOrder: z.number().int().optional(),
  createdAt: dateTime.nullish(),
  usedInFeatures: z.number().int().nullish(),
  usedInProjects: z.number().int().nullish(),
  legalValues: z.array(legalValueSchema).optional(),
});

const featureTagSchema = z.looseObject({
  featureName: z.string(),
  tagType: z.string().optional(),
  tagValue: z.string(),
  type: z.string().optional(),
  value: z.string().optional(),
  createdByUserId: z.number().nullish(),
});

const exportedDependencySchema = z.looseObject({
  feature: z.string(),
  dependencies: z.array(parentDependencySchema),
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

export type ExportResult = z.infer<typeof exportResultSchema>;
