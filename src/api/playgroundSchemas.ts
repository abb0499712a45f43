/**
 * zod schemas of what `POST /api/admin/playground/advanced` answers, the same on unleash-server 7.5.1 and 8.2.0
 * (docs/unleash-api-notes.md, "Playground"). Loose like schemas.ts: only what the server's specification requires and
 * the client reads is required, unknown fields are kept, nothing is transformed (validate.ts relies on it), and
 * enumerations (`evaluationStatus`, an `enabled` of "unknown", operators) are plain strings.
 */
import { z } from 'zod';
import { payloadSchema } from './schemas';

/** A constraint as evaluated: `values` (or `value` for single-value operators) and its `result`. */
const playgroundConstraintSchema = z.looseObject({
  contextName: z.string(),
  operator: z.string(),
  values: z.array(z.string()).optional(),
  value: z.string().optional(),
  inverted: z.boolean().optional(),
  caseInsensitive: z.boolean().optional(),
  result: z.boolean(),
});

const playgroundSegmentSchema = z.looseObject({
  id: z.number(),
  name: z.string(),
  result: z.boolean(),
  constraints: z.array(playgroundConstraintSchema),
});

/** The variant an evaluation (or a strategy's result) gives: `disabled` when none. */
const playgroundVariantSchema = z.looseObject({
  name: z.string(),
  enabled: z.boolean(),
  payload: payloadSchema.optional(),
});

/**
 * A strategy's result: `evaluationStatus` "complete" with `enabled` true or false; "incomplete" (a custom strategy the
 * server cannot run) or "unevaluated" (a disabled strategy) with `enabled` false or "unknown".
 */
const playgroundStrategyResultSchema = z.looseObject({
  evaluationStatus: z.string(),
  enabled: z.union([z.boolean(), z.string()]),
  variant: playgroundVariantSchema.nullish(),
});

const playgroundStrategySchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  title: z.string().nullish(),
  disabled: z.boolean().nullish(),
  parameters: z.looseObject({}).optional(),
  result: playgroundStrategyResultSchema,
  constraints: z.array(playgroundConstraintSchema),
  segments: z.array(playgroundSegmentSchema),
});

/** One flag in one environment for one combination of the context's values. */
const playgroundEvaluationSchema = z.looseObject({
  name: z.string(),
  projectId: z.string(),
  environment: z.string().optional(),
  /** The combination evaluated, as the server echoes it: `properties` flattened beside the other fields. */
  context: z.looseObject({}),
  isEnabled: z.boolean(),
  isEnabledInCurrentEnvironment: z.boolean(),
  hasUnsatisfiedDependency: z.boolean().optional(),
  variant: playgroundVariantSchema,
  strategies: z.looseObject({
    /** true, false, or "unknown" when a strategy could not be evaluated and none of the others is true. */
    result: z.union([z.boolean(), z.string()]),
    data: z.array(playgroundStrategySchema),
  }),
});

/** A flag with its evaluations, per environment in the order of the context's combinations. */
const playgroundFeatureSchema = z.looseObject({
  name: z.string(),
  projectId: z.string(),
  environments: z.record(z.string(), z.array(playgroundEvaluationSchema)),
});

/** `POST /api/admin/playground/advanced`. `warnings` names context fields left out (not strings). */
export const advancedPlaygroundSchema = z.looseObject({
  features: z.array(playgroundFeatureSchema),
  warnings: z
    .looseObject({
      invalidContextProperties: z.array(z.string()).optional(),
    })
    .optional(),
});

export type PlaygroundAnswer = z.infer<typeof advancedPlaygroundSchema>;
export type PlaygroundAnswerEvaluation = z.infer<typeof playgroundEvaluationSchema>;
export type PlaygroundAnswerStrategy = z.infer<typeof playgroundStrategySchema>;
export type PlaygroundAnswerConstraint = z.infer<typeof playgroundConstraintSchema>;
