/**
 * The on-disk layout of an exported environment: a deterministic, diff-friendly JSON file that is still a valid
 * export result (no wrapper). Where the file goes is exportPath.ts.
 *
 * Determinism rules (see `canonicalExport`):
 * - top-level keys in a fixed order, unknown top-level keys after them, sorted by name;
 * - every object: its identity keys first in a fixed order, then every other key (known or unknown) sorted by
 *   UTF-16 code unit, so a field a newer server adds lands in a predictable place and is never dropped;
 * - the top-level lists, whose order the server does not define, are sorted by their natural keys, with the
 *   element's canonical JSON as the last tie-breaker, so shuffled input always gives the same bytes;
 * - the ids a server assigns to strategies and links are left out: an import gives them new ones, so with them an
 *   export imported into another instance would never export again to the same bytes;
 * - lists whose order means something (constraints, their values, variants, overrides, legal values) keep the
 *   server's order. Strategy `segments` id lists are sets and are sorted numerically.
 *
 * Reading a file back is exportFile.ts. Nothing here imports 'vscode'.
 */
import type { ExportResult } from '../../api/exportSchemas';

// ---------------------------------------------------------------------------------------------------------------
// Canonical layout
// ---------------------------------------------------------------------------------------------------------------

type Json = unknown;
type JsonObject = Record<string, unknown>;

/** How one kind of object is laid out: its leading keys, keys left out, and layouts for some of its values. */
interface Layout {
  readonly lead: readonly string[];
  readonly omit?: readonly string[];
  readonly fields?: Readonly<Record<string, (value: Json) => Json>>;
}

const TOP_LEVEL_ORDER = [
  'features', 'featureStrategies', 'featureEnvironments', 'contextFields', 'featureTags', 'segments', 'tagTypes',
  'dependencies', 'links', 'segmentDefinitions',
] as const;

function isPlainObject(value: unknown): value is JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Locale-independent string order (UTF-16 code units), the same on every machine. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The class of a sort key: missing, number, string, anything else. */
function rank(v: unknown): number {
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
  if (ra === 2) return compareStrings(a as string, b as string);
  return compareStrings(JSON.stringify(a) ?? '', JSON.stringify(b) ?? '');
}

/**
 * Sets a key even when it is `__proto__`, which plain assignment would turn into a prototype change. Every other key
 * is assigned plainly: defineProperty on each key would leave objects in V8's slow dictionary mode, which made
 * laying out and stringifying a 10,000-flag export several times slower (see bench/README.md).
 */
function setKey(target: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

const NO_LAYOUT: Layout = { lead: [] };
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Any JSON value with every object's keys sorted and arrays kept in order; `undefined` members are left out (as
 * JSON.stringify would). Used for values whose meaning is unknown.
 */
function canonicalValue(value: Json): Json {
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
  rest.sort(compareStrings);
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
    if (typeof value !== 'function') return setKey(out, key, value);
  }
  const field = fields !== undefined && hasOwn.call(fields, key) ? fields[key] : undefined;
  setKey(out, key, field ? field(value) : canonicalValue(value));
}

/** Lays out an object with `layout`; anything that is not an object is handled generically. */
function objectWith(layout: Layout): (value: Json) => Json {
  return (value) => (isPlainObject(value) ? layoutObject(value, layout) : canonicalValue(value));
}

/** An array laid out element by element, order kept (for lists whose order means something). */
function listKeepingOrder(element: (value: Json) => Json): (value: Json) => Json {
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
function listSortedBy(element: (value: Json) => Json, keys: ReadonlyArray<(item: JsonObject) => unknown>): (value: Json) => Json {
  return (value) => {
    if (!Array.isArray(value)) return canonicalValue(value);
    // Each element's sort keys are read once (not on every comparison), and its JSON, the last tie-breaker, only
    // when its keys tie with another element's (rare): a 10,000-flag export sorts 15,000 strategies.
    const entries: SortEntry[] = value.map((item) => {
      const laidOut = element(item);
      const object = isPlainObject(laidOut) ? laidOut : undefined;
      return { laidOut, keys: keys.map((key) => (object ? key(object) : undefined)) };
    });
    entries.sort((a, b) => {
      for (let i = 0; i < a.keys.length; i++) {
        const order = compareValues(a.keys[i], b.keys[i]);
        if (order !== 0) return order;
      }
      return compareStrings((a.json ??= JSON.stringify(a.laidOut) ?? ''), (b.json ??= JSON.stringify(b.laidOut) ?? ''));
    });
    return entries.map((entry) => entry.laidOut);
  };
}

const sortedByJson = listSortedBy(canonicalValue, []);

/** Strategy `segments`: a set of ids, sorted numerically (anything that is not a number after them, by its JSON). */
function sortedIds(value: Json): Json {
  if (!Array.isArray(value)) return canonicalValue(value);
  const numbers = value.filter((v): v is number => typeof v === 'number').sort((a, b) => a - b);
  const others = value.filter((v) => typeof v !== 'number');
  return [...numbers, ...(sortedByJson(others) as Json[])];
}

const payloadLayout = objectWith({ lead: ['type', 'value'] });
const overrideLayout = objectWith({ lead: ['contextName', 'values'] });
const variantLayout = objectWith({
  lead: ['name', 'weight', 'weightType', 'stickiness'],
  fields: { payload: payloadLayout, overrides: listKeepingOrder(overrideLayout) },
});
const constraintLayout = objectWith({ lead: ['contextName', 'operator'] });
const strategyFields = {
  constraints: listKeepingOrder(constraintLayout),
  variants: listKeepingOrder(variantLayout),
  segments: sortedIds,
};
const strategyLayout = objectWith({ lead: ['featureName', 'id', 'name', 'title'], fields: strategyFields });
/** An exported strategy leaves out its id: a server assigns it, and an import gives the strategy a new one. */
const exportedStrategyLayout = objectWith({ lead: ['featureName', 'name', 'title'], omit: ['id'], fields: strategyFields });
const featureEnvironmentLayout = objectWith({
  lead: ['featureName', 'name', 'environment', 'enabled'],
  fields: { variants: listKeepingOrder(variantLayout), strategies: listKeepingOrder(strategyLayout) },
});
const parentDependencyLayout = objectWith({ lead: ['feature', 'enabled', 'variants'] });
/** A link leaves out its id, as an exported strategy does (an import gives it a new one). */
const linkLayout = objectWith({ lead: ['url', 'title'], omit: ['id'] });
const byLink = [(l: JsonObject) => l.url, (l: JsonObject) => l.title];
const featureLayout = objectWith({
  lead: ['name', 'project', 'type', 'description'],
  fields: {
    environments: listKeepingOrder(featureEnvironmentLayout),
    variants: listKeepingOrder(variantLayout),
    tags: listKeepingOrder(objectWith({ lead: ['type', 'value'] })),
    lifecycle: objectWith({ lead: ['stage', 'status', 'enteredStageAt'] }),
    dependencies: listKeepingOrder(parentDependencyLayout),
    links: listSortedBy(linkLayout, byLink),
  },
});
const contextFieldLayout = objectWith({
  lead: ['name', 'description'],
  fields: { legalValues: listKeepingOrder(objectWith({ lead: ['value', 'description'] })) },
});
const featureTagLayout = objectWith({ lead: ['featureName', 'tagType', 'tagValue'] });
const segmentLayout = objectWith({ lead: ['id', 'name'], fields: { constraints: listKeepingOrder(constraintLayout) } });
const tagTypeLayout = objectWith({ lead: ['name', 'description'] });
const exportedDependencyLayout = objectWith({
  lead: ['feature', 'dependencies'],
  fields: { dependencies: listSortedBy(parentDependencyLayout, [(d) => d.feature]) },
});
const SEGMENT_DEFINITION_KEYS = ['id', 'name', 'description', 'project', 'constraints'] as const;
/** Only what defines a segment: usage counts and audit fields would change the file without a change to the flags. */
const segmentDefinitionLayout = (value: Json): Json => {
  if (!isPlainObject(value)) return canonicalValue(value);
  const kept: JsonObject = {};
  for (const key of SEGMENT_DEFINITION_KEYS) if (value[key] !== undefined) kept[key] = value[key];
  return objectWith({ lead: SEGMENT_DEFINITION_KEYS, fields: { constraints: listKeepingOrder(constraintLayout) } })(kept);
};
const featureLinksLayout = objectWith({
  lead: ['feature', 'links'],
  fields: { links: listSortedBy(linkLayout, byLink) },
});

/** A top-level list: how each element is laid out, and the keys the list is sorted by. */
interface SortedList {
  readonly element: (value: Json) => Json;
  readonly keys: ReadonlyArray<(item: JsonObject) => unknown>;
}

const TOP_LEVEL_LISTS: Readonly<Record<(typeof TOP_LEVEL_ORDER)[number], SortedList>> = {
  features: { element: featureLayout, keys: [(f) => f.name, (f) => f.project] },
  featureStrategies: { element: exportedStrategyLayout, keys: [(s) => s.featureName, (s) => s.name, (s) => s.title] },
  featureEnvironments: { element: featureEnvironmentLayout, keys: [(e) => e.featureName ?? e.name, (e) => e.environment] },
  contextFields: { element: contextFieldLayout, keys: [(c) => c.name] },
  featureTags: { element: featureTagLayout, keys: [(t) => t.featureName, (t) => t.tagType ?? t.type, (t) => t.tagValue ?? t.value] },
  segments: { element: segmentLayout, keys: [(s) => s.id] },
  tagTypes: { element: tagTypeLayout, keys: [(t) => t.name] },
  dependencies: { element: exportedDependencyLayout, keys: [(d) => d.feature] },
  links: { element: featureLinksLayout, keys: [(l) => l.feature] },
  segmentDefinitions: { element: segmentDefinitionLayout, keys: [(s) => s.id] },
};

const TOP_LEVEL = Object.fromEntries(
  TOP_LEVEL_ORDER.map((key) => [key, listSortedBy(TOP_LEVEL_LISTS[key].element, TOP_LEVEL_LISTS[key].keys)]),
) as Readonly<Record<(typeof TOP_LEVEL_ORDER)[number], (value: Json) => Json>>;

/**
 * The deterministic layout of an export result (see the file comment). Unknown keys anywhere are kept; `undefined`
 * members are left out. The input is not modified.
 */
export function canonicalExport(result: ExportResult | Record<string, unknown>): Record<string, unknown> {
  const source = result as JsonObject;
  const out: JsonObject = {};
  for (const key of TOP_LEVEL_ORDER) {
    if (!Object.prototype.hasOwnProperty.call(source, key) || source[key] === undefined) continue;
    setKey(out, key, TOP_LEVEL[key](source[key]));
  }
  const known = new Set<string>(TOP_LEVEL_ORDER);
  for (const key of Object.keys(source).filter((k) => !known.has(k)).sort(compareStrings)) {
    if (source[key] === undefined) continue;
    setKey(out, key, canonicalValue(source[key]));
  }
  return out;
}

/**
 * The file content for an export: the canonical layout, two-space indentation, `\n` line ends and a final newline.
 * The same environment exported twice gives the same bytes, whatever order the server used.
 */
export function serializeExport(result: ExportResult | Record<string, unknown>): string {
  return `${JSON.stringify(canonicalExport(result), null, 2)}\n`;
}

// ---------------------------------------------------------------------------------------------------------------
// Writing the file's bytes
// ---------------------------------------------------------------------------------------------------------------

/** Size of the blocks the file's bytes are written into before they are joined. */
const BLOCK_BYTES = 1 << 20;

/** Text encoded straight into large blocks (no whole-file string, no second copy of it). */
class BlockWriter {
  private readonly blocks: Buffer[] = [];
  private block = Buffer.allocUnsafe(BLOCK_BYTES);
  private used = 0;

  write(text: string): void {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    if (text.length * 3 > this.block.length - this.used) {
      this.seal();
      if (text.length * 3 > BLOCK_BYTES) {
        this.blocks.push(Buffer.from(text, 'utf8'));
        return;
      }
    }
    this.used += this.block.write(text, this.used, 'utf8');
  }

  private seal(): void {
    if (this.used > 0) this.blocks.push(this.block.subarray(0, this.used));
    this.block = Buffer.allocUnsafe(BLOCK_BYTES);
    this.used = 0;
  }

  bytes(): Buffer {
    this.seal();
    return Buffer.concat(this.blocks);
  }
}

/** JSON.stringify(…, null, 2) of `value` as it reads at `depth` levels of indentation (1: a top-level member). */
function prettyAt(value: Json, depth: 1 | 2): string {
  if (depth === 1) return JSON.stringify([value], null, 2).slice(4, -2);
  return JSON.stringify([[value]], null, 2).slice(10, -6);
}

/** A sort key as `compareValues` sees it on the laid-out element (only a key that is an object changes). */
function asLaidOut(key: unknown): unknown {
  return rank(key) === 3 ? canonicalValue(key) : key;
}

// The pieces of the file, shared by `serializeExportBytes` (an export in memory) and exportStream.ts (an export read
// a value at a time from a file): the order of the top-level members, how a list's elements are ordered, and the
// text of each member, each element and the punctuation between them.

/** The top-level keys of an export in the order its file lists them (those whose value is written at all). */
export function memberOrder(keys: readonly string[]): string[] {
  // The members in the order the laid-out object would list them (JavaScript puts index-like keys first).
  const present = new Set(keys);
  const order: JsonObject = {};
  for (const key of TOP_LEVEL_ORDER) if (present.has(key)) setKey(order, key, true);
  const known = new Set<string>(TOP_LEVEL_ORDER);
  for (const key of [...present].filter((k) => !known.has(k)).sort(compareStrings)) setKey(order, key, true);
  return Object.keys(order);
}

/** The layout of a top-level list that is sorted (a known one), or undefined (an unknown key's list keeps its order). */
function sortedList(key: string): SortedList | undefined {
  return hasOwn.call(TOP_LEVEL_LISTS, key) ? TOP_LEVEL_LISTS[key as (typeof TOP_LEVEL_ORDER)[number]] : undefined;
}

/** Whether the elements of the list under `key` are sorted (else they keep the server's order). */
export function isSortedList(key: string): boolean {
  return sortedList(key) !== undefined;
}

/** What an element of the sorted list under `key` is ordered by, read from the element as it is. */
export function sortKeysOf(key: string, item: unknown): readonly unknown[] {
  const list = sortedList(key);
  if (!list) return [];
  return isPlainObject(item) ? list.keys.map((read) => asLaidOut(read(item))) : list.keys.map(() => undefined);
}

/** Orders two elements' `sortKeysOf`; 0 leaves them to `tieText`. */
export function compareSortKeys(a: readonly unknown[], b: readonly unknown[]): number {
  for (let i = 0; i < a.length; i++) {
    const order = compareValues(a[i], b[i]);
    if (order !== 0) return order;
  }
  return 0;
}

/** The last tie-breaker of elements whose keys are equal: the element's laid-out JSON, compared as a string. */
export function tieText(key: string, item: unknown): string {
  const list = sortedList(key);
  return JSON.stringify(list ? list.element(item) : canonicalValue(item)) ?? '';
}

/** The text of one element of the top-level list under `key`, as the file has it (without its indentation). */
export function elementText(key: string, item: unknown): string {
  const list = sortedList(key);
  return prettyAt(list ? list.element(item) : canonicalValue(item), 2);
}

/** The text of a top-level member's value that is not written element by element (not an array, or an empty one). */
export function valueText(key: string, value: unknown): string {
  const list = sortedList(key);
  if (Array.isArray(value) && value.length === 0) return '[]';
  return prettyAt(list ? TOP_LEVEL[key as (typeof TOP_LEVEL_ORDER)[number]](value) : canonicalValue(value), 1);
}

/** The punctuation of the file: before member `index` (`key`), around a list's elements, and at the end. */
export const FileText = {
  member: (index: number, key: string): string => `${index === 0 ? '{' : ','}\n  ${JSON.stringify(key)}: `,
  element: (index: number): string => (index === 0 ? '[\n    ' : ',\n    '),
  listEnd: '\n  ]',
  end: '\n}\n',
  empty: '{}\n',
} as const;

/**
 * The elements of a top-level list in the order `listSortedBy` gives, without laying them all out first: the sort
 * keys are read from each element as it is (they are leaf members the layout copies unchanged, and a missing or
 * undefined one reads as undefined either way), the laid-out JSON only for a tie. A list already in order (the
 * server sends features, environments and tags by name) is checked in one pass and not sorted.
 */
function inListOrder(items: readonly unknown[], key: string): unknown[] {
  const entries = items.map((item) => ({ item, keys: sortKeysOf(key, item), json: undefined as string | undefined }));
  const jsonOf = (entry: (typeof entries)[number]): string => (entry.json ??= tieText(key, entry.item));
  const compare = (a: (typeof entries)[number], b: (typeof entries)[number]): number =>
    compareSortKeys(a.keys, b.keys) || compareStrings(jsonOf(a), jsonOf(b));
  let sorted = true;
  for (let i = 1; i < entries.length && sorted; i++) sorted = compare(entries[i - 1]!, entries[i]!) <= 0;
  if (!sorted) entries.sort(compare);
  return entries.map((entry) => entry.item);
}

/**
 * The file content for an export as bytes: exactly `serializeExport(result)` in UTF-8, written a top-level element
 * at a time (each laid out, stringified and encoded, then dropped) instead of laying out the whole export, making
 * one 23 MB string of it and copying that into a Buffer (a 10,000-flag export; see bench/README.md).
 */
export function serializeExportBytes(result: ExportResult | Record<string, unknown>): Buffer {
  const source = result as JsonObject;
  const kept = (value: unknown): boolean => value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
  const keys = memberOrder(Object.keys(source).filter((key) => kept(source[key])));
  if (keys.length === 0) return Buffer.from(FileText.empty, 'utf8');

  const out = new BlockWriter();
  keys.forEach((key, index) => {
    out.write(FileText.member(index, key));
    const value = source[key];
    if (!isSortedList(key) || !Array.isArray(value) || value.length === 0) {
      out.write(valueText(key, value));
      return;
    }
    inListOrder(value, key).forEach((item, i) => {
      out.write(FileText.element(i));
      out.write(elementText(key, item));
    });
    out.write(FileText.listEnd);
  });
  out.write(FileText.end);
  return out.bytes();
}

export interface ExportSummary {
  /** Entries in `features`. */
  flags: number;
  /** Entries in `featureStrategies`. */
  strategies: number;
  /** Entries in `featureEnvironments` (one per flag configured in the exported environment; 0 for an unknown one). */
  environments: number;
}

/** Counts for the "exported N flags…" message; a missing or malformed list counts as 0. */
export function exportSummary(result: ExportResult | Record<string, unknown>): ExportSummary {
  const source = result as JsonObject;
  const count = (key: string): number => (Array.isArray(source[key]) ? (source[key] as unknown[]).length : 0);
  return { flags: count('features'), strategies: count('featureStrategies'), environments: count('featureEnvironments') };
}
