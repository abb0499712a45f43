/**
 * The catalog the store shows, and how current it is: a first load's rows as they arrive, the last complete listing,
 * or after a failed refresh the one the same source loaded before, marked out of date with the reason.
 */
import type { ListingFailure } from '../../api/listingTypes';
import type { FeatureSummary } from '../../api/schemas';
import { TimeSlices } from '../../base/timeSlices';
import { Catalog } from './catalog';
import type { FlagSource } from './flagSource';

export class ListedCatalog {
  private catalogValue = Catalog.empty;
  private partialValue = false;
  private failuresValue: readonly ListingFailure[] = [];
  private outOfDateValue: unknown;
  private refreshedAtValue: Date | undefined;
  /** The last listing that completed, and its source: what a failed refresh of the same source keeps showing. */
  /** Counts what was shown, so that a catalog built after something newer is dropped. */
  private generation = 0;
  private lastGood: { source: FlagSource; catalog: Catalog; failures: readonly ListingFailure[] } | undefined;

  get catalog(): Catalog {
    return this.catalogValue;
  }

  /** Whether the catalog is a first load's rows so far (the listing goes on). */
  get partial(): boolean {
    return this.partialValue;
  }

  /** Projects whose flags the catalog lacks because they could not be read, each with why. */
  get failures(): readonly ListingFailure[] {
    return this.failuresValue;
  }

  /** Why the last refresh failed, while the catalog is an earlier one; undefined when it is the latest listing's. */
  get outOfDate(): unknown {
    return this.outOfDateValue;
  }

  /** When the catalog finished loading. */
  get refreshedAt(): Date | undefined {
    return this.refreshedAtValue;
  }

  /**
   * The rows of a first load so far (their catalog built in time slices); false when something newer was shown
   * meanwhile (a later batch, the complete listing, a failure or another source).
   */
  async showRows(rows: readonly FeatureSummary[]): Promise<boolean> {
    const generation = ++this.generation;
    const catalog = await Catalog.build(rows, new TimeSlices());
    if (generation !== this.generation) return false;
    this.partialValue = true;
    this.catalogValue = catalog;
    return true;
  }

  /** A listing of `source` completed: its catalog, built in time slices. */
  async complete(source: FlagSource, features: readonly FeatureSummary[]): Promise<void> {
    const generation = ++this.generation;
    const catalog = await Catalog.build(features, new TimeSlices());
    if (generation !== this.generation) return;
    this.partialValue = false;
    this.catalogValue = catalog;
    this.failuresValue = source.failedProjects ?? [];
    this.outOfDateValue = undefined;
    this.refreshedAtValue = new Date();
    this.lastGood = { source, catalog: this.catalogValue, failures: this.failuresValue };
  }

  /** A listing of `source` failed: its last complete listing is shown again, marked out of date (and answered). */
  fail(source: FlagSource, error: unknown): Catalog | undefined {
    this.generation++;
    this.partialValue = false;
    const kept = this.lastGood?.source === source ? this.lastGood : undefined;
    if (!kept) {
      this.forget();
      return undefined;
    }
    this.catalogValue = kept.catalog;
    this.failuresValue = kept.failures;
    this.outOfDateValue = error;
    return kept.catalog;
  }

  /** Nothing listed (another source, or none). */
  forget(): void {
    this.generation++;
    this.catalogValue = Catalog.empty;
    this.failuresValue = [];
    this.outOfDateValue = undefined;
    this.refreshedAtValue = undefined;
    this.lastGood = undefined;
  }
}
