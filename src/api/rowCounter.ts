/**
 * Counts the rows of an answer shaped `{ …, "features": [row, row, …], … }` as its bytes arrive, without parsing it,
 * so that the client refuses an answer of more rows than it may take before reading the rest. A key written with
 * escapes (`"feat\u0075res"`) is not recognised: the count taken after parsing still applies to such an answer.
 */
import * as jsonBytes from '../base/jsonBytes';

// Bound once: used through the import, each byte of the scan would read them through the module object.
const { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE } = jsonBytes;
const FEATURES = Buffer.from('features');

export class RowCounter {
  /** Rows seen so far. */
  rows = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** In the top-level object, the next string is a key. */
  private expectKey = false;
  /** The string being read is a key of the top-level object; how much of it matched `features` so far. */
  private readingKey = false;
  private keyMatched = 0;
  private keyDiffers = false;
  /** The key just read is `features`: its value is the array of rows when it is one. */
  private featuresValue = false;
  /** Inside the `features` array (depth 2), and whether the next value there starts a row. */
  private inRows = false;
  private expectRow = false;

  /** Reads the next bytes of the answer; answers the rows seen so far. */
  feed(bytes: Uint8Array): number {
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i] as number;
      if (this.inString) {
        this.stringByte(byte);
        continue;
      }
      switch (byte) {
        case 0x20: // space, tab, line feed, carriage return: between tokens
        case 0x09:
        case 0x0a:
        case 0x0d:
          break;
        case QUOTE:
          this.value();
          this.inString = true;
          this.readingKey = this.depth === 1 && this.expectKey;
          this.keyMatched = 0;
          this.keyDiffers = false;
          break;
        case OPEN_OBJECT:
        case OPEN_ARRAY:
          this.value();
          this.depth++;
          if (this.depth === 1) this.expectKey = byte === OPEN_OBJECT;
          if (this.depth === 2 && byte === OPEN_ARRAY && this.featuresValue) {
            this.inRows = true;
            this.expectRow = true;
          }
          this.featuresValue = false;
          break;
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          if (this.depth === 2) this.inRows = false;
          this.depth--;
          break;
        case COMMA:
          if (this.depth === 1) this.expectKey = true;
          if (this.depth === 2 && this.inRows) this.expectRow = true;
          break;
        case COLON:
          if (this.depth === 1) this.expectKey = false;
          break;
        default: // a number, true, false, null
          this.value();
          this.featuresValue = false;
      }
    }
    return this.rows;
  }

  /** A value starts: a row when it starts directly inside the `features` array. */
  private value(): void {
    if (this.depth === 2 && this.inRows && this.expectRow) {
      this.rows++;
      this.expectRow = false;
    }
  }

  private stringByte(byte: number): void {
    if (this.escaped) {
      this.escaped = false;
      this.keyDiffers = true;
    } else if (byte === BACKSLASH) {
      this.escaped = true;
    } else if (byte === QUOTE) {
      this.inString = false;
      if (this.readingKey) this.featuresValue = !this.keyDiffers && this.keyMatched === FEATURES.length;
      else if (this.depth === 1) this.featuresValue = false;
      this.readingKey = false;
    } else if (this.readingKey && !this.keyDiffers) {
      if (this.keyMatched < FEATURES.length && byte === FEATURES[this.keyMatched]) this.keyMatched++;
      else this.keyDiffers = true;
    }
  }
}
