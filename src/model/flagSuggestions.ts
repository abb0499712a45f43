/**
 * "Did you mean …" for a flag name no flag has: the known names at most a few edits away (ignoring case), closest
 * first. Pure; no 'vscode'. Answers are cached per name, so a typo repeated a thousand times costs one search.
 */
import { compare } from './catalog';
import { editDistance } from './tagInput';

/** At most this many suggestions per name. */
export const MAX_SUGGESTIONS = 3;

/** Edits allowed: 1 for names up to 4 characters, 2 up to 12, 3 beyond. */
export function allowedEdits(length: number): number {
  return length <= 4 ? 1 : length <= 12 ? 2 : 3;
}

export class FlagSuggester {
  private readonly lowered: Array<{ name: string; lower: string }>;
  private readonly cache = new Map<string, readonly string[]>();

  constructor(names: Iterable<string>) {
    this.lowered = [...names].map((name) => ({ name, lower: name.toLowerCase() }));
  }

  /** Up to MAX_SUGGESTIONS known names close to `text`, closest first, then by name; never `text` itself. */
  suggest(text: string): readonly string[] {
    const cached = this.cache.get(text);
    if (cached) return cached;
    const target = text.toLowerCase();
    const limit = allowedEdits(text.length);
    const near: Array<{ name: string; distance: number }> = [];
    for (const { name, lower } of this.lowered) {
      if (name === text || Math.abs(lower.length - target.length) > limit) continue;
      const distance = editDistance(target, lower, limit);
      if (distance <= limit) near.push({ name, distance });
    }
    near.sort((a, b) => a.distance - b.distance || compare(a.name, b.name));
    const result = Object.freeze(near.slice(0, MAX_SUGGESTIONS).map((entry) => entry.name));
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(text, result);
    return result;
  }
}
