/**
 * Reading JSON text without `JSON.parse`: whether a text is one JSON value, and where a string or literal token ends.
 * Iterative and linear, so a payload nested 500,000 deep cannot exhaust the stack.
 */

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const LITERALS: Readonly<Record<string, string>> = { t: 'true', f: 'false', n: 'null' };

/** The index after the string that starts (with `"`) at `start`, or -1 when it is not a valid JSON string. */
export function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) return i + 1;
    if (code < 0x20) return -1;
    if (code !== 0x5c) continue;
    const next = text[i + 1];
    if (next === 'u') {
      HEX4.lastIndex = i + 2;
      if (!HEX4.test(text)) return -1;
      i += 5;
    } else if (next !== undefined && '"\\/bfnrt'.includes(next)) {
      i += 1;
    } else {
      return -1;
    }
  }
  return -1;
}

/** The index after the number, `true`, `false` or `null` at `start`, or -1. */
export function literalEnd(text: string, start: number): number {
  const word = LITERALS[text[start] as string];
  if (word !== undefined) return text.startsWith(word, start) ? start + word.length : -1;
  NUMBER.lastIndex = start;
  return NUMBER.test(text) ? NUMBER.lastIndex : -1;
}

export function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** What may come next. */
const Expect = {
  Value: 0,
  /** After `[`: a value or `]`. */
  ValueOrClose: 1,
  /** After `{`: a key or `}`. */
  KeyOrClose: 2,
  /** After `,` in an object. */
  Key: 3,
  Colon: 4,
  /** After a value: `,`, the container's closing bracket, or the end. */
  Next: 5,
} as const;

/** Tokens read between two pauses of a check or an indentation done in steps (`jsonCheck`, `prettyJsonPieces`). */
export const JSON_STEP = 4096;

/** Whether `text` is one JSON value (RFC 8259, as `JSON.parse` reads it), checked in one pass with its own stack. */
export function isJson(text: string): boolean {
  const check = jsonCheck(text);
  for (let step = check.next(); ; step = check.next()) if (step.done === true) return step.value;
}

/**
 * `isJson` in steps: pauses (yields) every JSON_STEP tokens, so a caller working in time slices can yield to the event
 * loop between them; returns the verdict.
 */
export function* jsonCheck(text: string): Generator<void, boolean> {
  /** The open containers: 0x5b `[` or 0x7b `{`. */
  const open: number[] = [];
  let expect: number = Expect.Value;
  let i = 0;
  let tokens = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) {
      i++;
      continue;
    }
    if (++tokens % JSON_STEP === 0) yield;
    const top = open[open.length - 1];
    // A closing bracket ends the open container of its kind: right after its opening bracket, or after a value.
    const opening = code === 0x5d ? 0x5b : code === 0x7d ? 0x7b : undefined;
    if (opening !== undefined && opening === top && (expect === Expect.Next || expect === Expect.ValueOrClose || expect === Expect.KeyOrClose)) {
      open.pop();
      i++;
      expect = Expect.Next;
      continue;
    }
    switch (expect) {
      case Expect.Value:
      case Expect.ValueOrClose:
        if (code === 0x5b || code === 0x7b) {
          open.push(code);
          i++;
          expect = code === 0x5b ? Expect.ValueOrClose : Expect.KeyOrClose;
        } else {
          i = code === 0x22 ? stringEnd(text, i) : literalEnd(text, i);
          expect = Expect.Next;
        }
        break;
      case Expect.KeyOrClose:
      case Expect.Key:
        i = code === 0x22 ? stringEnd(text, i) : -1;
        expect = Expect.Colon;
        break;
      case Expect.Colon:
        i = code === 0x3a ? i + 1 : -1;
        expect = Expect.Value;
        break;
      case Expect.Next:
        if (code !== 0x2c || top === undefined) return false;
        i++;
        expect = top === 0x7b ? Expect.Key : Expect.Value;
        break;
    }
    if (i < 0) return false;
  }
  return expect === Expect.Next && open.length === 0;
}
