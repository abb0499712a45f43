/**
 * The text of an export file in pieces, shared by the in-memory serializer (exportBytes.ts) and the one that lays out
 * an answer read back from a file (exportStream.ts), so both give the same bytes: each member, each element of a
 * top-level list, and the punctuation between them (JSON.stringify's with two-space indentation).
 */
import { layoutElement, layoutMember } from './exportLayout';

/** JSON.stringify(…, null, 2) of `value` as it reads at `depth` levels of indentation (1: a top-level member). */
function prettyAt(value: unknown, depth: 1 | 2): string {
  if (depth === 1) return JSON.stringify([value], null, 2).slice(4, -2);
  return JSON.stringify([[value]], null, 2).slice(10, -6);
}

/** The last tie-breaker of elements whose keys are equal: the element's laid-out JSON. */
export function tieText(key: string, item: unknown): string {
  return JSON.stringify(layoutElement(key, item)) ?? '';
}

/** The text of one element of the top-level list under `key`, as the file has it (without its indentation). */
export function elementText(key: string, item: unknown): string {
  return prettyAt(layoutElement(key, item), 2);
}

/** The text of a top-level member's value that is not written element by element (not an array, or an empty one). */
export function valueText(key: string, value: unknown): string {
  if (Array.isArray(value) && value.length === 0) return '[]';
  return prettyAt(layoutMember(key, value), 1);
}

/** The punctuation of the file: before member `index` (`key`), around a list's elements, and at the end. */
export const FileText = {
  member: (index: number, key: string): string => `${index === 0 ? '{' : ','}\n  ${JSON.stringify(key)}: `,
  element: (index: number): string => (index === 0 ? '[\n    ' : ',\n    '),
  listEnd: '\n  ]',
  end: '\n}\n',
  empty: '{}\n',
} as const;