/** What the scanners that read JSON as bytes share: its structural bytes, its whitespace, the refusal of deep nesting. */

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;

/** JSON's whitespace: space, line feed, carriage return, tab. */
export function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Nesting deeper than `maxDepth` levels of arrays and objects: refused before anything is built. */
export class JsonTooDeepError extends Error {
  constructor(readonly maxDepth: number) {
    super(`nested deeper than ${maxDepth} levels`);
    this.name = 'JsonTooDeepError';
  }
}
