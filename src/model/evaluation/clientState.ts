/**
 * The client API's state (`GET /api/client/features`: `features[]` with their strategies, variants and dependencies,
 * and the top-level `segments[]`), the form Unleash's client specification is written in, checked with zod and
 * turned into the engine's model: one environment, named by the caller.
 */
import { z } from 'zod';
import { constraintSchema, overrideSchema, parentDependencySchema, payloadSchema } from '../../api/schemas';
import type { EvaluationModel, FlagModel, SegmentModel } from './model';
import { segmentModel, strategyModel, variantModel } from './schemaModel';

const clientVariantSchema = z.looseObject({
  name: z.string(),
  weight: z.number(),
  stickiness: z.string().nullish(),
  payload: payloadSchema.nullish(),
  overrides: z.array(overrideSchema).nullish(),
});

const clientStrategySchema = z.looseObject({
  name: z.string(),
  title: z.string().nullish(),
  disabled: z.boolean().nullish(),
  sortOrder: z.number().nullish(),
  parameters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullish(),
  constraints: z.array(constraintSchema).nullish(),
  segments: z.array(z.number()).nullish(),
  variants: z.array(clientVariantSchema).nullish(),
});

const clientStateSchema = z.looseObject({
  features: z.array(
    z.looseObject({
      name: z.string(),
      enabled: z.boolean(),
      strategies: z.array(clientStrategySchema).nullish(),
      variants: z.array(clientVariantSchema).nullish(),
      dependencies: z.array(parentDependencySchema).nullish(),
    }),
  ),
  segments: z.array(z.looseObject({ id: z.number(), name: z.string().nullish(), constraints: z.array(constraintSchema) })).nullish(),
});

/** The model of a client API state, its flags in `environment`; throws zod's error for a state of another shape. */
export function modelOfClientState(state: unknown, environment: string): EvaluationModel {
  const parsed = clientStateSchema.parse(state);
  const flags = new Map<string, FlagModel>();
  for (const feature of parsed.features) {
    if (flags.has(feature.name)) continue;
    flags.set(feature.name, {
      name: feature.name,
      dependencies: (feature.dependencies ?? []).map((parent) => ({ feature: parent.feature, enabled: parent.enabled !== false, variants: parent.variants ?? [] })),
      environments: new Map([
        [
          environment,
          {
            enabled: feature.enabled,
            strategies: (feature.strategies ?? []).map(strategyModel),
            variants: (feature.variants ?? []).map(variantModel),
            strategyOrderKnown: true,
          },
        ],
      ]),
    });
  }
  const segments = new Map<number, SegmentModel>((parsed.segments ?? []).map((segment) => [segment.id, segmentModel(segment)]));
  return { flags, segments, environments: [environment] };
}
