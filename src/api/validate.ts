/**
 * zod's verdict on a parsed JSON payload, without zod's copy of it: zod builds a new object for every object and array
 * it accepts, a second graph of a whole listing or export. The schemas keep every field and transform nothing, so
 * where zod would return a copy equal to the input, the input itself is the result (bench/README.md has the cost).
 */
import type { z } from 'zod';

type Check = (value: unknown) => boolean;

/** Whether zod lets a field be absent: zod 4's `optin` / `optout` (`optional` on both sides for `.optional()`). */
interface Optionality {
  optin?: string;
  optout?: string;
}

/** A schema's definition, as far as the check reads it (zod 4's `def`). */
interface Def {
  type: string;
  checks?: unknown[];
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  innerType?: z.ZodType;
}

const compiled = new WeakMap<z.ZodType, Check | null>();

/**
 * zod's `safeParse`, answered from the input itself when the schema's compiled check accepts it; otherwise zod parses,
 * and its verdict and error are the ones reported. The check decides only what it can decide exactly: loose objects,
 * arrays, optional, nullable, unknown, strings, finite numbers and booleans; refined leaves (`.int()`), literals, and
 * unions and records of primitives are asked of zod. A key is absent as zod sees it (`key in object`), accepted only
 * for a field optional on both its input and output side; an object holding its own `__proto__` key is left to zod
 * (whose copy leaves it out). A schema holding anything else (a stripping or strict object, a transform, a default, a
 * refined container) is always parsed by zod. validate.test.ts and validateProperty.test.ts compare both.
 */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.ZodSafeParseResult<z.output<S>> {
  if (acceptsAsIs(schema, value)) return { success: true, data: value as z.output<S> };
  return schema.safeParse(value);
}

/** Whether the schema's compiled check accepts the value as it is; false also when only zod could say (no zod here). */
export function acceptsAsIs(schema: z.ZodType, value: unknown): boolean {
  return checkFor(schema)?.(value) === true;
}

/**
 * The schema of the entries of the list field `key` of a loose object schema (through `.optional()` and
 * `.nullable()`): `unknown` for a key the schema does not declare (kept as it is), undefined when the field is not a
 * plain list.
 */
export function listEntrySchema(schema: z.ZodType, key: string): z.ZodType | undefined {
  const def = schema.def as Def;
  if (def.type !== 'object') return undefined;
  let field = def.shape?.[key];
  if (!field) return def.catchall;
  while ((field.def as Def).type === 'optional' || (field.def as Def).type === 'nullable') field = (field.def as Def).innerType as z.ZodType;
  const fieldDef = field.def as Def;
  return fieldDef.type === 'array' && !fieldDef.checks?.length ? fieldDef.element : undefined;
}

/** The compiled check of a schema, or null when it holds something the check cannot decide exactly. */
function checkFor(schema: z.ZodType): Check | null {
  let check = compiled.get(schema);
  if (check === undefined) {
    check = compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

function compile(schema: z.ZodType): Check | null {
  const def = schema.def as Def;
  const refined = Boolean(def.checks?.length);
  switch (def.type) {
    case 'string':
      return refined ? zodSays(schema) : (value) => typeof value === 'string';
    case 'number':
      return refined ? zodSays(schema) : (value) => typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return refined ? zodSays(schema) : (value) => typeof value === 'boolean';
    case 'unknown':
    case 'any':
      return () => true;
    case 'literal':
    case 'enum':
    case 'null':
      return zodSays(schema);
    case 'union':
    case 'record':
      return leavesOnly(schema) ? zodSays(schema) : null;
    case 'optional':
      return wrap(def.innerType, (inner) => (value) => value === undefined || inner(value));
    case 'nullable':
      return wrap(def.innerType, (inner) => (value) => value === null || inner(value));
    case 'array':
      return refined ? null : wrap(def.element, (element) => (value) => Array.isArray(value) && everyElement(value, element));
    case 'object':
      return refined ? null : looseObject(def);
    default:
      return null;
  }
}

/** Every index, holes included (zod reads a hole as `undefined`; `Array.prototype.every` would skip it). */
function everyElement(items: unknown[], element: Check): boolean {
  for (let i = 0; i < items.length; i++) if (!element(items[i])) return false;
  return true;
}

function wrap(inner: z.ZodType | undefined, make: (check: Check) => Check): Check | null {
  const check = inner ? compile(inner) : null;
  return check ? make(check) : null;
}

/** An object whose unknown fields zod keeps as they are (`looseObject`); a stripping or strict one is not decided. */
function looseObject(def: Def): Check | null {
  if (!def.shape || (def.catchall?.def as Def | undefined)?.type !== 'unknown') return null;
  const fields: Array<[string, Check, boolean]> = [];
  for (const [key, field] of Object.entries(def.shape)) {
    const check = compile(field);
    const absence = absentAllowed(field);
    // zod skips a declared `__proto__`; no schema here declares one.
    if (!check || absence === undefined || key === '__proto__') return null;
    fields.push([key, check, absence]);
  }
  return (value) => {
    if (!plainRecord(value)) return false;
    const record = value as Record<string, unknown>;
    for (const [key, check, absence] of fields) {
      if (!(key in record)) {
        if (!absence) return false;
      } else if (!check(record[key])) return false;
    }
    return true;
  };
}

/**
 * Whether zod accepts a field's key being absent: never for a field required on its input side (`optin` unset, even
 * `z.unknown()`), always for one optional on both sides; undefined (not decided here) for a defaulted field.
 */
function absentAllowed(field: z.ZodType): boolean | undefined {
  const { optin, optout } = field._zod as Optionality;
  if (optin === undefined) return false;
  return optin === 'optional' && optout === 'optional' ? true : undefined;
}

/** An object zod would read and copy key for key: not null, not an array, and without an own `__proto__` key. */
function plainRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Object.hasOwn(value, '__proto__');
}

/**
 * zod's own verdict, for a part whose result is its input (primitives, and unions and records of them); a record
 * with its own `__proto__` key is left to zod, whose copy leaves that key out.
 */
function zodSays(schema: z.ZodType): Check {
  return (value) => schema.safeParse(value).success && (typeof value !== 'object' || value === null || plainRecord(value));
}

/** Whether a union or record holds only primitives (so zod's result for it is a copy of the input, not a change). */
function leavesOnly(schema: z.ZodType): boolean {
  const def = schema.def as Def & { options?: z.ZodType[]; keyType?: z.ZodType; valueType?: z.ZodType };
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'literal':
    case 'enum':
    case 'null':
    case 'unknown':
      return true;
    case 'union':
      return (def.options ?? []).every(leavesOnly);
    case 'record':
      return Boolean(def.keyType && def.valueType && leavesOnly(def.keyType) && leavesOnly(def.valueType));
    default:
      return false;
  }
}
