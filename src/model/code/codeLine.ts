/**
 * One line of source code as the flag recognisers read it: character classes (by char code, on the hot path) and
 * the string literals of the line, paired left to right as `findLiteralAt` pairs them.
 */

// ---------------------------------------------------------------------------
// Character classes (char codes, hot path)

const BACKSLASH = 92;
export const SQUOTE = 39;
export const DQUOTE = 34;
export const BACKTICK = 96;

export function isIdentCode(c: number): boolean {
  return (
    (c >= 97 && c <= 122) || // a-z
    (c >= 65 && c <= 90) || // A-Z
    (c >= 48 && c <= 57) || // 0-9
    c === 95 || // _
    c === 36 // $
  );
}

/** Identifier chars plus `-` `.` `/`. */
export function isTokenCode(c: number): boolean {
  return isIdentCode(c) || c === 45 || c === 46 || c === 47;
}

/** `.` and `/`: the boundaries at which a longer token may be split (member access, paths). */
export function isSegmentSeparator(c: number): boolean {
  return c === 46 || c === 47;
}

export function isWordCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

export function isSpaceCode(c: number): boolean {
  return c === 32 || c === 9;
}

export function isBlank(text: string): boolean {
  return text.trim().length === 0;
}

// ---------------------------------------------------------------------------
// String literals

export interface Literal {
  /** Index of the opening quote. */
  open: number;
  /** Content range [start, end); `end` is the index of the closing quote. */
  start: number;
  end: number;
  quote: number;
}

/** Letters that may precede a quote as a string prefix (Python f/r/b/u, C++ u8/L, Rust b...). */
const STRING_PREFIXES = new Set(['f', 'r', 'b', 'u', 'rb', 'br', 'fr', 'rf', 'u8', 'l']);

/**
 * A `'` glued to a preceding word is an apostrophe ("don't", "flags' names", `1'000`)
 * unless that word is a string prefix such as Python's `f'...'`.
 */
export function isApostrophe(line: string, i: number): boolean {
  if (i === 0 || !isWordCode(line.charCodeAt(i - 1))) return false;
  let s = i - 1;
  while (s > 0 && isWordCode(line.charCodeAt(s - 1))) s--;
  if (i - s > 2) return true;
  return !STRING_PREFIXES.has(line.slice(s, i).toLowerCase());
}

/**
 * One bit per quote kind, to remember which kinds a line has left unclosed: once the search after one quote finds no
 * closing one, the search after any later quote of that kind reads the same characters from the same point on (a
 * quote is never the backslash that escapes the next character), so it finds none either and need not run.
 */
export function quoteBit(quote: number): number {
  return quote === SQUOTE ? 1 : quote === DQUOTE ? 2 : 4;
}

export function findClosingQuote(line: string, from: number, quote: number): number {
  const n = line.length;
  for (let j = from; j < n; j++) {
    const c = line.charCodeAt(j);
    if (c === BACKSLASH) j++;
    else if (c === quote) return j;
  }
  return -1;
}

/**
 * The string literal on this line whose quotes enclose `character` (the quotes
 * themselves count, so hovering a quote selects its literal). Quotes are paired
 * left to right; unterminated quotes (multi-line strings, stray apostrophes) are ignored.
 */
export function findLiteralAt(line: string, character: number): Literal | undefined {
  const n = line.length;
  let unclosed = 0;
  let i = 0;
  while (i < n && i <= character) {
    const c = line.charCodeAt(i);
    if (c === SQUOTE || c === DQUOTE || c === BACKTICK) {
      if (c === SQUOTE && isApostrophe(line, i)) {
        i++;
        continue;
      }
      const close = (unclosed & quoteBit(c)) !== 0 ? -1 : findClosingQuote(line, i + 1, c);
      if (close < 0) {
        unclosed |= quoteBit(c);
        i++;
        continue;
      }
      if (character <= close) return { open: i, start: i + 1, end: close, quote: c };
      i = close + 1;
      continue;
    }
    i++;
  }
  return undefined;
}

/** Interpolated or otherwise computed content: never reported as an unknown flag. */
export function isDynamicLiteral(line: string, lit: Literal, text: string): boolean {
  if (text.includes('${') || text.includes('#{')) return true;
  if (lit.quote !== SQUOTE && /\$[A-Za-z_{]/.test(text)) return true; // Kotlin/Groovy/Dart/PHP "$x"
  if (text.includes('{')) {
    const p = lit.open > 0 ? line.charCodeAt(lit.open - 1) : 0;
    const p2 = lit.open > 1 ? line.charCodeAt(lit.open - 2) : 0;
    // f"..." / F"..." / rf"..." (Python), $"..." / $@"..." (C#)
    if (p === 102 || p === 70 || p === 36 || (p === 64 && p2 === 36)) return true;
  }
  return false;
}
