/**
 * A large JSON value sent from a worker to the extension host in parts, so that the host parses it with the native
 * JSON.parse at its own speed and never blocks: every list of more than PART_ROWS entries, and every object of more
 * than PART_ROWS keys, is taken out of the value and sent as parts of at most PART_ROWS entries (or about PART_CHARS
 * characters), each a JSON text of its own, in an order where a part's list or object already exists when it is
 * added to. The host parses the rest (the skeleton), then each part, yielding between them. Works the same in a
 * browser worker.
 */
import type { TimeSlices } from './timeSlices';

/** Entries of a list above which it is sent in parts, and most entries one part holds. */
const PART_ROWS = 1_000;
/** About the most characters one part holds (a part of large entries holds fewer of them). */
const PART_CHARS = 128 * 1024;

/**
 * A value in parts: the skeleton's JSON, and the parts in the order they are added, their JSON as the UTF-8 bytes of
 * one buffer (sent without a copy; each part is the bytes up to its `end`).
 */
export interface JsonInParts {
  skeleton: string;
  parts: Array<{ path: Array<string | number>; keyed: boolean; end: number }>;
  bytes: Uint8Array;
}

/**
 * Entries of the list at `path` (keys and indexes from the root), as the JSON text of a list; or, `keyed`, members
 * of the object there, as the JSON text of a list of `[key, value]` pairs.
 */
interface JsonPart {
  path: Array<string | number>;
  keyed: boolean;
  json: string;
}

/**
 * `value` (plain JSON data, nested no deeper than the intake allows) in parts. Its long lists are emptied in the
 * process: it is not used after.
 */
export function toParts(value: unknown): JsonInParts {
  const parts: JsonPart[] = [];
  const skeleton = JSON.stringify(split(value, undefined, parts));
  const encoder = new TextEncoder();
  const encoded = parts.map((part) => encoder.encode(part.json));
  const bytes = new Uint8Array(encoded.reduce((sum, part) => sum + part.length, 0));
  let end = 0;
  const ends = encoded.map((part, i) => {
    bytes.set(part, end);
    end += part.length;
    return { path: (parts[i] as JsonPart).path, keyed: (parts[i] as JsonPart).keyed, end };
  });
  return { skeleton, parts: ends, bytes };
}

/** Where a value is: its parent's place and its key or index there (written out only for a part: `pathOf`). */
interface Place {
  parent: Place | undefined;
  key: string | number;
}

function pathOf(place: Place | undefined): Array<string | number> {
  const path: Array<string | number> = [];
  for (let at = place; at !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * `value` with its long lists and large objects emptied, their parts appended to `parts` in the order they are added
 * back: a part of a list or object, then the parts inside the entries it holds (they exist once it is added).
 */
function split(value: unknown, place: Place | undefined, parts: JsonPart[]): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    if (value.length > PART_ROWS) {
      inParts(value.splice(0).map((entry, i) => [i, entry]), place, false, parts);
      return value;
    }
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item !== null && typeof item === 'object') value[i] = split(item, { parent: place, key: i }, parts);
    }
    return value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > PART_ROWS) {
    inParts(keys.map((key) => [key, record[key]]), place, true, parts);
    return {};
  }
  for (const key of keys) {
    const item = record[key];
    if (item !== null && typeof item === 'object') record[key] = split(item, { parent: place, key }, parts);
  }
  return record;
}

/** Entries (each with its index or key) as parts of at most PART_ROWS of them, each followed by the parts inside it. */
function inParts(entries: Array<[string | number, unknown]>, place: Place | undefined, keyed: boolean, parts: JsonPart[]): void {
  const path = pathOf(place);
  for (let start = 0; start < entries.length; ) {
    const inner: JsonPart[] = [];
    const texts: string[] = [];
    let chars = 0;
    let end = start;
    for (; end < entries.length && end - start < PART_ROWS && chars < PART_CHARS; end++) {
      const [at, entry] = entries[end] as [string | number, unknown];
      const shown = split(entry, { parent: place, key: at }, inner);
      const text = keyed ? JSON.stringify([at, shown]) : (JSON.stringify(shown) ?? 'null');
      texts.push(text);
      chars += text.length;
    }
    parts.push({ path, keyed, json: `[${texts.join(',')}]` }, ...inner);
    start = end;
  }
}

/** The value again, each part parsed natively and added to its list, with a yield whenever a slice is used up. */
export async function fromParts(value: JsonInParts, slices: TimeSlices): Promise<unknown> {
  const root: unknown = JSON.parse(value.skeleton);
  const decoder = new TextDecoder();
  let start = 0;
  for (const part of value.parts) {
    if (slices.due()) await slices.next();
    let target: unknown = root;
    for (const key of part.path) target = (target as Record<string | number, unknown>)[key];
    const entries = JSON.parse(decoder.decode(value.bytes.subarray(start, part.end))) as unknown[];
    start = part.end;
    // One at a time: a part may hold more entries than a call can take as arguments. A member is defined rather than
    // assigned, so that a key `__proto__` is a member, as JSON.parse makes it.
    if (part.keyed) for (const [key, member] of entries as Array<[string, unknown]>) Object.defineProperty(target, key, { value: member, enumerable: true, writable: true, configurable: true });
    else for (const entry of entries) (target as unknown[]).push(entry);
  }
  return root;
}
