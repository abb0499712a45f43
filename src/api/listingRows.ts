/**
 * The rows of one listing (listing.ts): de-duplicated by project and name, a search row's fields winning (they carry
 * lifecycle, tags, segments, dependency type), handed out in name order.
 */
import type { FeatureSummary } from './schemas';
import { compare } from '../base/compare';
import { sortInSlices } from '../base/sortInSlices';
import type { TimeSlices } from '../base/timeSlices';

/** Rows looked at between two looks at the clock. */
const CHECK_ROWS = 4096;

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

  /** Every row, by name, then project, in slices (100,000 rows sorted at once would hold the thread). */
  async sorted(slices: TimeSlices): Promise<FeatureSummary[]> {
    const features = [...this.rows.values()];
    // A project listing usually arrives in name order already: checked in one pass, sorted only when not.
    for (let i = 1; i < features.length; i++) {
      if (i % CHECK_ROWS === 0 && slices.due()) await slices.next();
      if (byName(features[i - 1] as FeatureSummary, features[i] as FeatureSummary) > 0) return sortInSlices(features, byName, slices);
    }
    return features;
  }
}

function byName(a: FeatureSummary, b: FeatureSummary): number {
  return compare(a.name, b.name) || compare(projectOf(a), projectOf(b));
}

export function projectOf(row: FeatureSummary): string {
  return row.project ?? '';
}
