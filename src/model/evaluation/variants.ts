/**
 * Choosing a variant as the SDKs do: an override that names the context's value wins; otherwise the stickiness
 * value's bucket among the weights (hashing.ts). With nothing to stick to, the SDKs draw at random: the answer is then
 * known only when a single variant can be drawn.
 */
import { variantBucket } from './hashing';
import type { VariantModel } from './model';
import type { PreparedContext } from './preparedContext';

/** The SDKs' order of fields for `default` stickiness. */
const DEFAULT_STICKINESS = ['userId', 'sessionId', 'remoteAddress'] as const;

/** The value a variant sticks to; undefined when the SDKs would draw one at random. */
function stickinessValue(context: PreparedContext, stickiness: string | undefined): string | undefined {
  if (stickiness !== undefined && stickiness !== 'default') return context.value(stickiness) || undefined;
  for (const field of DEFAULT_STICKINESS) {
    const value = context.context[field];
    if (value) return value;
  }
  return undefined;
}

export interface VariantChoice {
  readonly variant: VariantModel;
  readonly byOverride: boolean;
}

/**
 * The variant of `variants` for this context: null when none applies (no positive total weight), 'unknown' when it
 * would be drawn at random among several.
 */
export function chooseVariant(variants: readonly VariantModel[], groupId: string, stickiness: string | undefined, context: PreparedContext): VariantChoice | null | 'unknown' {
  let total = 0;
  for (const variant of variants) total += variant.weight;
  if (total <= 0) return null;
  for (const variant of variants) {
    for (const override of variant.overrides) {
      const value = context.value(override.contextName);
      if (value !== undefined && override.values.includes(value)) return { variant, byOverride: true };
    }
  }
  const sticky = stickinessValue(context, stickiness);
  if (sticky === undefined) {
    const drawable = variants.filter((variant) => variant.weight > 0);
    return drawable.length === 1 ? { variant: drawable[0] as VariantModel, byOverride: false } : 'unknown';
  }
  const target = variantBucket(sticky, groupId, total);
  let counter = 0;
  for (const variant of variants) {
    if (variant.weight === 0) continue;
    counter += variant.weight;
    if (counter >= target) return { variant, byOverride: false };
  }
  return null;
}
