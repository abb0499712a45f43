/**
 * Every flag name a text reads through an SDK call (the first string argument of `isEnabled`, `getVariant`, …),
 * found with the same recognition as hovers (`sdkCallLiterals`). Cost: one scan per line that
 * holds a quote; the number of flags never enters it (names resolve through a Set).
 */
import type { TimeSlices } from '../../base/timeSlices';
import { MAX_FLAG_NAME_LENGTH } from './flagMatch';
import type { FlagNameIndex } from './flagNameIndex';
import type { NameTransform } from './nameTransforms';
import { sdkCallLiterals } from './sdkCalls';

/** Lines longer than this (minified bundles) are not analysed. */
export const MAX_ANALYSED_LINE = 20_000;

export interface ReferenceOptions {
  /** undefined: the built-in list of SDK calls. */
  sdkCalls?: readonly string[];
  transforms?: readonly NameTransform[];
}

export interface FlagReference {
  /** 0-based line, and the [start, end) columns of the literal's content. */
  line: number;
  start: number;
  end: number;
  /** The text in the code. */
  text: string;
  /** The SDK call reading it. */
  call: string;
  /** The flag name it resolves to (raw, then through the transforms); undefined when no flag has that name. */
  name?: string;
}

const LINE_BREAK = /\r\n|\r|\n/;

/** The flag references of a whole text; dynamic, empty and over-long literals are left out. */
export function findFlagReferences(text: string, index: FlagNameIndex, options: ReferenceOptions = {}): FlagReference[] {
  const lines = text.split(LINE_BREAK);
  const found: FlagReference[] = [];
  for (let line = 0; line < lines.length; line++) referencesOnLine(lines[line] as string, line, index, options, found);
  return found;
}

/** The same, yielding whenever a slice is used up (a document of megabytes never blocks the editor). */
export async function findFlagReferencesInSlices(text: string, index: FlagNameIndex, options: ReferenceOptions, slices: TimeSlices): Promise<FlagReference[]> {
  const lines = text.split(LINE_BREAK);
  const found: FlagReference[] = [];
  for (let line = 0; line < lines.length; line++) {
    if (slices.due()) await slices.next();
    referencesOnLine(lines[line] as string, line, index, options, found);
  }
  return found;
}

function referencesOnLine(content: string, line: number, index: FlagNameIndex, options: ReferenceOptions, found: FlagReference[]): void {
  if (content.length > MAX_ANALYSED_LINE || !hasQuote(content)) return;
  for (const literal of sdkCallLiterals(content, { sdkCalls: options.sdkCalls })) {
    const value = literal.text;
    if (literal.dynamic || value.trim() === '' || value.length > MAX_FLAG_NAME_LENGTH) continue;
    const reference: FlagReference = { line, start: literal.start, end: literal.end, text: value, call: literal.call };
    const name = index.resolve(value, options.transforms ?? []);
    if (name !== undefined) reference.name = name;
    found.push(reference);
  }
}

function hasQuote(line: string): boolean {
  return line.includes('"') || line.includes("'") || line.includes('`');
}
