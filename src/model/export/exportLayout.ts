/**
 * The on-disk layout of an exported environment: a deterministic, diff-friendly JSON file that is still a valid
 * export result (no wrapper), so that shuffled input always gives the same bytes (canonicalJson.ts). Lists whose
 * order means something (constraints, their values, variants, overrides, legal values) keep the server's order.
 */
import type { ExportResult } from '../../api/exportSchemas';
import { canonicalValue, isPlainObject, listKeepingOrder, listSortedBy, objectWith, rank, sortedIds, type Json, type JsonObject } from './canonicalJson';
import { compare } from '../../base/compare';
import { setMember } from '../../base/jsonBytes';

/** Top-level keys in this order; unknown top-level keys after them, sorted by name. */
const TOP_LEVEL_ORDER = [
  'features', 'featureStrategies', 'featureEnvironments', 'contextFields', 'featureTags', 'segments', 'tagTypes',
  'dependencies', 'links', 'segmentDefinitions',
] as const;
type TopLevelKey = (typeof TOP_LEVEL_ORDER)[number];

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

const TOP_LEVEL_LISTS: Readonly<Record<TopLevelKey, SortedList>> = {
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
) as Readonly<Record<TopLevelKey, (value: Json) => Json>>;

/** The layout of a top-level list that is sorted (a known one), or undefined (an unknown key's list keeps its order). */
function sortedList(key: string): SortedList | undefined {
  return Object.hasOwn(TOP_LEVEL_LISTS, key) ? TOP_LEVEL_LISTS[key as TopLevelKey] : undefined;
}

/**
 * The deterministic layout of an export result (see the file comment). Unknown keys anywhere are kept; `undefined`
 * members are left out. The input is not modified.
 */
export function canonicalExport(result: ExportResult | Record<string, unknown>): Record<string, unknown> {
  const source = result as JsonObject;
  const out: JsonObject = {};
  for (const key of memberOrder(Object.keys(source).filter((key) => source[key] !== undefined))) setMember(out, key, layoutMember(key, source[key]));
  return out;
}

/** The top-level keys of an export in the order its file lists them. */
export function memberOrder(keys: readonly string[]): string[] {
  // The members in the order the laid-out object would list them (JavaScript puts index-like keys first).
  const present = new Set(keys);
  const order: JsonObject = {};
  for (const key of TOP_LEVEL_ORDER) if (present.has(key)) setMember(order, key, true);
  const known = new Set<string>(TOP_LEVEL_ORDER);
  for (const key of [...present].filter((k) => !known.has(k)).sort(compare)) setMember(order, key, true);
  return Object.keys(order);
}

/** A top-level member's value laid out: a known list sorted, anything else canonically. */
export function layoutMember(key: string, value: unknown): Json {
  return Object.hasOwn(TOP_LEVEL, key) ? TOP_LEVEL[key as TopLevelKey](value) : canonicalValue(value);
}

/** One element of the top-level list under `key`, laid out. */
export function layoutElement(key: string, item: unknown): Json {
  const list = sortedList(key);
  return list ? list.element(item) : canonicalValue(item);
}

/** Whether the elements of the list under `key` are sorted (else they keep the server's order). */
export function isSortedList(key: string): boolean {
  return sortedList(key) !== undefined;
}

/**
 * What an element of the sorted list under `key` is ordered by, read from the element as it is: the keys are leaf
 * members the layout copies unchanged (a key that is an object is laid out), so no element is laid out to sort it.
 */
export function sortKeysOf(key: string, item: unknown): readonly unknown[] {
  const list = sortedList(key);
  if (!list) return [];
  return isPlainObject(item) ? list.keys.map((read) => asLaidOut(read(item))) : list.keys.map(() => undefined);
}

/** A sort key as `compareValues` sees it on the laid-out element (only a key that is an object changes). */
function asLaidOut(key: unknown): unknown {
  return rank(key) === 3 ? canonicalValue(key) : key;
}
