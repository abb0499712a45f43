/**
 * Variants (feature, environment and strategy level) and their payloads.
 */
import * as l10n from '@vscode/l10n';
import type { Override, Payload, StrategyVariant, Variant } from '../../api/schemas';
import { compactJson } from './jsonText';
import { clean, formatList, MAX_DETAIL, oneDecimal } from './plainText';

/** Longest payload value shown (the type prefix and quotes come on top). */
const MAX_PAYLOAD = 80;
/** JSON longer than this is not compacted; it is only made single-line. */
const MAX_JSON_TO_COMPACT = 100_000;
const MAX_NAME = 100;

/** A weight (0–1000) as a percentage with at most one decimal: 500 → `50%`, 333 → `33.3%`, 0 → `0%`. */
export function weightPercent(weight: number): string {
  return Number.isFinite(weight) ? l10n.t('{0}%', oneDecimal(weight / 10)) : l10n.t('weight unknown');
}

/**
 * `string: "hello"`, `json: {"a":1}` (valid JSON is compacted, invisible characters as JSON escapes), `csv: a,b,c`, `number: 42`; an unknown type is shown
 * as data: `<type>: <value>`. The value is single-line and cut at MAX_PAYLOAD characters.
 */
export function describePayload(p: Payload): string {
  const type = p.type.trim() === '' ? l10n.t('(no type)') : clean(p.type, 30);
  if (p.type === 'string') return `string: "${clean(p.value, MAX_PAYLOAD)}"`;
  if (p.type === 'json') return `json: ${clean(compactJson(p.value, MAX_PAYLOAD * 2, MAX_JSON_TO_COMPACT) ?? p.value, MAX_PAYLOAD)}`;
  const value = p.value === '' ? '""' : clean(p.value, MAX_PAYLOAD);
  return `${type}: ${value}`;
}

/** `userId: 1, 2` for one override. */
export function describeOverride(o: Override): string {
  const values = o.values.length === 0 ? l10n.t('(no values)') : formatList(o.values, { budget: 80 });
  return l10n.t('{0}: {1}', o.contextName.trim() === '' ? l10n.t('(no context field)') : clean(o.contextName, 60), values);
}

function isOverride(o: unknown): o is Override {
  if (typeof o !== 'object' || o === null) return false;
  const { contextName, values } = o as { contextName?: unknown; values?: unknown };
  return typeof contextName === 'string' && Array.isArray(values) && values.every((x) => typeof x === 'string');
}

/** Overrides exist only on feature/environment variants; a strategy variant's loose extra fields are checked. */
function overridesOf(v: Variant | StrategyVariant): Override[] {
  const raw: unknown = v.overrides;
  return Array.isArray(raw) ? raw.filter(isOverride) : [];
}

interface VariantText {
  /** `blue — 50%` */
  readonly label: string;
  /**
   * The rest, joined with ` · `: weight type (`fix` / `variable`), `stickiness: userId`, the payload
   * (`string: "hello"`), `overrides userId: 1, 2; tenant: acme`. '' when there is nothing to add.
   */
  readonly detail: string;
}

/**
 * Label and detail for a variant. Weights are out of 1000 and are shown as given (the server already spread
 * `variable` weights), so no sibling variants are needed.
 */
export function describeVariant(v: Variant | StrategyVariant): VariantText {
  const name = v.name === '' ? l10n.t('(unnamed variant)') : clean(v.name, MAX_NAME);
  const label = `${name} — ${weightPercent(v.weight)}`;
  const parts: string[] = [];
  if (v.weightType !== undefined && v.weightType !== '') parts.push(clean(v.weightType, 30));
  if (v.stickiness !== undefined && v.stickiness !== '') parts.push(l10n.t('stickiness: {0}', clean(v.stickiness, 40)));
  if (v.payload !== undefined) parts.push(describePayload(v.payload));
  const overrides = overridesOf(v);
  if (overrides.length > 0) {
    const shown = overrides.slice(0, 5).map(describeOverride);
    const list = shown.join('; ');
    parts.push(
      overrides.length > 5
        ? l10n.t('overrides {0} … and {1} more', list, overrides.length - 5)
        : l10n.t('overrides {0}', list),
    );
  }
  return { label, detail: clean(parts.join(' · '), MAX_DETAIL) };
}
