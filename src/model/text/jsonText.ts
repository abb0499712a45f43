/**
 * JSON shown to people (variant payloads, setting values in messages), from untrusted text of any size and depth.
 * Every function here is linear in its input and iterative (no recursion, no `JSON.parse`: a payload nested
 * 500,000 deep must not exhaust the stack), and its output stays valid JSON: an invisible character inside a string
 * is written as a JSON escape (`\u202e`), never shown raw, so nothing can hide or reorder the text.
 */
import { hasInvisible, INVISIBLE } from '../../base/invisible';

/** Levels indented; a container nested deeper is written as it is in the source, on the line where it starts. */
export const MAX_JSON_DEPTH = 20;
/** JSON longer than this is not re-indented (the caller shows it as written). */
export const MAX_JSON_TO_INDENT = 1_000_000;
/** Characters indentation may add (newlines, spaces); past them the rest is written as it is in the source. */
export const MAX_INDENT_ADDED = 500_000;

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const LITERALS: Readonly<Record<string, string>> = { t: 'true', f: 'false', n: 'null' };

/** The index after the string that starts (with `"`) at `start`, or -1 when it is not a valid JSON string. */
function stringEnd(text: string, start: number): number {
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
function literalEnd(text: string, start: number): number {
  const word = LITERALS[text[start] as string];
  if (word !== undefined) return text.startsWith(word, start) ? start + word.length : -1;
  NUMBER.lastIndex = start;
  return NUMBER.test(text) ? NUMBER.lastIndex : -1;
}

function isSpace(code: number): boolean {
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

/** Whether `text` is one JSON value (RFC 8259, as `JSON.parse` reads it), checked in one pass with its own stack. */
export function isJson(text: string): boolean {
  /** The open containers: 0x5b `[` or 0x7b `{`. */
  const open: number[] = [];
  let expect: number = Expect.Value;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) {
      i++;
      continue;
    }
    const top = open[open.length - 1];
    switch (expect) {
      case Expect.Value:
      case Expect.ValueOrClose:
        if (code === 0x5d && expect === Expect.ValueOrClose) {
          open.pop();
          i++;
          expect = Expect.Next;
        } else if (code === 0x5b || code === 0x7b) {
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
        if (code === 0x7d && expect === Expect.KeyOrClose) {
          open.pop();
          i++;
          expect = Expect.Next;
        } else {
          i = code === 0x22 ? stringEnd(text, i) : -1;
          expect = Expect.Colon;
        }
        break;
      case Expect.Colon:
        i = code === 0x3a ? i + 1 : -1;
        expect = Expect.Value;
        break;
      case Expect.Next:
        if (code === 0x2c && top !== undefined) {
          i++;
          expect = top === 0x7b ? Expect.Key : Expect.Value;
        } else if ((code === 0x5d && top === 0x5b) || (code === 0x7d && top === 0x7b)) {
          open.pop();
          i++;
        } else {
          return false;
        }
        break;
    }
    if (i < 0) return false;
  }
  return expect === Expect.Next && open.length === 0;
}

/** A character as JSON escapes, one `\uXXXX` per UTF-16 code unit (a tag character takes two). */
function jsonEscape(ch: string): string {
  let out = '';
  for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/** A JSON string token with every invisible character written as a JSON escape (still the same JSON string). */
function escapedString(token: string): string {
  return hasInvisible(token) ? token.replace(INVISIBLE, jsonEscape) : token;
}

/**
 * Valid JSON without the whitespace between tokens, invisible characters escaped, cut once longer than `max`
 * (the caller shortens it for display). Undefined when the text is not JSON or longer than `maxInput`.
 */
export function compactJson(text: string, max: number, maxInput: number): string | undefined {
  if (text.length > maxInput || !isJson(text)) return undefined;
  const out: string[] = [];
  let length = 0;
  let i = 0;
  while (i < text.length && length <= max) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) {
      i++;
      continue;
    }
    const end = code === 0x22 ? stringEnd(text, i) : i + 1;
    const piece = code === 0x22 ? escapedString(text.slice(i, end)) : (text[i] as string);
    out.push(piece);
    length += piece.length;
    i = end;
  }
  return out.join('');
}

/** `\n` and the indentation of each level indented. */
const NEWLINES = Array.from({ length: MAX_JSON_DEPTH + 1 }, (_, depth) => `\n${'  '.repeat(depth)}`);

/**
 * Valid JSON indented by two spaces per level, token by token, so every number and string keeps the exact text the
 * server holds (`JSON.stringify(JSON.parse())` would round big numbers); invisible characters in strings are JSON
 * escapes. A container nested deeper than MAX_JSON_DEPTH, and everything once indentation has added
 * MAX_INDENT_ADDED characters, is written as it is in the source (a lone CR as a line break). Linear in the length
 * of the text. Undefined when the text is not JSON or longer than MAX_JSON_TO_INDENT.
 */
export function prettyJson(text: string): string | undefined {
  if (text.length > MAX_JSON_TO_INDENT || !isJson(text)) return undefined;
  // Concatenation (V8 ropes, flattened once) is faster here than pushing a million pieces and joining them.
  let out = '';
  let depth = 0;
  let added = 0;
  let i = 0;
  while (i < text.length) {
    if (added > MAX_INDENT_ADDED) {
      // Indented enough: the rest as written.
      out += asWritten(text, i, false).text;
      break;
    }
    const code = text.charCodeAt(i);
    if (isSpace(code)) {
      i++;
    } else if (code === 0x22) {
      const end = stringEnd(text, i);
      out += escapedString(text.slice(i, end));
      i = end;
    } else if (code === 0x5b || code === 0x7b) {
      const close = code === 0x5b ? ']' : '}';
      let j = i + 1;
      while (j < text.length && isSpace(text.charCodeAt(j))) j++;
      if (text[j] === close) {
        // An empty object or array stays `{}` / `[]`.
        out += code === 0x5b ? '[]' : '{}';
        i = j + 1;
      } else if (depth >= MAX_JSON_DEPTH) {
        // Too deep: this container as written.
        const copied = asWritten(text, i, true);
        out += copied.text;
        i = copied.end;
      } else {
        depth++;
        out += (code === 0x5b ? '[' : '{') + (NEWLINES[depth] as string);
        added += depth * 2 + 1;
        i++;
      }
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
      out += (NEWLINES[depth] as string) + (code === 0x5d ? ']' : '}');
      added += depth * 2 + 1;
      i++;
    } else if (code === 0x2c) {
      out += `,${NEWLINES[depth] as string}`;
      added += depth * 2 + 1;
      i++;
    } else if (code === 0x3a) {
      out += ': ';
      added++;
      i++;
    } else {
      const end = literalEnd(text, i);
      out += text.slice(i, end);
      i = end;
    }
  }
  return out;
}

/**
 * Valid JSON from `start` as written, strings escaped: the container opening there (`oneContainer`), or all the
 * rest; with the index after it.
 */
function asWritten(text: string, start: number, oneContainer: boolean): { text: string; end: number } {
  let out = '';
  let open = 0;
  let from = start;
  let i = start;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      const end = stringEnd(text, i);
      out += text.slice(from, i) + escapedString(text.slice(i, end));
      i = from = end;
      continue;
    }
    if (code === 0x0d) {
      // A lone CR would show as a visible escape in the details document: a line break, like CR LF.
      out += text.slice(from, i) + (text.charCodeAt(i + 1) === 0x0a ? '' : '\n');
      from = i + 1;
    } else if (code === 0x5b || code === 0x7b) {
      open++;
    } else if ((code === 0x5d || code === 0x7d) && --open === 0 && oneContainer) {
      i++;
      break;
    }
    i++;
  }
  return { text: out + text.slice(from, i), end: i };
}

/** A container `jsonPreview` is writing: its items (array) or keys (object), and how many are written. */
interface OpenValue {
  readonly items?: readonly unknown[];
  readonly object?: Record<string, unknown>;
  readonly keys?: readonly string[];
  written: number;
}

/**
 * A value (from settings) as JSON of at most `max` characters, ending `…` when cut: for a message that quotes it.
 * Written iteratively and only as far as `max`, so a deeply nested value costs no stack and a long one no more than
 * its keys.
 */
export function jsonPreview(value: unknown, max: number): string {
  let out = '';
  const open: OpenValue[] = [];
  let pending: { value: unknown } | undefined = { value };
  while (out.length <= max) {
    if (pending !== undefined) {
      const v = pending.value;
      pending = undefined;
      if (Array.isArray(v)) {
        out += '[';
        open.push({ items: v, written: 0 });
      } else if (typeof v === 'object' && v !== null) {
        out += '{';
        open.push({ object: v as Record<string, unknown>, keys: Object.keys(v), written: 0 });
      } else {
        out += primitive(v, max);
      }
      continue;
    }
    const frame = open[open.length - 1];
    if (frame === undefined) break;
    const count = frame.items?.length ?? frame.keys?.length ?? 0;
    if (frame.written === count) {
      out += frame.items ? ']' : '}';
      open.pop();
      continue;
    }
    if (frame.written > 0) out += ',';
    const key = frame.keys?.[frame.written];
    if (key !== undefined) out += `${primitive(key, max)}:`;
    pending = { value: key !== undefined ? frame.object?.[key] : frame.items?.[frame.written] };
    frame.written++;
  }
  return out.length > max ? `${out.slice(0, Math.max(0, max - 1))}…` : out;
}

/** A string, number, boolean or null as JSON (a string cut to `max` first); `null` for what JSON cannot hold. */
function primitive(value: unknown, max: number): string {
  if (typeof value === 'string') return escapedString(JSON.stringify(value.slice(0, max + 1)));
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return String(value);
  return 'null';
}
