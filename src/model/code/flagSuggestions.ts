/**
 * "Did you mean …" for a flag name no flag has: the known names at most a few edits away (ignoring case), closest
 * first, of those that keep Unleash's naming rule. Answers are cached per name, so a typo
 * repeated a thousand times costs one search.
 */
import { isValidFlagName } from './flagNameRule';
import { editDistance } from '../tags/tagInput';
import { compare } from '../../base/compare';

/** At most this many suggestions per name. */
const MAX_SUGGESTIONS = 3;

/** Edits allowed: 1 for names up to 4 characters, 2 up to 12, 3 beyond. */
function allowedEdits(length: number): number {
  return length <= 4 ? 1 : length <= 12 ? 2 : 3;
}

/** Characters are counted in this many buckets (code & 31) for the cheap lower bound. */
const BUCKETS = 32;

interface Known {
  name: string;
  lower: string;
  /** Offset of its bucket counts in `counts`. */
  at: number;
}

export class FlagSuggester {
  /** Known names by length: only lengths within the allowed edits are looked at. */
  private readonly byLength = new Map<number, Known[]>();
  /** Every known name's character counts, BUCKETS per name. */
  private readonly counts: Uint8Array;
  private readonly cache = new Map<string, readonly string[]>();

  constructor(names: Iterable<string>) {
    // Only names that keep Unleash's naming rule are suggested (a quick fix would insert them).
    const list = [...names].filter(isValidFlagName);
    this.counts = new Uint8Array(list.length * BUCKETS);
    list.forEach((name, n) => {
      const lower = name.toLowerCase();
      const at = n * BUCKETS;
      for (let i = 0; i < lower.length; i++) {
        const k = at + (lower.charCodeAt(i) & 31);
        if (this.counts[k]! < 255) this.counts[k]! += 1;
      }
      const known = { name, lower, at };
      const sameLength = this.byLength.get(lower.length);
      if (sameLength) sameLength.push(known);
      else this.byLength.set(lower.length, [known]);
    });
  }

  /** Up to MAX_SUGGESTIONS known names close to `text`, closest first, then by name; never `text` itself. */
  suggest(text: string): readonly string[] {
    const cached = this.cache.get(text);
    if (cached) return cached;
    const target = text.toLowerCase();
    const limit = allowedEdits(text.length);
    const near: Array<{ name: string; distance: number }> = [];
    const wanted = new Int32Array(BUCKETS);
    for (let i = 0; i < target.length; i++) wanted[target.charCodeAt(i) & 31]! += 1;
    const counts = this.counts;
    for (let length = Math.max(0, target.length - limit); length <= target.length + limit; length++) {
      for (const { name, lower, at } of this.byLength.get(length) ?? []) {
        if (name === text) continue;
        // One edit changes the counts by at most 2 in total: names whose counts differ more are too far (most
        // names are ruled out here, without the edit-distance table).
        let apart = 0;
        for (let k = 0; k < BUCKETS; k++) apart += Math.abs(counts[at + k]! - wanted[k]!);
        if (apart > 2 * limit) continue;
        const distance = editDistance(target, lower, limit);
        if (distance <= limit) near.push({ name, distance });
      }
    }
    near.sort((a, b) => a.distance - b.distance || compare(a.name, b.name));
    const result = Object.freeze(near.slice(0, MAX_SUGGESTIONS).map((entry) => entry.name));
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(text, result);
    return result;
  }
}
