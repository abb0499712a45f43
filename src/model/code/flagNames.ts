/**
 * Pure recognition of Unleash flag names in a single line of source text.
 *
 * Used by the hover provider: given the line under the mouse and the column,
 * decide whether the developer is pointing at a flag name. Nothing here may
 * import from 'vscode' — this module is unit-tested and benchmarked in plain Node.
 *
 * Cost per lookup: one left-to-right scan of the line up to the cursor (to know
 * whether the cursor is inside a string literal) plus a handful of Set lookups.
 * The number of flags never enters the per-hover cost.
 */

import { BACKTICK, findLiteralAt, isBlank, isDynamicLiteral, isIdentCode, isSegmentSeparator, isTokenCode, type Literal } from './codeLine';
import { applyTransform, type NameTransform } from './nameTransforms';
import { sdkCallFor, sdkCallSet } from './sdkCalls';

export type { NameTransform } from './nameTransforms';

/** Longest text that is ever considered a flag name candidate. */
export const MAX_FLAG_NAME_LENGTH = 200;

export interface FlagMatch {
  /** The flag name as on the server. */
  name: string;
  /** The text in the source (may differ from `name` when a transform was applied). */
  text: string;
  /** [start, end) columns of `text` in the line. */
  start: number;
  end: number;
  /** False only when the text is the first string argument of an SDK call and no such flag exists. */
  known: boolean;
  /** The SDK call (as listed in `sdkCalls`) whose first string argument this is, e.g. 'isEnabled'. */
  inSdkCall?: string;
}

export interface FindFlagOptions {
  /** Naming conventions, tried in order after the raw text. */
  transforms?: NameTransform[];
  /** Callee names whose first string argument is a flag name. Defaults to DEFAULT_SDK_CALLS. */
  sdkCalls?: string[];
}

/**
 * The set of known flag names. Built once per catalog refresh; lookups are Set lookups.
 * Names are matched exactly (no case-folding). Empty names are ignored.
 */
export class FlagNameIndex {
  private readonly set: Set<string>;
  /** Length of the longest name; candidates longer than this are rejected without hashing. */
  readonly maxLength: number;

  constructor(names: Iterable<string>) {
    const set = new Set<string>();
    let max = 0;
    for (const name of names) {
      if (typeof name !== 'string' || name.length === 0) continue;
      set.add(name);
      if (name.length > max) max = name.length;
    }
    this.set = set;
    this.maxLength = max;
  }

  static from(names: Iterable<string>): FlagNameIndex {
    return new FlagNameIndex(names);
  }

  get size(): number {
    return this.set.size;
  }

  has(name: string): boolean {
    return name.length <= this.maxLength && this.set.has(name);
  }

  names(): IterableIterator<string> {
    return this.set.values();
  }

  /** The flag name `text` refers to: the raw text first, then each transform in order. */
  resolve(text: string, transforms: readonly NameTransform[] = []): string | undefined {
    if (this.has(text)) return text;
    for (const t of transforms) {
      const mapped = applyTransform(text, t);
      if (mapped !== undefined && mapped !== text && this.has(mapped)) return mapped;
    }
    return undefined;
  }
}

// ---------------------------------------------------------------------------
// Tokens

/** Known-flag match for line[a, b), unless that range was already tried. */
function tryRange(
  line: string,
  a: number,
  b: number,
  index: FlagNameIndex,
  transforms: readonly NameTransform[],
  tried: number[],
): FlagMatch | undefined {
  if (b <= a || b - a > MAX_FLAG_NAME_LENGTH) return undefined;
  for (let t = 0; t < tried.length; t += 2) if (tried[t] === a && tried[t + 1] === b) return undefined;
  tried.push(a, b);
  const text = line.slice(a, b);
  const name = index.resolve(text, transforms);
  return name === undefined ? undefined : { name, text, start: a, end: b, known: true };
}

/** Max segments considered on each side of the cursor when splitting a dotted/slashed token. */
const SEGMENT_WINDOW = 8;

/**
 * Rule (b): the token under the cursor made of identifier chars plus `-` `.` `/`, restricted
 * to [lo, hi). Candidates, in order: the whole token; sub-ranges of it split at `.`/`/`
 * containing the cursor (longest first: `flags.new_checkout` → `new_checkout`,
 * `feature.a.b.enabled` → `a.b`); the pure identifier under the cursor. Never splits at `-`,
 * so `my-new-checkout-flow-test` does not yield `new-checkout-flow`.
 */
function findTokenMatch(
  line: string,
  character: number,
  index: FlagNameIndex,
  transforms: readonly NameTransform[],
  lo: number,
  hi: number,
): FlagMatch | undefined {
  if (character < lo || character > hi) return undefined;
  let pos = character;
  if (!(pos < hi && isTokenCode(line.charCodeAt(pos)))) {
    // Caret just after a token (VS Code word-range convention).
    if (pos - 1 >= lo && isTokenCode(line.charCodeAt(pos - 1))) pos--;
    else return undefined;
  }
  let s = pos;
  while (s > lo && isTokenCode(line.charCodeAt(s - 1))) s--;
  let e = pos + 1;
  while (e < hi && isTokenCode(line.charCodeAt(e))) e++;

  // Ranges already tried, as flat [a0, b0, a1, b1, ...].
  const tried: number[] = [];

  // 1. Longest token.
  const whole = tryRange(line, s, e, index, transforms, tried);
  if (whole) return whole;

  // 2. Sub-ranges split at '.' and '/'.
  const segStarts: number[] = [];
  const segEnds: number[] = [];
  let hasSeparator = false;
  for (let a = s; a < e; ) {
    if (isSegmentSeparator(line.charCodeAt(a))) {
      hasSeparator = true;
      a++;
      continue;
    }
    let b = a;
    while (b < e && !isSegmentSeparator(line.charCodeAt(b))) b++;
    segStarts.push(a);
    segEnds.push(b);
    a = b;
  }
  if (hasSeparator && segStarts.length > 0) {
    // Segments that a range must span to contain the cursor.
    let left = -1;
    let right = -1;
    for (let k = 0; k < segStarts.length; k++) {
      if (pos >= segStarts[k] && pos < segEnds[k]) {
        left = right = k;
        break;
      }
      if (pos < segStarts[k]) {
        // Cursor on a separator between segment k-1 and k.
        left = k - 1;
        right = k;
        break;
      }
    }
    // Cursor on a trailing separator (`new-checkout-flow.` at the end of a sentence).
    if (left < 0 && right < 0) left = right = segStarts.length - 1;
    if (left >= 0 && right >= 0) {
      const ranges: Array<[number, number]> = [];
      const iMin = Math.max(0, left - SEGMENT_WINDOW);
      const jMax = Math.min(segStarts.length - 1, right + SEGMENT_WINDOW);
      for (let i = iMin; i <= left; i++) {
        for (let j = right; j <= jMax; j++) ranges.push([segStarts[i], segEnds[j]]);
      }
      ranges.sort((x, y) => y[1] - y[0] - (x[1] - x[0]));
      for (const [a, b] of ranges) {
        const m = tryRange(line, a, b, index, transforms, tried);
        if (m) return m;
      }
    }
  }

  // 3. Pure identifier under the cursor.
  if (isIdentCode(line.charCodeAt(pos))) {
    let a = pos;
    while (a > s && isIdentCode(line.charCodeAt(a - 1))) a--;
    let b = pos + 1;
    while (b < e && isIdentCode(line.charCodeAt(b))) b++;
    const m = tryRange(line, a, b, index, transforms, tried);
    if (m) return m;
  }
  return undefined;
}

// ---------------------------------------------------------------------------

/**
 * The flag name under `character` in `line`, or undefined.
 *
 * (a) Inside a string literal ('…', "…", `…`, on this line) the candidate is the whole
 *     literal content. If it is the first argument of an SDK call (`sdkCalls`) and no such
 *     flag exists, the result is `{ known: false, inSdkCall }` (typo catching). Otherwise,
 *     if the content is not a flag, the token rule (b) is applied within the literal.
 * (b) Elsewhere, the token under the cursor (identifier chars plus `-` `.` `/`), then its
 *     `.`/`/`-separated parts containing the cursor, then the pure identifier.
 * Names are matched exactly; each candidate is tried raw, then through each transform.
 * `character` may equal the end of a token (caret just after it).
 */
export function findFlagAt(
  line: string,
  character: number,
  index: FlagNameIndex,
  options?: FindFlagOptions,
): FlagMatch | undefined {
  if (!Number.isInteger(character) || character < 0 || character > line.length) return undefined;
  const transforms = options?.transforms ?? [];

  const lit = findLiteralAt(line, character);
  if (lit === undefined) return findTokenMatch(line, character, index, transforms, 0, line.length);

  return literalMatch(line, lit, index, transforms, options?.sdkCalls) ?? findTokenMatch(line, character, index, transforms, lit.start, lit.end);
}

// ---------------------------------------------------------------------------
// Hover matching that follows code (the hover's default; `findFlagAt` is the `unleash.hover.matchAnywhere` mode)

/**
 * The flag name under `character` as code names a flag, or undefined:
 * (a) a string literal ('…', "…", or `…` without substitutions, on this line) whose whole content is a flag name,
 *     raw or through a transform. As the first argument of an SDK call, a name that is no flag is reported
 *     (`known: false`, the typo hint), exactly as `findFlagAt` does;
 * (b) an identifier that a configured name transform maps to a flag name (`NEW_CHECKOUT` → `new-checkout`); an
 *     identifier is never taken as written, and without transforms none is matched.
 * A word in a comment or in prose is not a flag: `isEnabled` in `// see beta` gets no hover, `"beta"` does.
 */
export function findFlagInCode(
  line: string,
  character: number,
  index: FlagNameIndex,
  options?: FindFlagOptions & { plainScalars?: boolean },
): FlagMatch | undefined {
  if (!Number.isInteger(character) || character < 0 || character > line.length) return undefined;
  const transforms = options?.transforms ?? [];
  const lit = findLiteralAt(line, character);
  if (lit !== undefined) return literalMatch(line, lit, index, transforms, options?.sdkCalls);
  if (options?.plainScalars === true) {
    const scalar = plainScalarMatch(line, character, index, transforms);
    if (scalar) return scalar;
  }
  return transforms.length === 0 ? undefined : transformedIdentifier(line, character, index, transforms);
}

/** `key: value`, `- value`, `key = value` with an optional trailing `# comment`: the value's range. */
const PLAIN_SCALAR = /^(\s*(?:-\s+)?(?:[^\s:#=][^:#=]*?\s*[:=]\s+|[^\s:#=][^:#=]*?=)?)([^\s#'"`][^#]*?)\s*(?:\s#.*)?$/;

/**
 * In configuration files (YAML, properties, .env), where a string needs no quotes: a value that is exactly a flag
 * name (`flag: new-checkout-flow`, `- new-checkout-flow`, `FLAG=new-checkout-flow`). A comment line is not a value.
 */
function plainScalarMatch(
  line: string,
  character: number,
  index: FlagNameIndex,
  transforms: readonly NameTransform[],
): FlagMatch | undefined {
  if (line.length > 4 * MAX_FLAG_NAME_LENGTH || /^\s*#/.test(line)) return undefined;
  const m = PLAIN_SCALAR.exec(line);
  if (!m) return undefined;
  const start = (m[1] as string).length;
  const text = m[2] as string;
  const end = start + text.length;
  if (character < start || character > end || text.length > MAX_FLAG_NAME_LENGTH) return undefined;
  const name = index.resolve(text, transforms);
  return name === undefined ? undefined : { name, text, start, end, known: true };
}

/** Rule (a) of `findFlagInCode` and `findFlagAt`: the whole content of a literal, or nothing. */
function literalMatch(
  line: string,
  lit: Literal,
  index: FlagNameIndex,
  transforms: readonly NameTransform[],
  sdkCalls: string[] | undefined,
): FlagMatch | undefined {
  const text = line.slice(lit.start, lit.end);
  if (text.length === 0 || text.length > MAX_FLAG_NAME_LENGTH || isBlank(text)) return undefined;
  // A template literal with a substitution is computed: its text is not a name.
  if (lit.quote === BACKTICK && text.includes('${')) return undefined;
  const call = sdkCallFor(line, lit, sdkCallSet(sdkCalls));
  const name = index.resolve(text, transforms);
  if (name !== undefined) {
    const match: FlagMatch = { name, text, start: lit.start, end: lit.end, known: true };
    if (call !== undefined) match.inSdkCall = call;
    return match;
  }
  if (call !== undefined && !isDynamicLiteral(line, lit, text)) {
    return { name: text, text, start: lit.start, end: lit.end, known: false, inSdkCall: call };
  }
  return undefined;
}

/** Rule (b) of `findFlagInCode`: the identifier under the cursor, through the transforms only. */
function transformedIdentifier(
  line: string,
  character: number,
  index: FlagNameIndex,
  transforms: readonly NameTransform[],
): FlagMatch | undefined {
  let pos = character;
  if (!(pos < line.length && isIdentCode(line.charCodeAt(pos)))) {
    // Caret just after an identifier (VS Code word-range convention).
    if (pos > 0 && isIdentCode(line.charCodeAt(pos - 1))) pos--;
    else return undefined;
  }
  let start = pos;
  while (start > 0 && isIdentCode(line.charCodeAt(start - 1))) start--;
  let end = pos + 1;
  while (end < line.length && isIdentCode(line.charCodeAt(end))) end++;
  if (end - start > MAX_FLAG_NAME_LENGTH) return undefined;
  const text = line.slice(start, end);
  for (const transform of transforms) {
    const mapped = applyTransform(text, transform);
    if (mapped !== undefined && mapped !== text && index.has(mapped)) return { name: mapped, text, start, end, known: true };
  }
  return undefined;
}
