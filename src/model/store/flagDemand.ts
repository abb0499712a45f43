/**
 * When code needs the flag list. The store reads nothing until something needs the flags (see flagStore.ts), and
 * code needs them only where a flag name can be: these checks need no catalog and send nothing.
 */
import { findLiteralAt } from '../code/codeLine';
import { MAX_ANALYSED_LINE } from '../code/flagReferences';
import { nextCallee, sdkCallLiterals, sdkCallSet } from '../code/sdkCalls';

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
 * first such line; only lines that hold a call's name as an identifier are parsed, and those are found in one pass
 * over the text whatever the number of calls (`nextCallee`).
 */
export function callsSdk(text: string, sdkCalls?: readonly string[]): boolean {
  const calls = sdkCallSet(sdkCalls);
  for (let at = nextCallee(text, 0, calls); at >= 0; ) {
    const start = text.lastIndexOf('\n', at) + 1;
    const newline = text.indexOf('\n', at);
    const end = newline < 0 ? text.length : newline;
    if (end - start <= MAX_ANALYSED_LINE && sdkCallLiterals(text.slice(start, end), { sdkCalls }).length > 0) return true;
    if (newline < 0) break;
    at = nextCallee(text, end + 1, calls);
  }
  return false;
}
