/**
 * Where a text uses one flag, by the rule the hovers follow: each place where a spelling of the name occurs is kept
 * only when the hover there would show that flag (a string literal that is exactly the name, an SDK call's first
 * argument, an identifier through a name transform, a plain YAML/.env value; with `matchAnywhere`, any token). So
 * `pay` never matches inside `pay-later` or `apple-pay`, nor a comment word unless hovers match anywhere.
 */
import { isIdentCode } from './codeLine';
import { MAX_FLAG_NAME_LENGTH, type FlagMatch } from './flagMatch';
import type { FlagNameIndex } from './flagNameIndex';
import { findFlagAt, findFlagInCode } from './flagNames';
import type { NameTransform } from './nameTransforms';
import { flagSpellings } from './flagSpellings';
import { MAX_ANALYSED_LINE } from './flagReferences';

interface UsageOptions {
  sdkCalls?: string[];
  transforms?: NameTransform[];
  /** `unleash.hover.matchAnywhere`: names in comments and prose too. */
  matchAnywhere?: boolean;
  /** Configuration files (YAML, .env, properties), where a value needs no quotes. */
  plainScalars?: boolean;
}

interface FlagUsage {
  /** 0-based line, and the [start, end) columns of the text that names the flag. */
  line: number;
  start: number;
  end: number;
  /** The line, for the references view's preview (the caller bounds what it shows). */
  lineText: string;
}

/** Files whose extension makes them configuration files, read as the hovers read YAML and .env documents. */
const PLAIN_SCALAR_FILE = /\.(ya?ml|properties|ini|env|toml)$|(^|\/)\.env(\.[^/]*)?$/i;

export function isPlainScalarFile(path: string): boolean {
  return PLAIN_SCALAR_FILE.test(path);
}

/**
 * Every use of `name` in `text`, in order. `index` is the catalog's name index (a longer flag name that contains this
 * one wins its own literal, as in hovers). Lines longer than the hovers analyse are skipped. Linear in the text:
 * one `indexOf` pass per spelling per line that holds it, and one recognition per occurrence.
 */
export function findFlagUsages(text: string, name: string, index: FlagNameIndex, options: UsageOptions = {}): FlagUsage[] {
  if (name === '' || name.length > MAX_FLAG_NAME_LENGTH) return [];
  const spellings = flagSpellings(name, options.transforms ?? []);
  const usages: FlagUsage[] = [];
  let lineNumber = 0;
  for (let from = 0; from <= text.length; lineNumber++) {
    const end = lineEnd(text, from);
    const line = text.slice(from, end.at);
    from = end.next;
    if (line.length <= MAX_ANALYSED_LINE) collect(line, lineNumber, spellings, name, index, options, usages);
    if (end.next > text.length) break;
  }
  return usages;
}

/** Occurrences of a spelling looked at in one line: past this, a line is names repeated, not code that uses one. */
const MAX_OCCURRENCES_PER_LINE = 1_000;

function collect(line: string, lineNumber: number, spellings: string[], name: string, index: FlagNameIndex, options: UsageOptions, out: FlagUsage[]): void {
  const starts = new Set<number>();
  const found: FlagUsage[] = [];
  let looked = 0;
  for (const spelling of spellings) {
    for (let at = line.indexOf(spelling); at >= 0 && looked < MAX_OCCURRENCES_PER_LINE; at = line.indexOf(spelling, at + 1)) {
      // A use is a whole token or a whole literal: text inside a longer name (`apple-pay`, `pay-later`) is not.
      if (continuesName(line, at - 1) || continuesName(line, at + spelling.length)) continue;
      looked++;
      const match = flagNameAt(line, at + Math.min(1, spelling.length), index, options);
      if (match?.name !== name || match.start > at || match.end < at + spelling.length || starts.has(match.start)) continue;
      starts.add(match.start);
      found.push({ line: lineNumber, start: match.start, end: match.end, lineText: line });
    }
  }
  found.sort((a, b) => a.start - b.start);
  for (const usage of found) out.push(usage);
}

/** Identifier characters and `-`: a name's text next to one of them is part of a longer name. */
function continuesName(line: string, i: number): boolean {
  if (i < 0 || i >= line.length) return false;
  const c = line.charCodeAt(i);
  return isIdentCode(c) || c === 45;
}

/** The flag named at `character` of `line`, by the hovers' rule for these options. */
export function flagNameAt(line: string, character: number, index: FlagNameIndex, options: UsageOptions): FlagMatch | undefined {
  const find = { transforms: options.transforms, sdkCalls: options.sdkCalls };
  return options.matchAnywhere === true
    ? findFlagAt(line, character, index, find)
    : findFlagInCode(line, character, index, { ...find, plainScalars: options.plainScalars === true });
}

/** Where the line starting at `from` ends (`\n`, `\r\n` or `\r`), and where the next one starts. */
function lineEnd(text: string, from: number): { at: number; next: number } {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) return { at: i, next: i + 1 };
    if (c === 13) return { at: i, next: text.charCodeAt(i + 1) === 10 ? i + 2 : i + 1 };
  }
  return { at: text.length, next: text.length + 1 };
}
