/**
 * The members of a JSON document's top-level object, found as its bytes stream in: each member's key, then the bytes
 * of its value, or of each element when the value is an array, with their offset. Only keys are parsed and the
 * structure around values checked, so a document of any size is read holding one value at a time (exportStream.ts).
 */
import { ChunkPieces } from './chunkPieces';
import * as jsonBytes from './jsonBytes';
import { JsonTooDeepError } from './jsonBytes';

export interface MemberSink {
  /** A member of the top-level object begins: its key, and whether its value is an array (its elements follow). */
  member(key: string, array: boolean): void;
  /**
   * A complete value: a member's value that is not an array, or one element of a member's array. `bytes` is valid
   * during the call only (it may be a view of the chunk); `offset` is where it starts in the stream.
   */
  value(bytes: Uint8Array, offset: number): void;
}

/** The bytes are not a JSON object of members (the structure around the values is wrong), found at `offset`. */
export class JsonShapeError extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
  ) {
    super(`${reason} at byte ${offset}`);
    this.name = 'JsonShapeError';
  }
}

// Bound once: used through the import, each byte of the scan would read them through the module object.
const { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, isSpace, OPEN_ARRAY, OPEN_OBJECT, QUOTE } = jsonBytes;
const BOM = [0xef, 0xbb, 0xbf] as const;

/** Where the scan is, between values. */
const enum State {
  Start,
  ObjectOpen,
  ObjectNext,
  Key,
  Colon,
  Value,
  ArrayOpen,
  ArrayNext,
  AfterElement,
  AfterMember,
  Done,
  InValue,
}

/** What kind of value is being read. */
const enum Kind {
  Container,
  String,
  Scalar,
}

export class TopLevelMembers {
  private state = State.Start;
  /** Bytes of the stream before the current chunk. */
  private consumed = 0;
  /** Byte-order mark bytes seen at the very start. */
  private bom = 0;
  /** The key or value that began in an earlier chunk. */
  private readonly pieces = new ChunkPieces();
  /** Offset of the value being read, and what it is. */
  private valueStart = 0;
  private kind = Kind.Scalar;
  private inElement = false;
  private currentKey = '';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });

  constructor(
    private readonly sink: MemberSink,
    /** Most levels of nested arrays and objects, the top-level object and a member's array included. */
    private readonly maxDepth = 64,
  ) {}

  /** Reads one more chunk of the stream; throws JsonShapeError or JsonTooDeepError (and whatever the sink throws). */
  push(chunk: Uint8Array): void {
    const n = chunk.length;
    let i = 0;
    // Where the key or value being read starts in this chunk (0 when it began in an earlier one).
    let from = 0;
    while (i < n) {
      if (this.state === State.InValue) {
        const end = this.scanValue(chunk, i);
        if (end < 0) {
          i = n;
          break;
        }
        this.emitValue(chunk, from, end);
        this.state = this.inElement ? State.AfterElement : State.AfterMember;
        i = end;
        continue;
      }
      if (this.state === State.Key) {
        // The opening quote was read when the key started.
        const end = this.stringEnd(chunk, i);
        if (end < 0) {
          i = n;
          break;
        }
        this.currentKey = this.keyText(chunk, from, end);
        this.state = State.Colon;
        i = end;
        continue;
      }
      const byte = chunk[i] as number;
      if (this.state === State.Start && this.consumed + i === this.bom && byte === BOM[this.bom]) {
        this.bom++;
        i++;
        continue;
      }
      if (isSpace(byte)) {
        i++;
        continue;
      }
      const at = this.consumed + i;
      switch (this.state) {
        case State.Start:
          if (byte !== OPEN_OBJECT) throw new JsonShapeError('not a JSON object', at);
          this.state = State.ObjectOpen;
          i++;
          break;
        case State.ObjectOpen:
        case State.ObjectNext:
          if (byte === CLOSE_OBJECT && this.state === State.ObjectOpen) {
            this.state = State.Done;
            i++;
            break;
          }
          if (byte !== QUOTE) throw new JsonShapeError('a member name was expected', at);
          this.state = State.Key;
          this.inString = true;
          this.escaped = false;
          from = i;
          i++;
          break;
        case State.Colon:
          if (byte !== COLON) throw new JsonShapeError('":" was expected', at);
          this.state = State.Value;
          i++;
          break;
        case State.Value:
          if (byte === OPEN_ARRAY) {
            this.sink.member(this.currentKey, true);
            this.state = State.ArrayOpen;
            i++;
            break;
          }
          this.sink.member(this.currentKey, false);
          from = i;
          this.startValue(byte, at, false);
          break;
        case State.ArrayOpen:
        case State.ArrayNext:
          if (byte === CLOSE_ARRAY && this.state === State.ArrayOpen) {
            this.state = State.AfterMember;
            i++;
            break;
          }
          from = i;
          this.startValue(byte, at, true);
          break;
        case State.AfterElement:
          if (byte === COMMA) this.state = State.ArrayNext;
          else if (byte === CLOSE_ARRAY) this.state = State.AfterMember;
          else throw new JsonShapeError('"," or "]" was expected', at);
          i++;
          break;
        case State.AfterMember:
          if (byte === COMMA) this.state = State.ObjectNext;
          else if (byte === CLOSE_OBJECT) this.state = State.Done;
          else throw new JsonShapeError('"," or "}" was expected', at);
          i++;
          break;
        case State.Done:
          throw new JsonShapeError('nothing may follow the object', at);
      }
    }
    if (this.state === State.InValue || this.state === State.Key) this.pieces.keep(chunk.subarray(from));
    this.consumed += n;
  }

  /** The stream ended: throws when the document is not complete. */
  end(): void {
    if (this.state !== State.Done) throw new JsonShapeError(this.state === State.Start ? 'the answer is empty' : 'the object is not closed', this.consumed);
  }

  private startValue(byte: number, at: number, element: boolean): void {
    this.state = State.InValue;
    this.inElement = element;
    this.valueStart = at;
    this.inString = false;
    this.escaped = false;
    this.depth = 0;
    if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) this.kind = Kind.Container;
    else if (byte === QUOTE) this.kind = Kind.String;
    else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT || byte === COMMA || byte === COLON) throw new JsonShapeError('a value was expected', at);
    else this.kind = Kind.Scalar;
  }

  /** The end (exclusive) of the value being read, from `i` on; -1 when it goes on past this chunk. */
  private scanValue(chunk: Uint8Array, i: number): number {
    const n = chunk.length;
    if (this.kind === Kind.Scalar) {
      for (; i < n; i++) {
        const byte = chunk[i] as number;
        if (isSpace(byte) || byte === COMMA || byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) return i;
      }
      return -1;
    }
    if (this.kind === Kind.String) {
      // The opening quote is the value's first byte: skip it once.
      if (!this.inString && this.depth === 0) {
        this.inString = true;
        this.depth = 1;
        i++;
      }
      return this.stringEnd(chunk, i);
    }
    let depth = this.depth;
    const maxDepth = this.maxDepth - 2;
    for (; i < n; i++) {
      if (this.inString) {
        const end = this.stringEnd(chunk, i);
        if (end < 0) {
          this.depth = depth;
          return -1;
        }
        i = end - 1;
        continue;
      }
      const byte = chunk[i] as number;
      if (byte === QUOTE) {
        this.inString = true;
        this.escaped = false;
      } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        if (++depth > maxDepth) throw new JsonTooDeepError(this.maxDepth);
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        if (--depth === 0) {
          this.depth = 0;
          return i + 1;
        }
      }
    }
    this.depth = depth;
    return -1;
  }

  /** Inside a string, from `i`: the position after its closing quote, or -1 when it goes on past this chunk. */
  private stringEnd(chunk: Uint8Array, i: number): number {
    const n = chunk.length;
    if (this.escaped) {
      if (i >= n) return -1;
      this.escaped = false;
      i++;
    }
    for (; i < n; i++) {
      const byte = chunk[i] as number;
      if (byte === QUOTE) {
        this.inString = false;
        return i + 1;
      }
      if (byte === BACKSLASH) {
        if (i + 1 >= n) {
          this.escaped = true;
          return -1;
        }
        i++;
      }
    }
    return -1;
  }

  private keyText(chunk: Uint8Array, from: number, end: number): string {
    const bytes = this.pieces.join(chunk.subarray(from, end));
    try {
      return JSON.parse(this.decoder.decode(bytes)) as string;
    } catch {
      throw new JsonShapeError('a member name is not a valid JSON string', this.consumed + end);
    }
  }

  private emitValue(chunk: Uint8Array, from: number, end: number): void {
    this.sink.value(this.pieces.join(chunk.subarray(from, end)), this.valueStart);
  }
}
