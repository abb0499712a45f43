/**
 * JSON shown to people (variant payloads), from untrusted text of any size and depth: compacted or indented token by
 * token, iteratively and in linear time, and still valid JSON: an invisible character inside a string is written as a
 * JSON escape (`\u202e`), never shown raw, so nothing can hide or reorder the text.
 */
import { hasInvisible, INVISIBLE } from '../../base/invisible';
import { isJson, isSpace, JSON_STEP, literalEnd, stringEnd } from './jsonSyntax';

/** Levels indented; a container nested deeper is written as it is in the source, on the line where it starts. */
export const MAX_JSON_DEPTH = 20;
/** JSON longer than this is not re-indented (the caller shows it as written). */
const MAX_JSON_TO_INDENT = 1_000_000;
/** Characters indentation may add (newlines, spaces); past them the rest is written as it is in the source. */
const MAX_INDENT_ADDED = 500_000;

/** A character as JSON escapes, one `\uXXXX` per UTF-16 code unit (a tag character takes two). */
function jsonEscape(ch: string): string {
  let out = '';
  for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/** A JSON string token with every invisible character written as a JSON escape (still the same JSON string). */
export function escapedString(token: string): string {
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
  for (const piece of prettyJsonPieces(text)) out += piece;
  return out;
}

/** Whether `prettyJson` indents a text of this length (longer ones are shown as written). */
export function indentsJson(length: number): boolean {
  return length <= MAX_JSON_TO_INDENT;
}

/** Characters copied as written between two pauses of `prettyJsonPieces`. */
const COPY_STEP = 64 * 1024;

/**
 * `prettyJson`'s text in pieces, one every JSON_STEP tokens (or COPY_STEP characters copied as written), so a caller
 * working in time slices can yield between them. `text` must be JSON (`isJson`, `jsonCheck`).
 */
export function* prettyJsonPieces(text: string): Generator<string, void> {
  let out = '';
  let depth = 0;
  let added = 0;
  let i = 0;
  let tokens = 0;
  while (i < text.length) {
    if (++tokens % JSON_STEP === 0) {
      yield out;
      out = '';
    }
    if (added > MAX_INDENT_ADDED) {
      // Indented enough: the rest as written.
      yield out;
      yield* asWritten(text, i, false);
      return;
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
        yield out;
        out = '';
        i = yield* asWritten(text, i, true);
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
  yield out;
}

/**
 * Valid JSON from `start` as written, strings escaped, in pieces of about COPY_STEP characters: the container opening
 * there (`oneContainer`), or all the rest; returns the index after it.
 */
function* asWritten(text: string, start: number, oneContainer: boolean): Generator<string, number> {
  let out = '';
  let open = 0;
  let from = start;
  let i = start;
  let copied = start;
  while (i < text.length) {
    if (i - copied >= COPY_STEP) {
      yield out + text.slice(from, i);
      out = '';
      from = copied = i;
    }
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
  yield out + text.slice(from, i);
  return i;
}
