/**
 * When code needs the flag list. The store reads nothing until something needs the flags (see flagStore.ts), and
 * code needs them only where a flag name can be: these checks need no catalog and send nothing.
 */
import { findLiteralAt } from '../code/codeLine';
import { MAX_ANALYSED_LINE } from '../code/flagReferences';
import { sdkCallLiterals, sdkCallSet } from '../code/sdkCalls';

interface HoverDemandOptions {
  /** `unleash.hover.nameTransforms`: identifiers can spell flag names. */
  transforms?: readonly unknown[];
  /** `unleash.hover.matchAnywhere`: any word can be a flag name. */
  matchAnywhere?: boolean;
  /** A configuration language whose values need no quotes (YAML, .properties …). */
  plainScalars?: boolean;
}

/**
 * Can a hover at `character` of `line` be on a flag name? A string literal can be; outside literals only when the
 * settings match names there (transforms, match anywhere) or the language's values need no quotes.
 */
export function hoverMayNameFlag(line: string, character: number, options: HoverDemandOptions = {}): boolean {
  if (options.matchAnywhere === true || options.plainScalars === true || (options.transforms?.length ?? 0) > 0) return true;
  return findLiteralAt(line, character) !== undefined;
}

/**
 * Does `text` pass a literal flag name to an SDK call (`isEnabled("…")`, the calls of `sdkCalls`)? Stops at the
 * first such line; lines that do not mention a call's name are not parsed.
 */
export function callsSdk(text: string, sdkCalls?: readonly string[]): boolean {
  const calls = [...sdkCallSet(sdkCalls)];
  if (!calls.some((call) => text.includes(call))) return false;
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(start, end);
    if (line.length <= MAX_ANALYSED_LINE && calls.some((call) => line.includes(call)) && sdkCallLiterals(line, { sdkCalls }).length > 0) {
      return true;
    }
    start = end + 1;
  }
  return false;
}
