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

/** Where the UTF-8 text starts: after a byte-order mark, and a second one (as TextDecoder, then a U+FEFF strip). */
export function textStart(bytes: Uint8Array): number {
  let start = 0;
  for (let i = 0; i < 2; i++) {
    if (bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf) start += 3;
  }
  return start;
}

/**
 * Sets a key even when it is `__proto__`, which plain assignment would turn into a prototype change (JSON.parse makes
 * it an own member). Every other key is assigned plainly: defineProperty on each key would leave objects in V8's slow
 * dictionary mode (slow to lay out and to stringify).
 */
export function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Nesting deeper than `maxDepth` levels of arrays and objects: refused before anything is built. */
export class JsonTooDeepError extends Error {
  constructor(readonly maxDepth: number) {
    super(`nested deeper than ${maxDepth} levels`);
    this.name = 'JsonTooDeepError';
  }
}
