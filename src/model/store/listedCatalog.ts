/**
 * The catalog the store shows, and how current it is: a first load's rows as they arrive, the last complete listing,
 * or after a failed refresh the one the same source loaded before, marked out of date with the reason.
 */
import type { ListingFailure } from '../../api/listingTypes';
import type { FeatureSummary } from '../../api/schemas';
import { Catalog } from './catalog';
import type { FlagSource } from './flagSource';

export class ListedCatalog {
  private catalogValue = Catalog.empty;
  private partialValue = false;
  private failuresValue: readonly ListingFailure[] = [];
  private outOfDateValue: unknown;
  private refreshedAtValue: Date | undefined;
  /** The last listing that completed, and its source: what a failed refresh of the same source keeps showing. */
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

  /** The rows of a first load so far. */
  showRows(rows: readonly FeatureSummary[]): void {
    this.partialValue = true;
    this.catalogValue = new Catalog(rows);
  }

  /** A listing of `source` completed. */
  complete(source: FlagSource, features: readonly FeatureSummary[]): void {
    this.partialValue = false;
    this.catalogValue = new Catalog(features);
    this.failuresValue = source.failedProjects ?? [];
    this.outOfDateValue = undefined;
    this.refreshedAtValue = new Date();
    this.lastGood = { source, catalog: this.catalogValue, failures: this.failuresValue };
  }

  /** A listing of `source` failed: its last complete listing is shown again, marked out of date (and answered). */
  fail(source: FlagSource, error: unknown): Catalog | undefined {
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
    this.catalogValue = Catalog.empty;
    this.failuresValue = [];
    this.outOfDateValue = undefined;
    this.refreshedAtValue = undefined;
    this.lastGood = undefined;
  }
}
