/**
 * One copy of each repeated string value. JSON.parse shares keys and very short values; an export repeats longer
 * ones (each flag's name in five lists, strategy names, descriptions): shared, a large file's values take about a
 * quarter less memory. At most `MAX_SHARED` distinct strings are remembered, so the table stays bounded.
 */

/** Bounds of the shared strings: how many, and how long each may be. */
const MAX_SHARED = 500_000;
const MAX_SHARED_LENGTH = 1024;

export class SharedStrings {
  private readonly seen = new Map<string, string>();

  /** The value with its strings (at any depth) replaced by the first equal one seen. */
  share(value: unknown): unknown {
    if (typeof value === 'string') return this.one(value);
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = this.share(value[i]);
    } else {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) record[key] = this.share(record[key]);
    }
    return value;
  }

  private one(text: string): string {
    const known = this.seen.get(text);
    if (known !== undefined) return known;
    if (this.seen.size < MAX_SHARED && text.length <= MAX_SHARED_LENGTH) this.seen.set(text, text);
    return text;
  }
}
