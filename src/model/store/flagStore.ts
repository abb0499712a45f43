/**
 * The one store that the tree and the hovers read. One listing fills the catalog (listedCatalog.ts); what is read on
 * demand is cached and shared (flagReads.ts); `refresh()` is the only place that throws the caches away. Nothing is
 * read before something needs the flags (`load()`), and nothing re-reads on a timer unless the user set an interval.
 */
import type { Logger } from '../../base/logger';
import type { ListingFailure } from '../../api/listingTypes';
import type { Feature, FeatureSummary, Segment } from '../../api/schemas';
import { Emitter, type CancellationLike } from '../../base/emitter';
import type { Catalog } from './catalog';
import { FlagReads } from './flagReads';
import { requireSource, type FlagSource } from './flagSource';
import type { FlagStatus } from './flagStatus';
import { ListedCatalog } from './listedCatalog';
import { logText } from './logText';
import { PartialRows } from './partialRows';

/**
 * What the store can show: everything but `ready` is a welcome state of the Flags view. `idle`: a source is known
 * but nothing needed its flags yet (nothing was read).
 */
export type StoreState = 'loading' | 'idle' | 'noServer' | 'noToken' | 'unapproved' | 'invalidSettings' | 'error' | 'ready';

export class FlagStore {
  private readonly changed = new Emitter<void>();
  /** The catalog, the source or the state changed: the tree redraws from the root. */
  readonly onDidChange = this.changed.event;
  private readonly reads: FlagReads;
  /** One flag's details arrived (hovers show them next time). */
  readonly onDidLoadDetails: FlagReads['onDidLoadDetails'];
  /** A status changed without a new catalog (details told more, an archived lookup answered): diagnostics follow. */
  readonly onDidChangeStatus: FlagReads['onDidChangeStatus'];

  private source: FlagSource | undefined;
  private environmentChoiceValue: readonly string[] = [];
  private stateValue: StoreState = 'loading';
  private errorValue: unknown;
  private readonly listed = new ListedCatalog();
  private loading: AbortController | undefined;
  /** Something needed the flags (`load()` or `refresh()`): from then on a source is loaded as soon as it is set. */
  private demanded = false;
  /** The listing in flight, for `load()` callers to wait on. */
  private inFlight: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly logger: Pick<Logger, 'info' | 'error'>) {
    this.reads = new FlagReads(this, logger);
    this.onDidLoadDetails = this.reads.onDidLoadDetails;
    this.onDidChangeStatus = this.reads.onDidChangeStatus;
  }

  get state(): StoreState {
    return this.stateValue;
  }

  /** The error behind state 'error' or 'invalidSettings'. */
  get error(): unknown {
    return this.errorValue;
  }

  /** `unleash.environments` of the window: the environments the tree shows, in order (empty: all). */
  get environmentChoice(): readonly string[] {
    return this.environmentChoiceValue;
  }

  /** A new choice of environments redraws the tree (nothing is read again). */
  setEnvironmentChoice(names: readonly string[]): void {
    if (names.length === this.environmentChoiceValue.length && names.every((name, i) => name === this.environmentChoiceValue[i])) return;
    this.environmentChoiceValue = [...names];
    this.changed.fire(undefined);
  }

  get catalog(): Catalog {
    return this.listed.catalog;
  }

  get currentSource(): FlagSource | undefined {
    return this.source;
  }

  /** Projects whose flags the catalog lacks because they could not be read, each with why. */
  get failures(): readonly ListingFailure[] {
    return this.listed.failures;
  }

  /** Why the last refresh failed, while the catalog is the one the source loaded before (out of date). */
  get outOfDate(): unknown {
    return this.listed.outOfDate;
  }

  /** When the catalog finished loading. */
  get refreshedAt(): Date | undefined {
    return this.listed.refreshedAt;
  }

  /**
   * Whether the catalog is a first load's rows so far (the listing goes on): which projects are still to come is not
   * known yet, so the tree groups by project until it is complete.
   */
  get partial(): boolean {
    return this.listed.partial;
  }

  /**
   * Switches to another source (or none, with the reason). The catalog is loaded at once when something already
   * needed the flags; otherwise the store stays `idle` until the first `load()`.
   */
  async setSource(source: FlagSource | undefined, state: StoreState, problem?: unknown): Promise<void> {
    if (source !== this.source) this.reads.forgetProven();
    this.source = source;
    if (!source || !this.demanded) {
      this.loading?.abort();
      this.listed.forget();
      this.reads.clear();
      this.setState(source ? 'idle' : state, problem);
      return;
    }
    await this.refresh();
  }

  /**
   * The first need of the flags: starts loading the source's catalog when nothing did yet. Every call resolves once
   * no listing is in flight any more (at once when the catalog is loaded, failed, or there is no source), so
   * concurrent callers share one load; a caller's `token` ends its own wait, never the load (others may need it).
   */
  async load(token?: CancellationLike): Promise<void> {
    if (!this.demanded) {
      this.demanded = true;
      if (this.source) void this.refresh();
    }
    if (!this.inFlight || token?.isCancellationRequested) return;
    let subscription: { dispose(): void } | undefined;
    const cancelled = new Promise<void>((resolve) => (subscription = token?.onCancellationRequested(resolve)));
    try {
      // A listing superseded meanwhile (a new source) hands over to the next one.
      for (let listing = this.listingInFlight(); listing && !token?.isCancellationRequested; listing = this.listingInFlight()) {
        await Promise.race([listing, cancelled]);
      }
    } finally {
      subscription?.dispose();
    }
  }

  /**
   * Re-reads the catalog and forgets every cached detail. A refresh in flight is superseded. A first load shows the
   * rows as they arrive (at most every `PARTIAL_MS`); a refresh keeps showing the catalog it has until the new one
   * is complete.
   */
  refresh(): Promise<void> {
    this.demanded = true;
    const source = this.source;
    if (!source) return Promise.resolve();
    const listing = this.list(source);
    this.inFlight = listing;
    const settled = () => {
      if (this.inFlight === listing) this.inFlight = undefined;
    };
    listing.then(settled, settled);
    return listing;
  }

  private async list(source: FlagSource): Promise<void> {
    this.loading?.abort();
    const controller = new AbortController();
    this.loading = controller;
    const showsCatalog = this.stateValue === 'ready' && this.listed.catalog.size > 0;
    this.reads.clear();
    this.setState('loading');
    const started = performance.now();
    const partial = showsCatalog ? undefined : new PartialRows((rows) => {
      if (controller.signal.aborted) return;
      void this.listed.showRows(rows).then((shown) => {
        if (shown && !controller.signal.aborted) this.changed.fire(undefined);
      });
    });
    try {
      const features = await source.listFeatures(controller.signal, partial && ((rows) => partial.add(rows)));
      partial?.stop();
      if (controller.signal.aborted) return;
      await this.listed.complete(source, features);
      if (controller.signal.aborted) return;
      this.reads.listed(this.listed.catalog);
      this.logger.info(`Loaded ${features.length} flags from ${source.label} in ${Math.round(performance.now() - started)} ms.`);
      if (source.listingNote) this.logger.error(source.listingNote);
      for (const failure of this.listed.failures) {
        this.logger.error(`The flags of project ${failure.project} could not be read: ${logText(failure.error)}; through the search: ${logText(failure.searchError)}`);
      }
      this.setState('ready');
    } catch (error) {
      partial?.stop();
      if (controller.signal.aborted) return;
      const kept = this.listed.fail(source, error);
      this.logger.error(`Loading flags from ${source.label} failed: ${logText(error)}${kept ? `; still showing the ${kept.size} flags loaded before` : ''}`);
      if (kept) this.setState('ready');
      else this.setState('error', error);
    }
  }

  /** Changes whenever a flag's details are added or forgotten: lets a tree row skip looking when nothing changed. */
  get detailsVersion(): number {
    return this.reads.detailsVersion;
  }

  /** Details already read, without waiting: what a hover shows at once. */
  peekFeature(project: string, name: string): Feature | undefined {
    return this.reads.peekFeature(project, name);
  }

  /** A feature's details, read once and shared; a caller's cancellation reaches the request when no other waits. */
  feature(project: string, name: string, token?: CancellationLike): Promise<Feature> {
    return this.reads.feature(project, name, token);
  }

  /**
   * The one status of a listed flag (flagStatus): its details when read, else a stage an earlier read proved while
   * the listing still says what it said then, else the listing row. `project` as the flag is addressed (the row's).
   */
  status(summary: FeatureSummary, project: string = summary.project ?? ''): FlagStatus {
    return this.reads.status(summary, project);
  }

  /** Changes whenever a listed flag's status changes without a new catalog: lets a cache skip rebuilding. */
  get statusVersion(): number {
    return this.reads.statusVersion;
  }

  /** What an earlier `findArchived` answered: the flag, null for none, undefined when not looked up (yet). */
  peekArchived(name: string): FeatureSummary | null | undefined {
    return this.reads.peekArchived(name);
  }

  /** Whether the lookup of this name among archived flags failed (until the next refresh, it is not asked again). */
  archivedLookupFailed(name: string): boolean {
    return this.reads.archivedLookupFailed(name);
  }

  /** Whether the source can look names up among archived flags (a server; export files list archived flags). */
  get findsArchived(): boolean {
    return this.source?.kind === 'server' && this.source.findArchived !== undefined;
  }

  /**
   * The archived flag of this name, asked once per name until the next refresh; undefined where none is known. Every
   * answer, and a failure, fires onDidChangeStatus (diagnostics waiting for it publish then).
   */
  findArchived(name: string, token?: CancellationLike): Promise<FeatureSummary | undefined> {
    return this.reads.findArchived(name, token);
  }

  /** The segments a strategy uses, read once per strategy id. */
  strategySegments(strategyId: string, token?: CancellationLike): Promise<Segment[]> {
    return this.reads.strategySegments(strategyId, token);
  }

  /** Environment names of the source, for pickers. */
  environments(): Promise<string[]> {
    return requireSource(this.source).listEnvironments();
  }

  /** Re-reads everything every `minutes` (0: never), once something needed the flags. */
  setRefreshInterval(minutes: number): void {
    if (this.timer) clearInterval(this.timer);
    const tick = () => {
      if (this.demanded) void this.refresh();
    };
    this.timer = minutes > 0 ? setInterval(tick, minutes * 60_000) : undefined;
  }

  dispose(): void {
    this.loading?.abort();
    this.setRefreshInterval(0);
    this.changed.dispose();
    this.reads.dispose();
  }

  private listingInFlight(): Promise<void> | undefined {
    return this.inFlight;
  }

  private setState(state: StoreState, error?: unknown): void {
    this.stateValue = state;
    this.errorValue = error;
    this.changed.fire(undefined);
  }
}
