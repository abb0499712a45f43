/**
 * A scan of JSON bytes that builds nothing, fed as they arrive: the rows of the top-level `features` list (so that an
 * answer of too many is refused before the rest is read), where the members of the top two levels start and end (so
 * that the bytes can be parsed natively in batches: batchedJson.ts), and the largest of what the intake budgets
 * (nesting, entries of a list or an object, length of a text), so that an answer within them is known to need no cut
 * before it is parsed. Byte lengths stand in for characters: a text of n bytes holds at most n characters.
 */
import { INTAKE_BUDGET } from './intakeBudget';
import * as jsonBytes from './jsonBytes';
import type { TimeSlices } from './timeSlices';

// Bound once: used through the import, each byte of the scan would read them through the module object.
const { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, isSpace, OPEN_ARRAY, OPEN_OBJECT, QUOTE } = jsonBytes;
const FEATURES = new TextEncoder().encode('features');
/** Most bounds recorded (4 bytes each): past them, a scan has no shape (the bytes are parsed without its bounds). */
const MAX_BOUNDS = 2_000_000;
/** Bytes scanned between two looks at the clock (scanInSlices). */
const PIECE_BYTES = 1024 * 1024;

/** What a whole scan found, when the bytes were one well-formed top-level object as far as a scan can tell. */
export interface JsonShape {
  /** Deepest nesting of lists and objects (the top-level object is level 1). */
  depth: number;
  /** Strings, lists, objects and commas: about as many as the values parsing would build. */
  values: number;
  /** Most bytes of one text (a key or a value). */
  longestText: number;
  /** Most entries of a list below the top level's members (the top level's own lists are the caller's). */
  largestList: number;
  /** Most entries of an object below the top level. */
  largestObject: number;
  /** Most bytes between two bounds: the largest piece a batched parse must parse whole. */
  widestPiece: number;
  /** Positions of the brackets and commas of the top two levels, in order (the first and last: the top level's). */
  bounds: Int32Array;
}

export class JsonScan {
  /** Rows of the top-level `features` list so far (a key written with escapes is not recognised). */
  rows = 0;
  private length = 0;
  private depth = 0;
  private maxDepth = 0;
  private values = 0;
  private longestText = 0;
  private largestList = 0;
  private largestObject = 0;
  /** Per open level: commas so far, and 1 for an object. */
  private readonly commas: Int32Array;
  private readonly objects: Uint8Array;
  private bounds = new Int32Array(1024);
  private boundCount = 0;
  /** A string runs on into the next bytes: where it started, and whether the last byte was a lone backslash. */
  private inString = false;
  private stringStart = 0;
  private escaped = false;
  /** A key of the top-level object is being read: how much of it matched `features`, or that it differs. */
  private inKey = false;
  private keyMatched = 0;
  private keyDiffers = false;
  /** The top-level object's next string is a key; the last key read was `features`. */
  private expectKey = false;
  private featuresKey = false;
  /** The level of the `features` list while inside it (else -1), and whether the next value there starts a row. */
  private rowsLevel = -1;
  private expectRow = false;
  /** Something a scan can tell is not one JSON object (or nests past `limit`): no shape then, and no more rows. */
  private broken = false;
  /** More than MAX_BOUNDS bounds: no shape then either. */
  private boundsFull = false;
  private closed = false;

  /** `limit`: the most levels of nesting; past it, no shape. */
  constructor(private readonly limit: number = INTAKE_BUDGET.depth) {
    this.commas = new Int32Array(limit + 1);
    this.objects = new Uint8Array(limit + 1);
  }

  /** Reads the next bytes of the text. */
  feed(chunk: Uint8Array): void {
    const offset = this.length;
    this.length += chunk.length;
    if (this.broken) return;
    let i = this.inString ? this.stringEnd(chunk, 0, offset) : 0;
    const n = chunk.length;
    let depth = this.depth;
    while (i < n) {
      if (depth > 2) {
        i = this.deep(chunk, i, offset);
        depth = this.depth;
        if (this.broken) return;
        continue;
      }
      const byte = chunk[i] as number;
      if (byte === QUOTE) {
        this.values++;
        if (depth === this.rowsLevel) this.row();
        if (depth === 1 && this.expectKey) {
          this.inKey = true;
          this.keyMatched = 0;
          this.keyDiffers = false;
        } else if (depth === 1) this.featuresKey = false;
        this.stringStart = offset + i + 1;
        i = this.stringEnd(chunk, i + 1, offset);
        continue;
      }
      if (byte === COMMA) {
        this.commas[depth]++;
        this.values++;
        if (depth <= 2) this.bound(offset + i);
        if (depth === 1) this.expectKey = this.objects[1] === 1;
        else if (depth === this.rowsLevel) this.expectRow = true;
      } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        this.values++;
        if (depth === this.rowsLevel) this.row();
        if (this.closed || depth === this.limit) return this.fail();
        if (depth === 1) {
          if (this.featuresKey && byte === OPEN_ARRAY) {
            this.rowsLevel = 2;
            this.expectRow = true;
          }
          this.featuresKey = false;
        }
        depth++;
        if (depth > this.maxDepth) this.maxDepth = depth;
        this.commas[depth] = 0;
        this.objects[depth] = byte === OPEN_OBJECT ? 1 : 0;
        if (depth === 1) this.expectKey = byte === OPEN_OBJECT;
        if (depth <= 2) this.bound(offset + i);
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        const object = byte === CLOSE_OBJECT ? 1 : 0;
        if (depth === 0 || this.objects[depth] !== object) return this.fail();
        const entries = (this.commas[depth] as number) + 1;
        if (object === 1 && depth >= 2 && entries > this.largestObject) this.largestObject = entries;
        if (object === 0 && depth >= 3 && entries > this.largestList) this.largestList = entries;
        if (depth <= 2) this.bound(offset + i);
        if (depth === this.rowsLevel) this.rowsLevel = -1;
        depth--;
        if (depth === 0) this.closed = true;
      } else if (byte === COLON) {
        if (depth === 1) this.expectKey = false;
      } else if (!isSpace(byte)) {
        // A number, true, false or null (or a stray byte: the parse refuses it). Before the top level, a byte-order
        // mark's bytes are let through: the parse checks what precedes the top level.
        if (this.closed || (depth === 0 && byte < 0x80)) return this.fail();
        if (depth === this.rowsLevel) this.row();
        if (depth === 1) this.featuresKey = false;
      }
      this.depth = depth;
      i++;
    }
    this.depth = depth;
  }

  /**
   * The bytes from `from` while below the top two levels (most of a large answer), with nothing but the budget's
   * counts to keep: the position where the scan is back at level 2, or the chunk's end.
   */
  private deep(chunk: Uint8Array, from: number, offset: number): number {
    const { commas, objects, limit } = this;
    const n = chunk.length;
    let depth = this.depth;
    let values = this.values;
    let longest = this.longestText;
    let i = from;
    while (i < n) {
      const byte = chunk[i] as number;
      if (byte === QUOTE) {
        values++;
        const start = ++i;
        while (i < n) {
          const inner = chunk[i] as number;
          if (inner === QUOTE) break;
          i += inner === BACKSLASH ? 2 : 1;
        }
        if (i >= n) {
          this.inString = true;
          this.escaped = i > n;
          this.stringStart = offset + start;
          break;
        }
        if (i - start > longest) longest = i - start;
      } else if (byte === COMMA) {
        commas[depth]++;
        values++;
      } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        values++;
        if (depth === limit) {
          this.broken = true;
          break;
        }
        depth++;
        if (depth > this.maxDepth) this.maxDepth = depth;
        commas[depth] = 0;
        objects[depth] = byte === OPEN_OBJECT ? 1 : 0;
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        const object = byte === CLOSE_OBJECT ? 1 : 0;
        if (objects[depth] !== object) {
          this.broken = true;
          break;
        }
        const entries = (commas[depth] as number) + 1;
        if (object === 1) {
          if (entries > this.largestObject) this.largestObject = entries;
        } else if (entries > this.largestList) this.largestList = entries;
        if (--depth === 2) {
          i++;
          break;
        }
      }
      i++;
    }
    this.depth = depth;
    this.values = values;
    this.longestText = longest;
    return Math.min(i, n);
  }

  /** The shape, once every byte was fed; undefined when the bytes are not one object as far as the scan can tell. */
  finish(): JsonShape | undefined {
    if (this.broken || this.boundsFull || this.inString || !this.closed || this.objects[1] !== 1) return undefined;
    const bounds = this.bounds.subarray(0, this.boundCount);
    let widestPiece = 0;
    for (let k = 1; k < bounds.length; k++) widestPiece = Math.max(widestPiece, (bounds[k] as number) - (bounds[k - 1] as number));
    return {
      depth: this.maxDepth,
      values: this.values,
      longestText: this.longestText,
      largestList: this.largestList,
      largestObject: this.largestObject,
      widestPiece,
      bounds,
    };
  }

  /** The position after the string whose bytes go on at `from` (the chunk's end when it goes on past it). */
  private stringEnd(chunk: Uint8Array, from: number, offset: number): number {
    const n = chunk.length;
    let i = from;
    if (this.escaped) {
      this.escaped = false;
      this.keyDiffers = true;
      i++;
    }
    if (this.inKey) i = this.keyEnd(chunk, i);
    else {
      while (i < n) {
        const byte = chunk[i] as number;
        if (byte === QUOTE) break;
        i += byte === BACKSLASH ? 2 : 1;
      }
    }
    if (i >= n) {
      this.inString = true;
      this.escaped = i > n;
      return n;
    }
    this.inString = false;
    const length = offset + i - this.stringStart;
    if (length > this.longestText) this.longestText = length;
    if (this.inKey) {
      this.inKey = false;
      this.featuresKey = !this.keyDiffers && this.keyMatched === FEATURES.length;
    }
    return i + 1;
  }

  /** A top-level key's bytes from `from`, matched against `features`: the position of its closing quote, or past the end. */
  private keyEnd(chunk: Uint8Array, from: number): number {
    const n = chunk.length;
    let i = from;
    while (i < n) {
      const byte = chunk[i] as number;
      if (byte === QUOTE) return i;
      if (byte === BACKSLASH) {
        this.keyDiffers = true;
        i += 2;
        continue;
      }
      if (!this.keyDiffers && this.keyMatched < FEATURES.length && byte === FEATURES[this.keyMatched]) this.keyMatched++;
      else this.keyDiffers = true;
      i++;
    }
    return i;
  }

  /** A value starts in the `features` list: a row when it follows the list's opening or a comma. */
  private row(): void {
    if (!this.expectRow) return;
    this.rows++;
    this.expectRow = false;
  }

  private bound(position: number): void {
    if (this.boundCount === MAX_BOUNDS) {
      this.boundsFull = true;
      return;
    }
    if (this.boundCount === this.bounds.length) {
      const grown = new Int32Array(this.bounds.length * 2);
      grown.set(this.bounds);
      this.bounds = grown;
    }
    this.bounds[this.boundCount++] = position;
  }

  private fail(): void {
    this.broken = true;
  }
}

/** The scan of bytes already read, in time slices. */
export async function scanInSlices(bytes: Uint8Array, slices: TimeSlices): Promise<JsonScan> {
  const scan = new JsonScan();
  for (let at = 0; at < bytes.length; at += PIECE_BYTES) {
    if (slices.due()) await slices.next();
    scan.feed(bytes.subarray(at, at + PIECE_BYTES));
  }
  return scan;
}
