/**
 * The context a flag is evaluated for, as Unleash's SDKs take it (userId, sessionId, remoteAddress, environment,
 * appName, currentTime and string properties), read from an untrusted value (a workspace file's JSON, what the user
 * typed): checked with zod, each text cut to `INTAKE_BUDGET.contextChars`, at most `contextProperties` properties, and
 * what was cut or refused said in words (docs/evaluation.md).
 */
import * as l10n from '@vscode/l10n';
import { z } from 'zod';
import { INTAKE_BUDGET } from '../../base/intakeBudget';

/** The fields the SDKs know by name; any other name is a property. */
const STANDARD_FIELDS = ['userId', 'sessionId', 'remoteAddress', 'environment', 'appName', 'currentTime'] as const;
type StandardField = (typeof STANDARD_FIELDS)[number];

export type EvaluationContext = {
  readonly [field in StandardField]?: string;
} & {
  /** The other fields, by name (a Map: a property named `__proto__` or `constructor` is a name like any other). */
  readonly properties: ReadonlyMap<string, string>;
};

interface ContextIntake {
  context: EvaluationContext;
  /** What was cut or refused, one sentence each; empty when the value was taken whole. */
  notes: string[];
}

/** A context value as the SDKs accept it: text, or a number or boolean they turn into text. */
const contextValueSchema = z.union([z.string(), z.number().refine(Number.isFinite), z.boolean()]);

const STANDARD: ReadonlySet<string> = new Set(STANDARD_FIELDS);
const isStandard = (name: string): name is StandardField => STANDARD.has(name);

/** `text` cut to `max` UTF-16 units, never between the two halves of a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** Reads an untrusted value as a context: never throws; what it leaves out, it says. */
export function readContext(input: unknown): ContextIntake {
  const notes: string[] = [];
  const fields: { -readonly [field in StandardField]?: string } = {};
  const properties = new Map<string, string>();
  if (input === undefined || input === null) return { context: { properties }, notes };
  if (typeof input !== 'object' || Array.isArray(input)) {
    notes.push(l10n.t('The context is not an object: an empty context is used.'));
    return { context: { properties }, notes };
  }
  const max = INTAKE_BUDGET.contextChars;
  const take = (name: string, raw: unknown): string | undefined => {
    if (raw === undefined || raw === null) return undefined;
    const parsed = contextValueSchema.safeParse(raw);
    if (!parsed.success) {
      notes.push(l10n.t('Context field "{0}" is not text, a number or a boolean: left out.', cut(name, 100)));
      return undefined;
    }
    const text = String(parsed.data);
    if (text.length > max) notes.push(l10n.t('Context field "{0}" is cut to its first {1} characters.', cut(name, 100), max));
    return cut(text, max);
  };
  let propertyCount = 0;
  let leftOut = 0;
  const addProperty = (name: string, raw: unknown, fromTop: boolean): void => {
    if (name.length > max) {
      notes.push(l10n.t('A context property whose name is longer than {0} characters is left out.', max));
      return;
    }
    // A field at the top level wins over a property of the same name, as the SDKs read `context[name]` first.
    if (!fromTop && properties.has(name)) return;
    if (!properties.has(name) && propertyCount >= INTAKE_BUDGET.contextProperties) {
      leftOut++;
      return;
    }
    const value = take(name, raw);
    if (value === undefined) return;
    if (!properties.has(name)) propertyCount++;
    properties.set(name, value);
  };
  const record = input as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    if (name === 'properties') continue;
    if (isStandard(name)) {
      const value = take(name, record[name]);
      if (value !== undefined) fields[name] = value;
    } else {
      addProperty(name, record[name], true);
    }
  }
  const nested = record.properties;
  if (nested !== undefined && nested !== null) {
    if (typeof nested !== 'object' || Array.isArray(nested)) {
      notes.push(l10n.t('Context field "properties" is not an object: left out.'));
    } else {
      for (const name of Object.keys(nested)) addProperty(name, (nested as Record<string, unknown>)[name], false);
    }
  }
  if (leftOut > 0) notes.push(l10n.t('Only the first {0} context properties are used; {1} more are left out.', INTAKE_BUDGET.contextProperties, leftOut));
  if (fields.currentTime !== undefined && Number.isNaN(Date.parse(fields.currentTime))) {
    notes.push(l10n.t('Context field "currentTime" is not a date: date constraints are not satisfied, as in the SDKs.'));
  }
  return { context: { ...fields, properties }, notes };
}

/** The value a constraint, a stickiness or an override reads: a standard field, else a property (as the SDKs). */
export function contextValue(context: EvaluationContext, name: string): string | undefined {
  return isStandard(name) ? (context[name] ?? context.properties.get(name)) : context.properties.get(name);
}
