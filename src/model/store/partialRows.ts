/** The rows of a first listing as they arrive, redrawn in batches so the tree fills without redrawing per row. */
import type { FeatureSummary } from '../../api/schemas';

/** How often, at most, a first load redraws the rows that arrived so far. */
export const PARTIAL_MS = 150;

/** Rows of a listing in progress, published at once for the first batch and then at most every PARTIAL_MS. */
export class PartialRows {
  private readonly rows: FeatureSummary[] = [];
  private timer: NodeJS.Timeout | undefined;
  private published = false;

  constructor(private readonly publish: (rows: FeatureSummary[]) => void) {}

  add(rows: FeatureSummary[]): void {
    // One by one: a batch may hold more rows than a call can take as arguments.
    for (const row of rows) this.rows.push(row);
    if (!this.published) {
      this.published = true;
      this.publish(this.rows);
    } else {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.publish(this.rows);
      }, PARTIAL_MS);
    }
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
