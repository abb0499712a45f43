/**
 * The set of known flag names that code recognition looks names up in. One per catalog (`Catalog.nameIndex`), shared
 * by hovers, diagnostics, hints, completion and usages.
 */
import { eachInSlices, type TimeSlices } from '../../base/timeSlices';
import { applyTransform, type NameTransform } from './nameTransforms';

/** Names are matched exactly (no case-folding); empty names are ignored. Lookups are Set lookups. */
/** Adds `name` to `set` (empty names are ignored); answers the longest length so far. */
function addName(set: Set<string>, name: string, max: number): number {
  if (typeof name !== 'string' || name.length === 0) return max;
  set.add(name);
  return Math.max(max, name.length);
}

export class FlagNameIndex {
  private readonly set: Set<string>;
  /** Length of the longest name; candidates longer than this are rejected without hashing. */
  readonly maxLength: number;

  constructor(names: Iterable<string>, built?: { set: Set<string>; maxLength: number }) {
    if (built) {
      this.set = built.set;
      this.maxLength = built.maxLength;
      return;
    }
    const set = new Set<string>();
    let max = 0;
    for (const name of names) max = addName(set, name, max);
    this.set = set;
    this.maxLength = max;
  }

  /** The index of `names`, built in time slices. */
  static async build(names: Iterable<string>, slices: TimeSlices): Promise<FlagNameIndex> {
    const set = new Set<string>();
    let max = 0;
    await eachInSlices(names, slices, (name) => (max = addName(set, name, max)));
    return new FlagNameIndex([], { set, maxLength: max });
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
