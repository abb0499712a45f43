/**
 * "Did you mean …" for a flag name no flag has: the known names at most a few edits away (ignoring case), closest
 * first, of those that keep Unleash's naming rule. The names are indexed once per catalog, in time slices, by their
 * letter pairs (bigrams); a name looks only at the names that share one of its rarest pairs, and computes the edit
 * distance of at most MAX_VERIFIED of them. So one name costs a bounded amount whatever the catalog holds, and a
 * document asks for at most MAX_SUGGESTED_PER_DOCUMENT names (flagDiagnostics.ts). Answers are cached per name.
 */
import { compare } from '../../base/compare';
import { editDistance } from '../../base/editDistance';
import { eachInSlices, type TimeSlices } from '../../base/timeSlices';
import { isValidFlagName } from './flagNameRule';

/** At most this many suggestions per name. */
const MAX_SUGGESTIONS = 3;
/** Distinct unknown names of one document (or one file of the workspace check) that get suggestions. */
export const MAX_SUGGESTED_PER_DOCUMENT = 20;
/** Known names whose edit distance to one unknown name is computed, those sharing the most letter pairs first. */
const MAX_VERIFIED = 256;
/** Names longer than this are no typo of a valid flag name (Unleash's rule allows 100 characters, 3 edits). */
const MAX_QUERY = 103;
const MAX_CACHED = 10_000;

/** Edits allowed: 1 for names up to 4 characters, 2 up to 12, 3 beyond. */
function allowedEdits(length: number): number {
  return length <= 4 ? 1 : length <= 12 ? 2 : 3;
}

/** The distinct letter pairs of `^text$` (lower case), as numbers. */
function bigrams(lower: string): number[] {
  const padded = `\u0001${lower}\u0002`;
  const found = new Set<number>();
  for (let i = 0; i + 1 < padded.length; i++) found.add(padded.charCodeAt(i) * 65_536 + padded.charCodeAt(i + 1));
  return [...found];
}

export class FlagSuggester {
  private readonly names: string[] = [];
  private readonly lowers: string[] = [];
  /** Each letter pair: the names (by number) that hold it. */
  private readonly postings = new Map<number, number[]>();
  /** Each length: the names of that length (for names too short for the pairs to rule anything out). */
  private readonly byLength = new Map<number, number[]>();
  private readonly cache = new Map<string, readonly string[]>();
  /** Shared-pair counts of one query, by name number (reset after each). */
  private counts = new Uint16Array(0);

  private constructor() {}

  /** The index of `names`, built in time slices. */
  static async build(names: Iterable<string>, slices: TimeSlices): Promise<FlagSuggester> {
    const suggester = new FlagSuggester();
    // Only names that keep Unleash's naming rule are suggested (a quick fix would insert them).
    await eachInSlices(names, slices, (name) => {
      if (isValidFlagName(name)) suggester.add(name);
    });
    suggester.counts = new Uint16Array(suggester.names.length);
    return suggester;
  }

  private add(name: string): void {
    const id = this.names.length;
    const lower = name.toLowerCase();
    this.names.push(name);
    this.lowers.push(lower);
    for (const pair of bigrams(lower)) {
      const list = this.postings.get(pair);
      if (list) list.push(id);
      else this.postings.set(pair, [id]);
    }
    const sameLength = this.byLength.get(lower.length);
    if (sameLength) sameLength.push(id);
    else this.byLength.set(lower.length, [id]);
  }

  /** Whether `text`'s suggestions are known without work. */
  has(text: string): boolean {
    return this.cache.has(text);
  }

  /** Up to MAX_SUGGESTIONS known names close to `text`, closest first, then by name; never `text` itself. */
  suggest(text: string): readonly string[] {
    const cached = this.cache.get(text);
    if (cached) return cached;
    const result = Object.freeze(text.length > MAX_QUERY ? [] : this.search(text));
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(text, result);
    return result;
  }

  private search(text: string): string[] {
    const target = text.toLowerCase();
    const limit = allowedEdits(text.length);
    const candidates = this.candidates(target, limit);
    const near: Array<{ name: string; distance: number }> = [];
    for (const id of candidates) {
      const name = this.names[id] as string;
      if (name === text) continue;
      const distance = editDistance(target, this.lowers[id] as string, limit);
      if (distance <= limit) near.push({ name, distance });
    }
    near.sort((a, b) => a.distance - b.distance || compare(a.name, b.name));
    return near.slice(0, MAX_SUGGESTIONS).map((entry) => entry.name);
  }

  /**
   * The names worth an edit distance, at most MAX_VERIFIED. Each edit changes at most two letter pairs, so a name
   * within `limit` edits shares all but 2 × limit of the target's pairs, hence one of any 2 × limit + 1 of them: the
   * rarest ones are looked up, and the names sharing the most pairs come first. A target with too few pairs for that
   * (one letter) is compared with the names of nearby lengths.
   */
  private candidates(target: string, limit: number): number[] {
    const pairs = bigrams(target);
    if (pairs.length <= 2 * limit) {
      const near: number[] = [];
      for (let length = Math.max(0, target.length - limit); length <= target.length + limit && near.length < MAX_VERIFIED; length++) {
        for (const id of this.byLength.get(length) ?? []) if (near.push(id) >= MAX_VERIFIED) break;
      }
      return near;
    }
    const lists = pairs.map((pair) => this.postings.get(pair) ?? []).sort((a, b) => a.length - b.length);
    const counts = this.counts;
    const touched: number[] = [];
    for (const list of lists.slice(0, 2 * limit + 1)) {
      for (const id of list) {
        if (Math.abs((this.lowers[id] as string).length - target.length) > limit) continue;
        if (counts[id] === 0) touched.push(id);
        counts[id] = counts[id]! + 1;
      }
    }
    // The names sharing the most of those pairs first (counts are at most 2 × limit + 1: a bucket per count).
    const buckets: number[][] = Array.from({ length: 2 * limit + 2 }, () => []);
    for (const id of touched) {
      buckets[counts[id]!]!.push(id);
      counts[id] = 0;
    }
    const chosen: number[] = [];
    for (let count = buckets.length - 1; count > 0 && chosen.length < MAX_VERIFIED; count--) {
      for (const id of buckets[count]!) if (chosen.push(id) >= MAX_VERIFIED) break;
    }
    return chosen;
  }
}
