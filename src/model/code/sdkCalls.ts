/**
 * SDK calls whose first string argument is a flag name: the default list of callee names, and the recognition of
 * such a call around a string literal (`isEnabled('x')`, `client.BooleanValue(ctx, "x", false)`, `enabled? 'x'`…),
 * one literal at a time (hovers) or every literal of a line (diagnostics, completion).
 */
import {
  BACKTICK, DQUOTE, findClosingQuote, isApostrophe, isDynamicLiteral, isIdentCode, isSpaceCode, isWordCode, quoteBit, SQUOTE,
  type Literal,
} from './codeLine';

/**
 * Callee names (the identifier just before `(`) whose first string-literal argument
 * is a flag name, across Unleash SDKs and OpenFeature. Ruby-style names ending in
 * `?` are matched with their `?`; `isEnabled?.(` (JS optional call) matches `isEnabled`.
 */
export const DEFAULT_SDK_CALLS: readonly string[] = Object.freeze([
  // Unleash JS/TS (node, browser proxy client), Java, Kotlin, PHP, Swift, Android, Flutter
  'isEnabled',
  'getVariant',
  'isDisabled',
  // Unleash React / Vue / Svelte
  'useFlag',
  'useFlagStatus',
  'useVariant',
  // Python, Rust, Ruby
  'is_enabled',
  'get_variant',
  'is_enabled?',
  'enabled?',
  'is_disabled?',
  'disabled?',
  // Go, C#
  'IsEnabled',
  'GetVariant',
  'IsEnabledAsync',
  'GetVariantAsync',
  // OpenFeature JS / Java / Kotlin
  'getBooleanValue',
  'getStringValue',
  'getNumberValue',
  'getIntegerValue',
  'getDoubleValue',
  'getObjectValue',
  'getBooleanDetails',
  'getStringDetails',
  'getNumberDetails',
  'getIntegerDetails',
  'getDoubleDetails',
  'getObjectDetails',
  // OpenFeature React
  'useBooleanFlagValue',
  'useStringFlagValue',
  'useNumberFlagValue',
  'useObjectFlagValue',
  'useBooleanFlagDetails',
  'useStringFlagDetails',
  'useNumberFlagDetails',
  'useObjectFlagDetails',
  'useSuspenseFlag',
  // OpenFeature Python
  'get_boolean_value',
  'get_string_value',
  'get_integer_value',
  'get_float_value',
  'get_object_value',
  'get_boolean_details',
  'get_string_details',
  'get_integer_details',
  'get_float_details',
  'get_object_details',
  // OpenFeature Go (flag key after a context argument, see CONTEXT_ARG)
  'BooleanValue',
  'StringValue',
  'IntValue',
  'FloatValue',
  'ObjectValue',
  'BooleanValueDetails',
  'StringValueDetails',
  'IntValueDetails',
  'FloatValueDetails',
  'ObjectValueDetails',
  // OpenFeature .NET
  'GetBooleanValueAsync',
  'GetStringValueAsync',
  'GetIntegerValueAsync',
  'GetDoubleValueAsync',
  'GetObjectValueAsync',
  'GetBooleanDetailsAsync',
  'GetStringDetailsAsync',
  'GetIntegerDetailsAsync',
  'GetDoubleDetailsAsync',
  'GetObjectDetailsAsync',
  // OpenFeature Ruby / PHP
  'fetch_boolean_value',
  'fetch_string_value',
  'fetch_number_value',
  'fetch_integer_value',
  'fetch_float_value',
  'fetch_object_value',
  'fetch_boolean_details',
]);

// ---------------------------------------------------------------------------
// The SDK call around one literal (hovers)

/** Arguments allowed before the flag key: Go-style contexts (`ctx`, `context.Background()`, `r.Context()`). */
const CONTEXT_ARG = /^(?:[A-Za-z_$][\w$]*\.)*(?:ctx|Ctx|context|Context|Background|TODO)(?:\(\))?$/;

/**
 * How far back from a literal its call's other parts are looked for (earlier arguments, type arguments), so that a
 * line costs its length, not its length times its literals.
 */
const MAX_CALL_REACH = 300;

/** Words that, before the callee, mean this is a definition rather than a call. */
const DEFINITION_KEYWORDS = new Set(['function', 'def', 'fun', 'func', 'fn']);

const sdkCallSetCache = new WeakMap<readonly string[], Set<string>>();
const DEFAULT_SDK_CALL_SET = new Set(DEFAULT_SDK_CALLS);

export function sdkCallSet(calls: readonly string[] | undefined): Set<string> {
  if (calls === undefined || calls === DEFAULT_SDK_CALLS) return DEFAULT_SDK_CALL_SET;
  let set = sdkCallSetCache.get(calls);
  if (set === undefined) {
    set = new Set(calls);
    sdkCallSetCache.set(calls, set);
  }
  return set;
}

// ---------------------------------------------------------------------------
// Finding a callee in a whole text, whatever the number of calls

/**
 * The callees of a set of calls as a text search needs them: each name without its `?` or `!` (the identifier a
 * callee is), and a hash of each, so an identifier of the text costs one number lookup before any string is made.
 */
interface CalleeIndex {
  names: Set<string>;
  hashes: Set<number>;
  maxLength: number;
}

const calleeIndexCache = new WeakMap<Set<string>, CalleeIndex>();

/** isIdentCode as a table of the ASCII codes (every identifier character is ASCII), for the scan's inner loop. */
const IDENT = new Uint8Array(128).map((_, c) => (isIdentCode(c) ? 1 : 0));

/** The hash `nextCallee` computes for an identifier as it reads it, one character at a time. */
function identifierHash(name: string): number {
  let hash = 0;
  for (let i = 0; i < name.length; i++) hash = (Math.imul(hash, 31) + name.charCodeAt(i)) | 0;
  return hash;
}

function calleeIndex(calls: Set<string>): CalleeIndex {
  let index = calleeIndexCache.get(calls);
  if (index === undefined) {
    const names = new Set<string>();
    const hashes = new Set<number>();
    let maxLength = 0;
    for (const call of calls) {
      const name = call.endsWith('?') || call.endsWith('!') ? call.slice(0, -1) : call;
      // Only identifier characters can be a callee (calleeBefore): any other name never matches.
      let identifier = name.length > 0;
      for (let i = 0; i < name.length && identifier; i++) identifier = isIdentCode(name.charCodeAt(i));
      if (!identifier) continue;
      names.add(name);
      hashes.add(identifierHash(name));
      maxLength = Math.max(maxLength, name.length);
    }
    index = { names, hashes, maxLength };
    calleeIndexCache.set(calls, index);
  }
  return index;
}

/**
 * Where the first identifier at or after `from` that one of `calls` names starts (`isEnabled`, or `enabled` for
 * `enabled?`), or -1. One pass over the identifiers of the text: the number of calls never enters the cost, so a
 * workspace's long list of calls costs a document no more than the built-in one.
 */
export function nextCallee(text: string, from: number, calls: Set<string>): number {
  const { names, hashes, maxLength } = calleeIndex(calls);
  if (names.size === 0) return -1;
  const n = text.length;
  // An identifier started before `from` is not one that starts at or after it.
  let i = from;
  while (i > 0 && i < n && isIdentCode(text.charCodeAt(i - 1)) && isIdentCode(text.charCodeAt(i))) i++;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (c >= 128 || IDENT[c] === 0) {
      i++;
      continue;
    }
    const start = i;
    let hash = 0;
    do {
      hash = (Math.imul(hash, 31) + c) | 0;
      i++;
    } while (i < n && (c = text.charCodeAt(i)) < 128 && IDENT[c] === 1);
    if (i - start <= maxLength && hashes.has(hash) && names.has(text.slice(start, i))) return start;
  }
  return -1;
}

function skipSpacesBack(line: string, j: number): number {
  while (j >= 0 && isSpaceCode(line.charCodeAt(j))) j--;
  return j;
}

/**
 * Name of the SDK call whose first string argument is `lit`, or undefined.
 * Handles `a.isEnabled('x')`, `isEnabled?.('x')`, `is_enabled?('x')`, `useVariant<T>('x')`,
 * labelled args (`isEnabled(name: "x")`, `isEnabled(toggleName = "x")`), Go contexts
 * (`client.BooleanValue(ctx, "x", false)`) and Ruby's paren-less `enabled? 'x'`.
 * The literal must be the whole argument (`isEnabled('a-' + x)` is not a call with a flag name).
 */
export function sdkCallFor(line: string, lit: Literal, calls: Set<string>): string | undefined {
  if (calls.size === 0) return undefined;

  // What follows the literal must end the argument.
  let k = lit.end + 1;
  while (k < line.length && isSpaceCode(line.charCodeAt(k))) k++;
  if (k < line.length) {
    const after = line[k];
    if ('+.[%*\'"`'.includes(after)) return undefined;
  }

  // Step over a string prefix (f"", r'', $"", @"", b'').
  let j = lit.open - 1;
  for (let p = 0; p < 2 && j >= 0 && 'fFrRbBuU$@'.includes(line[j]); p++) j--;
  const beforeQuote = j;
  j = skipSpacesBack(line, j);

  // Optional argument label: `name: "x"` / `name = "x"`.
  if (j >= 0 && (line[j] === ':' || line[j] === '=')) {
    const op = j;
    if (op > 0 && '=!<>:+-*/'.includes(line[op - 1])) return undefined;
    j = skipSpacesBack(line, op - 1);
    const labelEnd = j;
    while (j >= 0 && isWordCode(line.charCodeAt(j))) j--;
    if (j === labelEnd) return undefined;
    j = skipSpacesBack(line, j);
    if (j < 0 || (line[j] !== '(' && line[j] !== ',')) return undefined;
  }

  if (j >= 0 && line[j] === ',') {
    // Earlier arguments: only context-like ones may precede the flag key.
    let depth = 0;
    let m = j;
    for (; m >= 0 && j - m < MAX_CALL_REACH; m--) {
      const c = line[m];
      if (c === ')' || c === ']' || c === '}') depth++;
      else if (c === '(' || c === '[' || c === '{') {
        if (depth === 0) break;
        depth--;
      } else if (c === '"' || c === "'" || c === '`') return undefined;
    }
    if (m < 0 || line[m] !== '(') return undefined;
    const args = line.slice(m + 1, j).split(',');
    for (const arg of args) if (!CONTEXT_ARG.test(arg.trim())) return undefined;
    return calleeBefore(line, m, calls);
  }
  if (j >= 0 && line[j] === '(') return calleeBefore(line, j, calls);

  // Paren-less call (Ruby, CoffeeScript): `enabled? 'x'`, `is_enabled "x"`.
  if (j >= 0 && j < beforeQuote && (isWordCode(line.charCodeAt(j)) || line[j] === '?')) {
    return calleeBefore(line, j + 1, calls);
  }
  return undefined;
}

/** The callee whose argument list opens at `paren` (or that ends just before it), if listed. */
function calleeBefore(line: string, paren: number, calls: Set<string>): string | undefined {
  let j = skipSpacesBack(line, paren - 1);
  // Generic type arguments: useVariant<string>('x')
  if (j >= 0 && line[j] === '>') {
    const close = j;
    let depth = 0;
    for (; j >= 0 && close - j < MAX_CALL_REACH; j--) {
      if (line[j] === '>') depth++;
      else if (line[j] === '<' && --depth === 0) break;
    }
    if (j < 0 || close - j >= MAX_CALL_REACH) return undefined;
    j = skipSpacesBack(line, j - 1);
  }
  // Optional call: isEnabled?.('x')
  if (j >= 1 && line[j] === '.' && line[j - 1] === '?') j -= 2;
  let suffix = '';
  if (j >= 0 && (line[j] === '?' || line[j] === '!')) {
    suffix = line[j];
    j--;
  }
  const end = j + 1;
  while (j >= 0 && isIdentCode(line.charCodeAt(j))) j--;
  if (j + 1 === end) return undefined;
  const name = line.slice(j + 1, end);

  // `function isEnabled(name = 'x')`, `def is_enabled(name='x')`: a definition, not a call.
  let w = skipSpacesBack(line, j);
  const wordEnd = w + 1;
  while (w >= 0 && isWordCode(line.charCodeAt(w))) w--;
  if (wordEnd > w + 1 && DEFINITION_KEYWORDS.has(line.slice(w + 1, wordEnd))) return undefined;

  if (suffix && calls.has(name + suffix)) return name + suffix;
  if (calls.has(name)) return name;
  return undefined;
}

// ---------------------------------------------------------------------------
// Every SDK-call literal of a line (diagnostics, completion)

/** A string literal that is the flag argument of an SDK call. */
interface SdkCallLiteral {
  /** [start, end) of the literal's content; `end` is the closing quote's index (the line's length if unterminated). */
  start: number;
  end: number;
  text: string;
  /** The quote character: `'`, `"` or `` ` ``. */
  quote: string;
  /** The SDK call, as listed in `sdkCalls`. */
  call: string;
  /** Interpolated or computed content (`${x}`, f-strings): not a flag name to check. */
  dynamic: boolean;
  /** The literal has no closing quote on this line (only with `unterminated: true`). */
  unterminated?: boolean;
}

/**
 * Every string literal of `line` that is the flag argument of an SDK call, left to right, recognised exactly as
 * `findFlagAt` recognises them (same quote pairing, same call rules). With `unterminated`, a last quote that is
 * never closed counts as a literal running to the end of the line (text being typed).
 */
export function sdkCallLiterals(
  line: string,
  options?: { sdkCalls?: readonly string[]; unterminated?: boolean },
): SdkCallLiteral[] {
  const calls = sdkCallSet(options?.sdkCalls);
  const found: SdkCallLiteral[] = [];
  if (calls.size === 0) return found;
  const n = line.length;
  // The quote kinds found unclosed (quoteBit): a line of unclosed quotes is read once, not once per quote.
  let unclosed = 0;
  let i = 0;
  while (i < n) {
    const c = line.charCodeAt(i);
    if ((c !== SQUOTE && c !== DQUOTE && c !== BACKTICK) || (c === SQUOTE && isApostrophe(line, i))) {
      i++;
      continue;
    }
    const kind = quoteBit(c);
    let close = (unclosed & kind) !== 0 ? -1 : findClosingQuote(line, i + 1, c);
    if (close < 0) unclosed |= kind;
    const unterminated = close < 0;
    if (unterminated) {
      if (!options?.unterminated) {
        i++;
        continue;
      }
      close = n;
    }
    const lit: Literal = { open: i, start: i + 1, end: close, quote: c };
    const call = sdkCallFor(line, lit, calls);
    if (call !== undefined) {
      const text = line.slice(lit.start, lit.end);
      const entry: SdkCallLiteral = { start: lit.start, end: lit.end, text, quote: line[i], call, dynamic: isDynamicLiteral(line, lit, text) };
      if (unterminated) entry.unterminated = true;
      found.push(entry);
    }
    if (unterminated) break;
    i = close + 1;
  }
  return found;
}
