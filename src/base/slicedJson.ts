/**
 * JSON.parse of UTF-8 bytes in time slices, so that a large file never blocks the event loop for long: runs of small
 * complete values go to the native JSON.parse a batch at a time; a container larger than a batch is built here,
 * member by member. The result is JSON.parse's. No Node built-ins: it runs in a browser worker as well.
 */
import * as jsonBytes from './jsonBytes';
import { JsonTooDeepError, setMember, textStart } from './jsonBytes';
import { NotValid, partError } from './jsonPartError';
import { SharedStrings } from './sharedStrings';
import { TimeSlices } from './timeSlices';

interface SlicedParseOptions {
  /** When to yield to the event loop (default: every SLICE_MS). */
  slices?: TimeSlices;
  /** Most bytes one native JSON.parse call reads (a lone larger string or number excepted: it cannot be split). */
  batchBytes?: number;
  /** Most levels of nested arrays and objects. */
  maxDepth?: number;
  /**
   * Largest text whose syntax error is JSON.parse's own (parsed natively whole); a larger one is not (that would hold
   * the whole text and all it built at once).
   */
  exactBytes?: number;
}

// Bound once: used through the import, each byte of the scan would read them through the module object.
const { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, isSpace, OPEN_ARRAY, OPEN_OBJECT, QUOTE } = jsonBytes;

const DEFAULTS = { batchBytes: 64 * 1024, maxDepth: 1000, exactBytes: 16 * 1024 * 1024 } as const;
/** How far the scan goes between two looks at the clock. */
const CHECK_BYTES = 16 * 1024;

/** A container built here (the others are parts of a batch): what it holds so far and where its unread bytes start. */
interface Built {
  /** Its level in the scan (0: the document, a one-element array around the top-level value). */
  readonly depth: number;
  readonly value: unknown[] | Record<string, unknown>;
  /** First byte not yet turned into members. */
  pending: number;
  /** What `pending` follows: the opening bracket, a separating comma, or a member built here. */
  after: 'open' | 'comma' | 'built';
}

/** JSON.parse of the text the bytes hold (UTF-8, byte-order marks skipped), in slices; see the file comment. */
export async function parseJsonSliced(bytes: Uint8Array, options: SlicedParseOptions = {}): Promise<unknown> {
  const start = textStart(bytes);
  try {
    return await new SlicedParser(bytes, start, options).parse();
  } catch (error) {
    if (!(error instanceof NotValid)) throw error;
    // Throws JSON.parse's own error (its message names the position); answers its result if it disagrees with us.
    if (bytes.length - start <= (options.exactBytes ?? DEFAULTS.exactBytes)) return JSON.parse(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(start)));
    throw await partError(bytes, start, error, options.slices ?? new TimeSlices());
  }
}

class SlicedParser {
  /** A U+FEFF inside the text is a character like any other (only those before it are byte-order marks). */
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private readonly slices: TimeSlices;
  private readonly batchBytes: number;
  private readonly maxDepth: number;
  /** Per open level: 1 for an object, 0 for an array; where it opened; its last comma (-1: none yet). */
  private readonly objects: Uint8Array;
  private readonly opens: Int32Array;
  private readonly commas: Int32Array;
  private readonly strings = new SharedStrings();
  /** The containers built here, outermost first (the document is the first). */
  private readonly built: Built[];
  private depth = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly start: number,
    options: SlicedParseOptions,
  ) {
    this.slices = options.slices ?? new TimeSlices();
    this.batchBytes = options.batchBytes ?? DEFAULTS.batchBytes;
    this.maxDepth = options.maxDepth ?? DEFAULTS.maxDepth;
    this.objects = new Uint8Array(this.maxDepth + 1);
    this.opens = new Int32Array(this.maxDepth + 1).fill(start - 1);
    this.commas = new Int32Array(this.maxDepth + 1).fill(-1);
    this.built = [{ depth: 0, value: [], pending: start, after: 'open' }];
  }

  async parse(): Promise<unknown> {
    const { bytes, objects, commas } = this;
    const end = bytes.length;
    let i = this.start;
    let checkAt = i;
    while (i < end) {
      if (i >= checkAt) {
        checkAt = i + CHECK_BYTES;
        if (this.slices.due()) await this.slices.next();
      }
      const byte = bytes[i] as number;
      if (byte === QUOTE) {
        i = this.stringEnd(i);
        continue;
      }
      if (byte === COMMA) {
        commas[this.depth] = i;
        const inner = this.inner();
        if (inner.depth === this.depth && inner.after === 'built') {
          // Only spaces may come between a member built here and its comma.
          this.requireSpace(inner.pending, i);
          inner.pending = i + 1;
          inner.after = 'comma';
        }
      } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        if (this.depth === this.maxDepth) throw new JsonTooDeepError(this.maxDepth);
        this.depth++;
        objects[this.depth] = byte === OPEN_OBJECT ? 1 : 0;
        this.opens[this.depth] = i;
        commas[this.depth] = -1;
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        if (this.depth === 0 || objects[this.depth] !== (byte === CLOSE_OBJECT ? 1 : 0)) throw this.notValid(i);
        if (this.inner().depth === this.depth) this.close(i);
        this.depth--;
      } else {
        i++;
        continue;
      }
      i++;
      this.split(i);
    }
    if (this.depth !== 0) throw this.notValid(end);
    const document = this.inner();
    this.finish(document, end);
    const values = document.value as unknown[];
    if (values.length !== 1) throw this.notValid(end);
    return values[0];
  }

  /** The innermost container built here. */
  private inner(): Built {
    return this.built[this.built.length - 1] as Built;
  }

  /** The position after the string that opens at `quote` (the end of the input when it is not closed). */
  private stringEnd(quote: number): number {
    const { bytes } = this;
    const end = bytes.length;
    let i = quote + 1;
    while (i < end) {
      const byte = bytes[i] as number;
      if (byte === QUOTE) return i + 1;
      i += byte === BACKSLASH ? 2 : 1;
    }
    return end;
  }

  /**
   * Keeps the bytes the innermost built container has not turned into members under a batch: its complete members
   * are parsed, and when one open member alone is larger, that member is built here too (and so on inwards).
   */
  private split(position: number): void {
    for (;;) {
      const inner = this.inner();
      if (position - inner.pending <= this.batchBytes) return;
      const comma = this.commas[inner.depth] as number;
      if (comma >= inner.pending) {
        this.members(inner, inner.pending, comma);
        inner.pending = comma + 1;
        inner.after = 'comma';
      } else if (this.depth > inner.depth) {
        this.open(inner, inner.depth + 1);
      } else {
        return; // one long string or number: parsed whole with what follows it
      }
    }
  }

  /** Starts building the open container at `depth`, a member of `parent`, from what precedes it in the parent. */
  private open(parent: Built, depth: number): void {
    const opened = this.opens[depth] as number;
    const value: unknown[] | Record<string, unknown> = this.objects[depth] === 1 ? {} : [];
    if (parent.after === 'built') throw this.notValid(opened); // two members with no comma between them
    if (Array.isArray(parent.value)) {
      this.requireSpace(parent.pending, opened);
      parent.value.push(value);
    } else {
      setMember(parent.value, this.key(parent.pending, opened), value);
    }
    this.built.push({ depth, value, pending: opened + 1, after: 'open' });
  }

  /** Ends the innermost built container at its closing bracket `close`; its parent goes on after it. */
  private close(close: number): void {
    this.finish(this.inner(), close);
    this.built.pop();
    const parent = this.inner();
    parent.pending = close + 1;
    parent.after = 'built';
  }

  /** Parses what is left of a built container up to `end` (its closing bracket, or the end of the input). */
  private finish(container: Built, end: number): void {
    if (container.after === 'built') this.requireSpace(container.pending, end);
    else if (container.after === 'comma' || !this.isBlank(container.pending, end)) this.members(container, container.pending, end);
  }

  /** Adds the members in bytes `from`–`to` (complete values, with their keys in an object) to `container`. */
  private members(container: Built, from: number, to: number): void {
    // A comma must separate two members: an empty run is `[,` or `,,`.
    if (this.isBlank(from, to)) throw this.notValid(to);
    const text = this.decoder.decode(this.bytes.subarray(from, to));
    const target = container.value;
    try {
      if (Array.isArray(target)) {
        const parsed = JSON.parse(`[${text}]`) as unknown[];
        for (const value of parsed) target.push(this.strings.share(value));
      } else {
        const parsed = JSON.parse(`{${text}}`) as Record<string, unknown>;
        for (const key of Object.keys(parsed)) setMember(target, key, this.strings.share(parsed[key]));
      }
    } catch (error) {
      if (error instanceof SyntaxError) throw this.notValid(to);
      throw error;
    }
  }

  /** The key before a member built here: bytes `from`–`to` must be `"key" :` with spaces around. */
  private key(from: number, to: number): string {
    let i = from;
    while (i < to && isSpace(this.bytes[i] as number)) i++;
    if (this.bytes[i] !== QUOTE) throw this.notValid(to);
    const keyEnd = this.stringEnd(i);
    let colon = keyEnd;
    while (colon < to && isSpace(this.bytes[colon] as number)) colon++;
    if (this.bytes[colon] !== COLON || !this.isBlank(colon + 1, to)) throw this.notValid(to);
    try {
      return JSON.parse(this.decoder.decode(this.bytes.subarray(i, keyEnd))) as string;
    } catch {
      throw this.notValid(to);
    }
  }

  private isBlank(from: number, to: number): boolean {
    for (let i = from; i < to; i++) if (!isSpace(this.bytes[i] as number)) return false;
    return true;
  }

  private requireSpace(from: number, to: number): void {
    if (!this.isBlank(from, to)) throw this.notValid(to);
  }

  /** The failure found at byte `at`: the innermost built container's members from its unread bytes on. */
  private notValid(at: number): NotValid {
    const inner = this.inner();
    const open = inner.depth === 0 ? '' : this.objects[inner.depth] === 1 ? '{' : '[';
    const member = open === '{' ? '"":0' : '0';
    return new NotValid(inner.pending, at, open + (inner.after === 'comma' ? `${member},` : inner.after === 'built' ? member : ''));
  }
}
