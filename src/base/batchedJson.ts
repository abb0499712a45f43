/**
 * JSON.parse of a top-level object's UTF-8 bytes in native batches, at the bounds a scan found (jsonScan.ts): runs
 * of its small members a batch at a time, and a member larger than a batch built here from batches of its own
 * members. The scan parsed nothing, so each batch is JSON.parse's to refuse: any text that is not valid JSON throws
 * a SyntaxError, though not JSON.parse's own message for the whole text (the caller that needs it parses again).
 */
import * as jsonBytes from './jsonBytes';
import type { TimeSlices } from './timeSlices';

const { CLOSE_ARRAY, CLOSE_OBJECT, COMMA, isSpace, OPEN_ARRAY, OPEN_OBJECT, setMember, textStart } = jsonBytes;

/**
 * About the most bytes one native JSON.parse call reads (a single larger piece excepted): texts of this size parse as
 * fast as one whole text does, larger ones (held outside the young generation) up to half again slower.
 */
const BATCH_BYTES = 64 * 1024;

/** What a caller may add to a batched parse. */
interface BatchOptions {
  /** About the most bytes one JSON.parse call reads. */
  batchBytes?: number;
  /**
   * Sees each batch of the entries of a list built here, with the key of the top-level member it is (a check can
   * then look at them while they are fresh), and `undefined` for an object built here.
   */
  eachBatch?: (key: string, entries: unknown[] | undefined) => void;
}

/** The object the bytes hold; `bounds`: the positions of the brackets and commas of its top two levels, in order. */
export async function parseInBatches(bytes: Uint8Array, bounds: Int32Array, slices: TimeSlices, options: BatchOptions = {}): Promise<Record<string, unknown>> {
  const batchBytes = options.batchBytes ?? BATCH_BYTES;
  const batches = new Batches(bytes, slices, batchBytes);
  const open = bounds[0] as number;
  const close = bounds[bounds.length - 1] as number;
  if (bytes[open] !== OPEN_OBJECT || bytes[close] !== CLOSE_OBJECT) throw notValid();
  batches.blank(textStart(bytes), open);
  batches.blank(close + 1, bytes.length);
  const root: Record<string, unknown> = {};
  // The top level's members, each from after a bound of the top level to the next: a run of small ones is parsed
  // together; a large one whose value is a list or object (whose brackets and commas are the bounds between) is
  // built here.
  let run = open + 1;
  for (let k = 1; k < bounds.length; ) {
    const memberStart = (bounds[k - 1] as number) + 1;
    const holds = bytes[bounds[k] as number] === OPEN_OBJECT || bytes[bounds[k] as number] === OPEN_ARRAY;
    let end = k;
    if (holds) do end++; while (bytes[bounds[end] as number] === COMMA);
    // The bound of the top level after the member (`end`: its value's closing bracket, when it holds one).
    const next = holds ? end + 1 : k;
    const memberEnd = bounds[next] as number;
    if (holds && memberEnd - memberStart > batchBytes) {
      await batches.into(root, run, memberStart - 1, false);
      const key = keyOf(bytes, memberStart, bounds[k] as number);
      setMember(root, key, await batches.container(bounds, k, end, (entries) => options.eachBatch?.(key, entries)));
      batches.blank((bounds[end] as number) + 1, memberEnd);
      run = memberEnd + 1;
    } else if (memberEnd - run > batchBytes) {
      await batches.into(root, run, memberEnd, false);
      run = memberEnd + 1;
    }
    k = next + 1;
  }
  await batches.into(root, run, close, run === open + 1);
  return root;
}

class Batches {
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });

  constructor(
    private readonly bytes: Uint8Array,
    private readonly slices: TimeSlices,
    private readonly batchBytes: number,
  ) {}

  /**
   * Parses the members in bytes `from`–`to` (with the commas between them) and adds them to `target`. None when
   * `from` is past `to`; blank bytes are members missing between two commas, unless `empty` (the whole container).
   */
  async into(target: unknown[] | Record<string, unknown>, from: number, to: number, empty: boolean): Promise<void> {
    if (from > to) return;
    if (this.isBlank(from, to)) {
      if (empty) return;
      throw notValid();
    }
    if (this.slices.due()) await this.slices.next();
    const list = Array.isArray(target);
    const parsed: unknown = JSON.parse(this.bracketed(from, to, list));
    if (list) for (const value of parsed as unknown[]) target.push(value);
    else for (const key of Object.keys(parsed as object)) setMember(target, key, (parsed as Record<string, unknown>)[key]);
  }

  /**
   * Bytes `from`–`to` as the text of a list (or an object) of them: the bounds either side (a bracket or a comma)
   * read as brackets while they are decoded, so that no second copy of the text is made to add them.
   */
  private bracketed(from: number, to: number, list: boolean): string {
    const { bytes } = this;
    const before = bytes[from - 1] as number;
    const after = bytes[to] as number;
    bytes[from - 1] = list ? OPEN_ARRAY : OPEN_OBJECT;
    bytes[to] = list ? CLOSE_ARRAY : CLOSE_OBJECT;
    try {
      return this.decoder.decode(bytes.subarray(from - 1, to + 1));
    } finally {
      bytes[from - 1] = before;
      bytes[to] = after;
    }
  }

  /**
   * The list or object between bounds `open` and `close` (its brackets), from batches of its members; `seen` is told
   * each batch of a list's entries (an object's: undefined, once).
   */
  async container(bounds: Int32Array, open: number, close: number, seen: (entries: unknown[] | undefined) => void): Promise<unknown> {
    const list = this.bytes[bounds[open] as number] === OPEN_ARRAY;
    if (this.bytes[bounds[close] as number] !== (list ? CLOSE_ARRAY : CLOSE_OBJECT)) throw notValid();
    if (!list) seen(undefined);
    const value: unknown[] | Record<string, unknown> = list ? [] : {};
    const add = async (from: number, to: number, empty: boolean) => {
      const before = list ? (value as unknown[]).length : 0;
      await this.into(value, from, to, empty);
      if (list) seen((value as unknown[]).slice(before));
    };
    const first = (bounds[open] as number) + 1;
    let run = first;
    for (let k = open + 1; k < close; k++) {
      const comma = bounds[k] as number;
      if (comma - run > this.batchBytes) {
        await add(run, comma, false);
        run = comma + 1;
      }
    }
    await add(run, bounds[close] as number, run === first);
    return value;
  }

  /** Only spaces between `from` and `to`, or the text is not valid. */
  blank(from: number, to: number): void {
    if (!this.isBlank(from, to)) throw notValid();
  }

  private isBlank(from: number, to: number): boolean {
    for (let i = from; i < to; i++) if (!isSpace(this.bytes[i] as number)) return false;
    return true;
  }
}

/** The key of a top-level member whose value starts at `valueStart`: bytes `from`–`valueStart` are `"key":`. */
function keyOf(bytes: Uint8Array, from: number, valueStart: number): string {
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(from, valueStart));
  const keys = Object.keys(JSON.parse(`{${text}0}`) as object);
  if (keys.length !== 1) throw notValid();
  return keys[0] as string;
}

function notValid(): SyntaxError {
  return new SyntaxError('not valid JSON');
}
