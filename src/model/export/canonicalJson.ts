/**
 * Canonical JSON: every object's keys in a fixed order (a layout's leading keys, then the rest sorted by UTF-16 code
 * unit, so a field a newer server adds lands in a predictable place and is never dropped), lists kept in order or
 * sorted by their natural keys with the element's JSON as the last tie-breaker. The export's layouts use it.
 */
import { compare } from '../../base/compare';
import { setMember } from '../../base/jsonBytes';

export type Json = unknown;
export type JsonObject = Record<string, unknown>;

/** How one kind of object is laid out: its leading keys, keys left out, and layouts for some of its values. */
interface Layout {
  readonly lead: readonly string[];
  readonly omit?: readonly string[];
  readonly fields?: Readonly<Record<string, (value: Json) => Json>>;
}

export function isPlainObject(value: unknown): value is JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The class of a sort key: missing, number, string, anything else. */
export function rank(v: unknown): number {
  return v === undefined || v === null ? 0 : typeof v === 'number' ? 1 : typeof v === 'string' ? 2 : 3;
}

/** Orders sort keys: missing first, then numbers (numerically), then strings, then anything else as JSON. */
function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return 0;
  if (ra === 1) {
    const na = a as number;
    const nb = b as number;
    return na < nb ? -1 : na > nb ? 1 : 0;
  }
  if (ra === 2) return compare(a as string, b as string);
  return compare(JSON.stringify(a) ?? '', JSON.stringify(b) ?? '');
}

/** Orders two lists of sort keys, key by key (`compareValues`); 0 when every key ties. */
export function compareKeyLists(a: readonly unknown[], b: readonly unknown[]): number {
  for (let i = 0; i < a.length; i++) {
    const order = compareValues(a[i], b[i]);
    if (order !== 0) return order;
  }
  return 0;
}

const NO_LAYOUT: Layout = { lead: [] };
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Any JSON value with every object's keys sorted and arrays kept in order; `undefined` members are left out (as
 * JSON.stringify would). Used for values whose meaning is unknown.
 */
export function canonicalValue(value: Json): Json {
  if (Array.isArray(value)) return value.map(canonicalValue);
  if (!isPlainObject(value)) return value;
  return layoutObject(value, NO_LAYOUT);
}

/** The lead keys the object has (in the layout's order), then its other own keys sorted; `undefined` values left out. */
function layoutObject(source: JsonObject, layout: Layout): JsonObject {
  const out: JsonObject = {};
  const { fields } = layout;
  for (const key of keyOrder(layout, Object.keys(source))) setField(out, key, source[key], fields);
  return out;
}

/** The last key list seen for each layout and the order it gives: objects of one kind mostly share their keys. */
const lastOrder = new Map<Layout, { readonly own: readonly string[]; readonly order: readonly string[] }>();

/** The layout's lead keys that are among `own` (an object's own enumerable keys), then the others sorted. */
function keyOrder(layout: Layout, own: readonly string[]): readonly string[] {
  const last = lastOrder.get(layout);
  if (last !== undefined && sameKeys(last.own, own)) return last.order;
  const { lead, omit = [] } = layout;
  const order = lead.filter((key) => own.includes(key));
  const rest = lead.length === 0 && omit.length === 0 ? [...own] : own.filter((key) => !lead.includes(key) && !omit.includes(key));
  rest.sort(compare);
  for (const key of rest) order.push(key);
  lastOrder.set(layout, { own, order });
  return order;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function setField(out: JsonObject, key: string, value: unknown, fields: Layout['fields']): void {
  if (value === undefined) return;
  // Strings, numbers, booleans and null are copied as they are, whatever the layout (most members are these).
  if (value === null || typeof value !== 'object') {
    if (typeof value !== 'function') return setMember(out, key, value);
  }
  const field = fields !== undefined && hasOwn.call(fields, key) ? fields[key] : undefined;
  setMember(out, key, field ? field(value) : canonicalValue(value));
}

/** Lays out an object with `layout`; anything that is not an object is handled generically. */
export function objectWith(layout: Layout): (value: Json) => Json {
  return (value) => (isPlainObject(value) ? layoutObject(value, layout) : canonicalValue(value));
}

/** An array laid out element by element, order kept (for lists whose order means something). */
export function listKeepingOrder(element: (value: Json) => Json): (value: Json) => Json {
  return (value) => (Array.isArray(value) ? value.map(element) : canonicalValue(value));
}

interface SortEntry {
  readonly laidOut: Json;
  readonly keys: readonly unknown[];
  json?: string;
}

/**
 * An array laid out element by element and then sorted by `keys` (each read from the laid-out element), with the
 * element's canonical JSON as the final tie-breaker so the result never depends on the input order.
 */
export function listSortedBy(element: (value: Json) => Json, keys: ReadonlyArray<(item: JsonObject) => unknown>): (value: Json) => Json {
  return (value) => {
    if (!Array.isArray(value)) return canonicalValue(value);
    // Each element's sort keys are read once (not on every comparison), and its JSON, the last tie-breaker, only
    // when its keys tie with another element's (rare).
    const entries: SortEntry[] = value.map((item) => {
      const laidOut = element(item);
      const object = isPlainObject(laidOut) ? laidOut : undefined;
      return { laidOut, keys: keys.map((key) => (object ? key(object) : undefined)) };
    });
    entries.sort(
      (a, b) =>
        compareKeyLists(a.keys, b.keys) || compare((a.json ??= JSON.stringify(a.laidOut) ?? ''), (b.json ??= JSON.stringify(b.laidOut) ?? '')),
    );
    return entries.map((entry) => entry.laidOut);
  };
}

const sortedByJson = listSortedBy(canonicalValue, []);

/** Strategy `segments`: a set of ids, sorted numerically (anything that is not a number after them, by its JSON). */
export function sortedIds(value: Json): Json {
  if (!Array.isArray(value)) return canonicalValue(value);
  const numbers = value.filter((v): v is number => typeof v === 'number').sort((a, b) => a - b);
  const others = value.filter((v) => typeof v !== 'number');
  return [...numbers, ...(sortedByJson(others) as Json[])];
}
