/**
 * The token rule of `findFlagAt` (the `unleash.hover.matchAnywhere` mode): a flag name in the token under the cursor,
 * whole or split at `.` and `/`, so names in comments and prose are found too.
 */
import { isIdentCode, isSegmentSeparator, isTokenCode } from './codeLine';
import { MAX_FLAG_NAME_LENGTH, type FlagMatch } from './flagMatch';
import type { FlagNameIndex } from './flagNameIndex';
import type { NameTransform } from './nameTransforms';

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
export function findTokenMatch(
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
