/**
 * The rows of one listing (listing.ts): de-duplicated by project and name, a search row's fields winning (they carry
 * lifecycle, tags, segments, dependency type), handed out in name order.
 */
import type { FeatureSummary } from './schemas';
import { compare } from '../base/compare';

export class ListingRows {
  private readonly rows = new Map<string, FeatureSummary>();
  /** Rows a search page gave. */
  private readonly searched = new Set<string>();
  /** Rows project listings / search pages brought (for `method`). */
  private readonly brought = { listing: 0, search: 0 };

  get size(): number {
    return this.rows.size;
  }

  /** Every row came from a search page: a search page has nothing to add. */
  get allSearched(): boolean {
    return this.searched.size >= this.rows.size;
  }

  /** Adds rows; answers those not known before. */
  add(rows: FeatureSummary[], fromSearch: boolean): FeatureSummary[] {
    const fresh: FeatureSummary[] = [];
    for (const row of rows) {
      const key = `${projectOf(row)}\u0000${row.name}`;
      const known = this.rows.get(key);
      // A search row carries more (lifecycle, segments, dependency type): its fields win, whichever arrives first.
      const merged = !known ? row : fromSearch || !this.searched.has(key) ? { ...known, ...row } : { ...row, ...known };
      this.rows.set(key, merged);
      if (fromSearch) this.searched.add(key);
      if (!known) fresh.push(merged);
    }
    this.brought[fromSearch ? 'search' : 'listing'] += rows.length;
    return fresh;
  }

  /** Rows outside the given projects. */
  countOutside(projects: Set<string>): number {
    let count = 0;
    for (const row of this.rows.values()) if (!projects.has(projectOf(row))) count++;
    return count;
  }

  /** How the rows were read: `projects`, `search`, or `projects+search` when both brought rows. */
  method(): string {
    const { listing, search } = this.brought;
    return listing && search ? 'projects+search' : search ? 'search' : 'projects';
  }

  /** Every row, by name, then project. */
  sorted(): FeatureSummary[] {
    const byName = (a: FeatureSummary, b: FeatureSummary) => compare(a.name, b.name) || compare(projectOf(a), projectOf(b));
    const features = [...this.rows.values()];
    // A project listing usually arrives in name order already: checked in one pass, sorted only when not.
    if (!features.every((row, i) => i === 0 || byName(features[i - 1] as FeatureSummary, row) <= 0)) features.sort(byName);
    return features;
  }
}

export function projectOf(row: FeatureSummary): string {
  return row.project ?? '';
}
