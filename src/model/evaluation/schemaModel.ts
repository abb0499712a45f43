/**
 * The parts both sources share, turned into the engine's model (model.ts): a constraint, a variant and a strategy as
 * the Admin API's schemas (api/schemas.ts) hold them, which the client API's state also matches.
 */
import type { Constraint, Override, Payload } from '../../api/schemas';
import type { ConstraintModel, SegmentModel, StrategyModel, VariantModel } from './model';

/** A variant of either kind (a flag's, a strategy's), as far as the engine reads it. */
interface VariantInput {
  name: string;
  weight: number;
  stickiness?: string | null;
  payload?: Payload | null;
  overrides?: Override[] | null;
}

/** A strategy as far as the engine reads it. */
interface StrategyInput {
  name: string;
  title?: string | null;
  disabled?: boolean | null;
  sortOrder?: number | null;
  parameters?: Record<string, string | number | boolean> | null;
  constraints?: Constraint[] | null;
  segments?: number[] | null;
  variants?: VariantInput[] | null;
}

function constraintModel(constraint: Constraint): ConstraintModel {
  return {
    contextName: constraint.contextName,
    operator: constraint.operator,
    values: constraint.values ?? [],
    value: constraint.value,
    inverted: constraint.inverted === true,
    caseInsensitive: constraint.caseInsensitive === true,
  };
}

export function variantModel(variant: VariantInput): VariantModel {
  return {
    name: variant.name,
    weight: variant.weight,
    stickiness: variant.stickiness ?? undefined,
    payload: variant.payload ? { type: variant.payload.type, value: variant.payload.value } : undefined,
    overrides: (variant.overrides ?? []).map((override) => ({ contextName: override.contextName, values: override.values })),
  };
}

export function strategyModel(strategy: StrategyInput): StrategyModel {
  const parameters = new Map<string, string>();
  for (const [name, value] of Object.entries(strategy.parameters ?? {})) parameters.set(name, String(value));
  return {
    name: strategy.name,
    title: strategy.title ?? undefined,
    disabled: strategy.disabled === true,
    parameters,
    constraints: (strategy.constraints ?? []).map(constraintModel),
    segments: strategy.segments ?? [],
    variants: (strategy.variants ?? []).map(variantModel),
  };
}

export function segmentModel(segment: { id: number; name?: string | null; constraints: Constraint[] }): SegmentModel {
  return { id: segment.id, name: segment.name ?? undefined, constraints: segment.constraints.map(constraintModel) };
}
