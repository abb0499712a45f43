/**
 * The flag name under the cursor in one line of code, in the hover's two modes: as code names a flag
 * (`findFlagInCode`, the default) or anywhere, prose included (`findFlagAt`). One scan of the line up to the cursor
 * plus a few Set lookups: the number of flags never enters the cost.
 */
import { BACKTICK, findLiteralAt, isBlank, isDynamicLiteral, isIdentCode, type Literal } from './codeLine';
import { MAX_FLAG_NAME_LENGTH, type FlagMatch } from './flagMatch';
import type { FlagNameIndex } from './flagNameIndex';
import { findTokenMatch } from './flagTokens';
import { applyTransform, type NameTransform } from './nameTransforms';
import { sdkCallFor, sdkCallSet } from './sdkCalls';

interface FindFlagOptions {
  /** Naming conventions, tried in order after the raw text. */
  transforms?: NameTransform[];
  /** Callee names whose first string argument is a flag name. Defaults to DEFAULT_SDK_CALLS. */
  sdkCalls?: string[];
}

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
