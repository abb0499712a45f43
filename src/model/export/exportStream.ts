/**
 * An export of any size, laid out from a file that holds the server's answer as it came (exportToFile.ts streams it
 * there). As the bytes arrive, each value is parsed and checked on its own (base/jsonMembers.ts finds them; the export
 * schema checks a list element at a time), and only what the canonical layout needs is kept: where each element lies
 * in the file and what it is sorted by. The file is then laid out element by element, each read back from the answer
 * file, into exactly the bytes `serializeExportBytes` (exportLayout.ts) gives for the same export in memory.
 *
 * Nothing here imports 'vscode'.
 */
import * as l10n from '@vscode/l10n';
import type { FileHandle } from 'node:fs/promises';
import type { z } from 'zod';
import { schemaIssueError } from '../../api/answers';
import { SchemaError } from '../../api/errors';
import { exportResultSchema } from '../../api/exportSchemas';
import { validate } from '../../api/validate';
import { JsonTooDeepError } from '../../base/jsonBytes';
import { JsonShapeError, TopLevelMembers, type MemberSink } from '../../base/jsonMembers';
import { TimeSlices } from '../../base/timeSlices';
import { listElement } from './exportFile';
import { compareSortKeys, elementText, FileText, isSortedList, memberOrder, sortKeysOf, tieText, valueText } from './exportLayout';

/** The request an answer comes from, as the client names it in errors. */
export const EXPORT_REQUEST = 'POST /api/admin/features-batch/export';

/** Levels of nested arrays and objects an answer may hold: an export needs about ten. */
const MAX_DEPTH = 64;

/** A top-level list: where each element lies in the answer, and (for a sorted list) what it is sorted by. */
interface ListMember {
  readonly kind: 'list';
  readonly starts: number[];
  readonly ends: number[];
  readonly keys: Array<readonly unknown[]> | undefined;
  /** The export schema of one element, for a list the schema knows. */
  readonly element: z.ZodType | undefined;
}

/** A top-level member that is not a list: its value, parsed and kept. */
interface ValueMember {
  readonly kind: 'value';
  value: unknown;
}

const SHAPE = exportResultSchema.shape as Record<string, z.ZodType>;

/** The answer holds more list elements than one export may (see `maxRows`). */
export class TooManyRowsError extends Error {
  constructor(readonly maxRows: number) {
    super(l10n.t('The answer holds more than {0} rows.', maxRows));
    this.name = 'TooManyRowsError';
  }
}

/**
 * What an export's answer holds, read as its bytes arrive: each value checked, each list element's place and sort
 * keys kept. `push` the bytes in order, then `finish`. Throws the client's SchemaError for an answer that is not an
 * export (naming the first bad field, as the client does), TooManyRowsError past `maxRows` elements.
 */
export class ExportIndex implements MemberSink {
  private readonly members = new Map<string, ListMember | ValueMember>();
  private readonly scanner = new TopLevelMembers(this, MAX_DEPTH);
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private current: { key: string; member: ListMember | ValueMember } | undefined;
  private rows = 0;
  /** The ids of the segments the export names or its strategies use. */
  readonly segmentIds = new Set<number>();

  constructor(private readonly maxRows: number) {}

  push(bytes: Uint8Array): void {
    try {
      this.scanner.push(bytes);
    } catch (error) {
      throw asAnswerError(error);
    }
  }

  /** The answer ended: throws when it is incomplete or lacks what an export must hold. */
  finish(): void {
    try {
      this.scanner.end();
    } catch (error) {
      throw asAnswerError(error);
    }
    // The members the schema checks whole: those absent, and those that are not lists.
    for (const [key, schema] of Object.entries(SHAPE)) {
      const member = this.members.get(key);
      if (member?.kind === 'list') continue;
      const parsed = validate(schema, member?.value);
      if (!parsed.success) throw schemaIssueError(EXPORT_REQUEST, parsed.error.issues[0], [key]);
    }
  }

  member(key: string, array: boolean): void {
    const schema = Object.prototype.hasOwnProperty.call(SHAPE, key) ? SHAPE[key] : undefined;
    // A key given twice: the last value counts, as with JSON.parse.
    const member: ListMember | ValueMember =
      array && (schema === undefined || listElement(schema) !== undefined)
        ? { kind: 'list', starts: [], ends: [], keys: isSortedList(key) ? [] : undefined, element: schema && listElement(schema) }
        : { kind: 'value', value: array ? [] : undefined };
    this.members.set(key, member);
    this.current = { key, member };
  }

  value(bytes: Uint8Array, offset: number): void {
    const { key, member } = this.current as { key: string; member: ListMember | ValueMember };
    let value: unknown;
    try {
      value = JSON.parse(this.decoder.decode(bytes));
    } catch (error) {
      throw new SchemaError(EXPORT_REQUEST, l10n.t('the answer is not valid JSON ({0})', (error as Error).message));
    }
    if (member.kind === 'value') {
      // An array the schema checks whole: its elements are gathered (no export list is one today).
      if (Array.isArray(member.value)) (member.value as unknown[]).push(value);
      else member.value = value;
      return;
    }
    const index = member.starts.length;
    if (++this.rows > this.maxRows) throw new TooManyRowsError(this.maxRows);
    if (member.element) {
      const parsed = validate(member.element, value);
      if (!parsed.success) throw schemaIssueError(EXPORT_REQUEST, parsed.error.issues[0], [key, index]);
    }
    member.starts.push(offset);
    member.ends.push(offset + bytes.length);
    member.keys?.push(sortKeysOf(key, value));
    this.noteSegments(key, value);
  }

  /** How many elements the list under `key` holds (0 when it is absent or not a list). */
  count(key: string): number {
    const member = this.members.get(key);
    return member?.kind === 'list' ? member.starts.length : 0;
  }

  /** The sort keys of the elements of the sorted list under `key`, in the order they came. */
  sortKeys(key: string): ReadonlyArray<readonly unknown[]> {
    const member = this.members.get(key);
    return member?.kind === 'list' ? (member.keys ?? []) : [];
  }

  /** The top-level keys, in the order the file lists them. */
  keys(): string[] {
    return memberOrder([...this.members.keys()]);
  }

  /** @internal The member under `key`, for the layout. */
  memberOf(key: string): ListMember | ValueMember | undefined {
    return this.members.get(key);
  }

  private noteSegments(key: string, value: unknown): void {
    if (key === 'segments') {
      const id = (value as { id?: unknown }).id;
      if (typeof id === 'number') this.segmentIds.add(id);
    } else if (key === 'featureStrategies') {
      for (const id of (value as { segments?: unknown[] }).segments ?? []) if (typeof id === 'number') this.segmentIds.add(id);
    }
  }
}

/** A scan failure as the client reports an answer that is not JSON. */
function asAnswerError(error: unknown): unknown {
  if (error instanceof JsonShapeError) return new SchemaError(EXPORT_REQUEST, l10n.t('the answer is not valid JSON ({0})', error.message));
  if (error instanceof JsonTooDeepError) return new SchemaError(EXPORT_REQUEST, l10n.t('the answer nests lists and objects more than {0} levels deep', MAX_DEPTH));
  return error;
}

// ---------------------------------------------------------------------------------------------------------------
// Laying the file out
// ---------------------------------------------------------------------------------------------------------------

/** Size of the blocks read from the answer and written to the file. */
const BLOCK_BYTES = 1 << 20;

/**
 * Reads byte ranges of the answer file, through a window that serves neighbouring elements from one read. What
 * `read` answers is valid until the next call (the window is reused).
 */
class RangeReader {
  private window: Buffer = Buffer.alloc(0);
  private windowStart = 0;
  private readonly buffer = Buffer.allocUnsafe(BLOCK_BYTES);

  constructor(private readonly handle: FileHandle) {}

  async read(start: number, end: number): Promise<Buffer> {
    if (start >= this.windowStart && end <= this.windowStart + this.window.length) {
      return this.window.subarray(start - this.windowStart, end - this.windowStart);
    }
    if (end - start > BLOCK_BYTES) return readFully(this.handle, Buffer.allocUnsafe(end - start), start);
    this.window = await readFully(this.handle, this.buffer, start);
    this.windowStart = start;
    if (this.window.length < end - start) throw new Error(l10n.t('The temporary file of the answer changed while it was read.'));
    return this.window.subarray(0, end - start);
  }
}

/** Reads up to `length` bytes at `position` into `buffer` (fewer at the end of the file). */
async function readFully(handle: FileHandle, buffer: Buffer, position: number, length = buffer.length): Promise<Buffer> {
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/** Text encoded into blocks that are written to the file as they fill. */
class TextOut {
  private readonly block = Buffer.allocUnsafe(BLOCK_BYTES);
  private used = 0;
  /** Bytes written so far. */
  bytes = 0;

  constructor(private readonly handle: FileHandle) {}

  async write(text: string): Promise<void> {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    if (text.length * 3 > BLOCK_BYTES - this.used) {
      await this.flush();
      if (text.length * 3 > BLOCK_BYTES) {
        await this.writeAll(Buffer.from(text, 'utf8'));
        return;
      }
    }
    this.used += this.block.write(text, this.used, 'utf8');
  }

  async flush(): Promise<void> {
    if (this.used === 0) return;
    await this.writeAll(this.block.subarray(0, this.used));
    this.used = 0;
  }

  private async writeAll(data: Buffer): Promise<void> {
    for (let done = 0; done < data.length; ) done += (await this.handle.write(data, done, data.length - done)).bytesWritten;
    this.bytes += data.length;
  }
}

/**
 * Writes the canonical layout of the indexed answer (read from `answer`) to `out`; resolves to the bytes written.
 * Yields to the event loop between slices of work.
 */
export async function writeLaidOut(
  index: ExportIndex,
  answer: FileHandle,
  out: FileHandle,
  options: { signal?: AbortSignal; slices?: TimeSlices } = {},
): Promise<number> {
  const slices = options.slices ?? new TimeSlices();
  const reader = new RangeReader(answer);
  const text = new TextOut(out);
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const parse = async (start: number, end: number): Promise<unknown> => JSON.parse(decoder.decode(await reader.read(start, end)));
  const keys = index.keys();
  if (keys.length === 0) await text.write(FileText.empty);
  for (const [position, key] of keys.entries()) {
    await text.write(FileText.member(position, key));
    const member = index.memberOf(key);
    if (!member) continue;
    if (member.kind === 'value' || member.starts.length === 0) {
      await text.write(valueText(key, member.kind === 'value' ? member.value : []));
      continue;
    }
    const order = await listOrder(key, member, parse, slices);
    for (const [i, element] of order.entries()) {
      if (slices.due()) {
        await slices.next();
        options.signal?.throwIfAborted();
      }
      await text.write(FileText.element(i));
      await text.write(elementText(key, await parse(member.starts[element] as number, member.ends[element] as number)));
    }
    await text.write(FileText.listEnd);
  }
  if (keys.length > 0) await text.write(FileText.end);
  await text.flush();
  return text.bytes;
}

/**
 * The order of a list's elements in the file: a sorted list by its keys, elements whose keys are equal by their
 * laid-out JSON (read back for those only); any other list as it came.
 */
async function listOrder(key: string, member: ListMember, parse: (start: number, end: number) => Promise<unknown>, slices: TimeSlices): Promise<number[]> {
  const order = member.starts.map((_start, i) => i);
  const keys = member.keys;
  if (!keys) return order;
  const compare = (a: number, b: number): number => compareSortKeys(keys[a] as readonly unknown[], keys[b] as readonly unknown[]);
  const sorted = await sortInSlices(order, compare, slices);
  for (let from = 0; from < sorted.length; ) {
    if (slices.due()) await slices.next();
    let to = from + 1;
    while (to < sorted.length && compare(sorted[from] as number, sorted[to] as number) === 0) to++;
    if (to - from > 1) {
      const tied: Array<{ element: number; json: string }> = [];
      for (const element of sorted.slice(from, to)) {
        if (slices.due()) await slices.next();
        tied.push({ element, json: tieText(key, await parse(member.starts[element] as number, member.ends[element] as number)) });
      }
      tied.sort((a, b) => (a.json < b.json ? -1 : a.json > b.json ? 1 : 0));
      tied.forEach((entry, i) => (sorted[from + i] = entry.element));
    }
    from = to;
  }
  return sorted;
}

/** Elements between two looks at the clock in the sort. */
const SORT_CHECK = 4096;

/**
 * `items` sorted by `compare`, stably, yielding whenever a slice is used up (a native sort of 76,000 strategies
 * blocks the editor for 100 ms): the runs already in order are found, then merged two by two. A list that comes in
 * order (a server sends flags, environments and tags by name) costs one pass.
 */
export async function sortInSlices<T>(items: T[], compare: (a: T, b: T) => number, slices: TimeSlices): Promise<T[]> {
  let bounds = [0];
  for (let i = 1; i < items.length; i++) {
    if (i % SORT_CHECK === 0 && slices.due()) await slices.next();
    if (compare(items[i - 1] as T, items[i] as T) > 0) bounds.push(i);
  }
  bounds.push(items.length);
  let from = items;
  let to = new Array<T>(items.length);
  while (bounds.length > 2) {
    const next = [0];
    for (let run = 0; run + 1 < bounds.length; run += 2) {
      const low = bounds[run] as number;
      const middle = bounds[run + 1] as number;
      const high = bounds[run + 2] ?? middle;
      let left = low;
      let right = middle;
      for (let out = low; out < high; out++) {
        if (out % SORT_CHECK === 0 && slices.due()) await slices.next();
        to[out] = (right >= high || (left < middle && compare(from[left] as T, from[right] as T) <= 0) ? from[left++] : from[right++]) as T;
      }
      next.push(high);
    }
    [from, to] = [to, from];
    bounds = next;
  }
  return from;
}
