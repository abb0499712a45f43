/**
 * The one store that the tree and the hovers read. One listing fills the catalog; a feature's details and a
 * strategy's segments are read on demand, cached, and shared between callers; `refresh()` is the only place that
 * throws the caches away. Nothing re-reads on a timer unless the user set a refresh interval.
 *
 * Nothing is read before something needs the flags: a source set before the first `load()` (or `refresh()`) leaves
 * the store `idle`, so a window that never shows a flag sends no request. From the first demand on, the store
 * follows its source: a new source (a settings change) is loaded at once.
 *
 * A refresh that fails keeps the catalog the source last loaded (the tree, completion and diagnostics go on), marked
 * out of date with the reason (`outOfDate`); only a source that never loaded shows the error state.
 */
import * as l10n from '@vscode/l10n';
import type { Logger } from '../../base/logger';
import { CancelledError } from '../../api/errors';
import type { ListingFailure } from '../../api/listingTypes';
import type { Feature, FeatureSummary, Lifecycle, Segment } from '../../api/schemas';
import { Emitter, type CancellationLike } from '../../base/emitter';
import { Catalog, flagKey } from './catalog';
import type { FlagSource } from './flagSource';
import { flagStatus, type FlagStatus } from './flagStatus';

/** Names remembered as archived or not; past this the memory starts again (typos are unbounded). */
const MAX_ARCHIVED_LOOKUPS = 1_000;
/**
 * Names looked up among archived flags per listing (each a search request, and Unleash 8 allows a client 15 searches
 * a minute, which the listing needs too); past this a name counts as not checked (unknown) until the next refresh.
 */
export const MAX_LOOKUPS_PER_LISTING = 10;

/**
 * What the store can show: everything but `ready` is a welcome state of the Flags view. `idle`: a source is known
 * but nothing needed its flags yet (nothing was read).
 */
export type StoreState = 'loading' | 'idle' | 'noServer' | 'noToken' | 'unapproved' | 'invalidSettings' | 'error' | 'ready';

/**
 * The one store that the tree and the hovers read (imports nothing from vscode: tested in plain Node).
 */
export class FlagStore {
  private readonly changed = new Emitter<void>();
  /** The catalog, the source or the state changed: the tree redraws from the root. */
  readonly onDidChange = this.changed.event;
  private readonly detailsLoaded = new Emitter<{ project: string; name: string }>();
  /** One flag's details arrived (hovers show them next time). */
  readonly onDidLoadDetails = this.detailsLoaded.event;
  private readonly statusChanged = new Emitter<void>();
  /**
   * A status changed without a new catalog: details told more than the listing (a stage the stage list proves), or
   * a lookup among archived flags answered (or failed). Diagnostics, completion and the status bar follow.
   */
  readonly onDidChangeStatus = this.statusChanged.event;

  private source: FlagSource | undefined;
  private environmentChoiceValue: readonly string[] = [];
  private stateValue: StoreState = 'loading';
  private errorValue: unknown;
  private catalogValue = Catalog.empty;
  private partialValue = false;
  private failuresValue: readonly ListingFailure[] = [];
  private outOfDateValue: unknown;
  private refreshedAtValue: Date | undefined;
  /** The last listing that completed, and its source: what a failed refresh of the same source keeps showing. */
  private lastGood: { source: FlagSource; catalog: Catalog; failures: readonly ListingFailure[] } | undefined;
  private readonly details = new Map<string, Feature>();
  private detailsVersionValue = 0;
  private readonly pendingDetails = new SharedReads<Feature>();
  private readonly segments = new Map<string, Segment[]>();
  /**
   * Stages a read of the details proved beyond what the listing says (by flagKey), with the listing's stage then
   * (`listedLifecycle`): kept across a refresh while the listing still says that, forgotten once it says otherwise.
   */
  private readonly proven = new Map<string, { project: string; name: string; listed: string; lifecycle: Lifecycle }>();
  private statusVersionValue = 0;
  /** Names looked up among archived flags: the flag, or null for none. */
  private readonly archived = new Map<string, FeatureSummary | null>();
  /** Names whose lookup among archived flags failed (until the next refresh): no verdict, and not asked again. */
  private readonly archivedFailed = new Set<string>();
  /** Lookups among archived flags sent since the last listing (MAX_LOOKUPS_PER_LISTING). */
  private archivedAsked = 0;
  private readonly pendingArchived = new SharedReads<FeatureSummary | undefined>();
  private readonly pendingSegments = new SharedReads<Segment[]>();
  private loading: AbortController | undefined;
  /** Something needed the flags (`load()` or `refresh()`): from then on a source is loaded as soon as it is set. */
  private demanded = false;
  /** The listing in flight, for `load()` callers to wait on. */
  private inFlight: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly logger: Pick<Logger, 'info' | 'error'>) {}

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
    return this.catalogValue;
  }

  get currentSource(): FlagSource | undefined {
    return this.source;
  }

  /** Projects whose flags the catalog lacks because they could not be read, each with why. */
  get failures(): readonly ListingFailure[] {
    return this.failuresValue;
  }

  /**
   * Why the last refresh failed, while the catalog is the one the source loaded before (out of date); undefined when
   * the catalog is the latest listing's.
   */
  get outOfDate(): unknown {
    return this.outOfDateValue;
  }

  /** When the catalog finished loading. */
  get refreshedAt(): Date | undefined {
    return this.refreshedAtValue;
  }

  /**
   * Switches to another source (or none, with the reason). The catalog is loaded at once when something already
   * needed the flags; otherwise the store stays `idle` until the first `load()`.
   */
  async setSource(source: FlagSource | undefined, state: StoreState, problem?: unknown): Promise<void> {
    // What a read proved holds for the source that answered it.
    if (source !== this.source) this.proven.clear();
    this.source = source;
    if (!source || !this.demanded) {
      this.loading?.abort();
      this.forgetCatalog();
      this.clearCaches();
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
    const showsCatalog = this.stateValue === 'ready' && this.catalogValue.size > 0;
    this.clearCaches();
    this.setState('loading');
    const started = performance.now();
    const partial = showsCatalog ? undefined : new PartialRows((rows) => {
      if (controller.signal.aborted) return;
      this.partialValue = true;
      this.catalogValue = new Catalog(rows);
      this.changed.fire(undefined);
    });
    try {
      const features = await source.listFeatures(controller.signal, partial && ((rows) => partial.add(rows)));
      partial?.stop();
      if (controller.signal.aborted) return;
      this.partialValue = false;
      this.catalogValue = new Catalog(features);
      this.forgetDisproved();
      this.failuresValue = source.failedProjects ?? [];
      this.outOfDateValue = undefined;
      this.refreshedAtValue = new Date();
      this.lastGood = { source, catalog: this.catalogValue, failures: this.failuresValue };
      this.logger.info(`Loaded ${features.length} flags from ${source.label} in ${Math.round(performance.now() - started)} ms.`);
      if (source.listingNote) this.logger.error(source.listingNote);
      for (const failure of this.failuresValue) {
        this.logger.error(`The flags of project ${failure.project} could not be read: ${logText(failure.error)}; through the search: ${logText(failure.searchError)}`);
      }
      this.setState('ready');
    } catch (error) {
      partial?.stop();
      if (controller.signal.aborted) return;
      this.partialValue = false;
      const kept = this.lastGood?.source === source ? this.lastGood : undefined;
      this.logger.error(
        `Loading flags from ${source.label} failed: ${logText(error)}${kept ? `; still showing the ${kept.catalog.size} flags loaded before` : ''}`,
      );
      if (kept) {
        this.catalogValue = kept.catalog;
        this.failuresValue = kept.failures;
        this.outOfDateValue = error;
        this.setState('ready');
        return;
      }
      this.forgetCatalog();
      this.setState('error', error);
    }
  }

  private forgetCatalog(): void {
    this.catalogValue = Catalog.empty;
    this.failuresValue = [];
    this.outOfDateValue = undefined;
    this.refreshedAtValue = undefined;
    this.lastGood = undefined;
  }

  /**
   * Whether the catalog is a first load's rows so far (the listing goes on): which projects are still to come is not
   * known yet, so the tree groups by project until it is complete.
   */
  get partial(): boolean {
    return this.partialValue;
  }

  /** Changes whenever a flag's details are added or forgotten: lets a tree row skip looking when nothing changed. */
  get detailsVersion(): number {
    return this.detailsVersionValue;
  }

  /** Details already read, without waiting: what a hover shows at once. */
  peekFeature(project: string, name: string): Feature | undefined {
    return this.details.get(flagKey(project, name));
  }

  /**
   * A feature's details, read once and shared between callers. A caller's cancellation reaches the request when
   * no other caller still waits for it.
   */
  async feature(project: string, name: string, token?: CancellationLike): Promise<Feature> {
    const key = flagKey(project, name);
    const known = this.details.get(key);
    if (known) return known;
    const source = this.requireSource();
    return this.pendingDetails.join(key, token, async (signal) => {
      const feature = await source.getFeature(project, name, signal);
      if (this.source === source) {
        const summary = this.catalogValue.get(project, name);
        const before = summary && this.status(summary, project);
        this.details.set(key, feature);
        this.prove(project, name, summary, feature);
        this.detailsVersionValue++;
        this.detailsLoaded.fire({ project, name });
        if (summary && before && !sameStatus(before, this.status(summary, project))) this.statusDidChange(true);
      }
      return feature;
    });
  }

  /**
   * The one status of a listed flag (flagStatus): its details when read, else a stage an earlier read proved while
   * the listing still says what it said then, else the listing row. `project` as the flag is addressed (the row's).
   */
  status(summary: FeatureSummary, project: string = summary.project ?? ''): FlagStatus {
    const key = flagKey(project, summary.name);
    const proven = this.proven.get(key);
    return flagStatus(summary, this.details.get(key), proven && proven.listed === listedLifecycle(summary) ? proven.lifecycle : undefined);
  }

  /** Changes whenever a listed flag's status changes without a new catalog: lets a cache skip rebuilding. */
  get statusVersion(): number {
    return this.statusVersionValue;
  }

  /** Remembers (or forgets) what the details say beyond the listing row's stage. */
  private prove(project: string, name: string, summary: FeatureSummary | undefined, feature: Feature): void {
    const key = flagKey(project, name);
    const lifecycle = feature.lifecycle ?? undefined;
    if (!summary || !lifecycle || lifecycleText(lifecycle) === listedLifecycle(summary)) {
      this.proven.delete(key);
      return;
    }
    this.proven.set(key, { project, name, listed: listedLifecycle(summary), lifecycle });
  }

  /** After a listing: proven stages of flags the listing no longer has, or whose listed stage changed, are dropped. */
  private forgetDisproved(): void {
    for (const [key, entry] of this.proven) {
      const summary = this.catalogValue.get(entry.project, entry.name);
      if (!summary || listedLifecycle(summary) !== entry.listed) this.proven.delete(key);
    }
  }

  /** `listed`: a flag of the catalog (not an archived lookup) changed its status. */
  private statusDidChange(listed: boolean): void {
    if (listed) this.statusVersionValue++;
    this.statusChanged.fire(undefined);
  }

  /**
   * What an earlier `findArchived` answered: the archived flag, null when there is none, undefined when that name
   * was not looked up (yet).
   */
  peekArchived(name: string): FeatureSummary | null | undefined {
    return this.archived.get(name);
  }

  /** Whether the lookup of this name among archived flags failed (until the next refresh, it is not asked again). */
  archivedLookupFailed(name: string): boolean {
    return this.archivedFailed.has(name);
  }

  /** Whether the source can look names up among archived flags (a server; export files list archived flags). */
  get findsArchived(): boolean {
    return this.source?.findArchived !== undefined;
  }

  /**
   * The archived flag of this name, asked once per name until the next refresh; undefined where none is known. Every
   * answer, and a failure, fires onDidChangeStatus (diagnostics waiting for it publish then).
   */
  async findArchived(name: string, token?: CancellationLike): Promise<FeatureSummary | undefined> {
    const known = this.archived.get(name);
    if (known !== undefined) return known ?? undefined;
    const source = this.requireSource();
    if (!source.findArchived) return undefined;
    if (this.archivedFailed.has(name)) return undefined;
    const find = source.findArchived.bind(source);
    return this.pendingArchived.join(name, token, async (signal) => {
      if (this.archivedAsked >= MAX_LOOKUPS_PER_LISTING) {
        this.rememberFailed(name);
        this.logger.info(`Not looking up ${JSON.stringify(name)} among archived flags: ${MAX_LOOKUPS_PER_LISTING} names were, since the last refresh.`);
        this.statusDidChange(false);
        return undefined;
      }
      this.archivedAsked++;
      let found: FeatureSummary | undefined;
      try {
        found = await find(name, signal);
      } catch (error) {
        if (this.source === source && !signal.aborted) {
          this.rememberFailed(name);
          this.logger.error(`Looking for an archived flag named ${JSON.stringify(name)} failed: ${logText(error)}`);
          this.statusDidChange(false);
        }
        throw error;
      }
      if (this.source === source) {
        if (this.archived.size >= MAX_ARCHIVED_LOOKUPS) this.archived.clear();
        this.archived.set(name, found ?? null);
        this.statusDidChange(false);
      }
      return found;
    });
  }

  private rememberFailed(name: string): void {
    if (this.archivedFailed.size >= MAX_ARCHIVED_LOOKUPS) this.archivedFailed.clear();
    this.archivedFailed.add(name);
  }

  /** The segments a strategy uses, read once per strategy id. */
  async strategySegments(strategyId: string, token?: CancellationLike): Promise<Segment[]> {
    const known = this.segments.get(strategyId);
    if (known) return known;
    const source = this.requireSource();
    return this.pendingSegments.join(strategyId, token, async (signal) => {
      const segments = await source.getStrategySegments(strategyId, signal);
      if (this.source === source) this.segments.set(strategyId, segments);
      return segments;
    });
  }

  /** Environment names of the source, for pickers. */
  environments(): Promise<string[]> {
    return this.requireSource().listEnvironments();
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
    this.detailsLoaded.dispose();
    this.statusChanged.dispose();
  }

  private listingInFlight(): Promise<void> | undefined {
    return this.inFlight;
  }

  private requireSource(): FlagSource {
    if (!this.source) throw new Error(l10n.t('No Unleash server or export files are configured.'));
    return this.source;
  }

  private clearCaches(): void {
    this.details.clear();
    this.detailsVersionValue++;
    this.pendingDetails.clear();
    this.segments.clear();
    this.pendingSegments.clear();
    this.archived.clear();
    this.archivedFailed.clear();
    this.archivedAsked = 0;
    this.pendingArchived.clear();
  }

  private setState(state: StoreState, error?: unknown): void {
    this.stateValue = state;
    this.errorValue = error;
    this.changed.fire(undefined);
  }
}

/** An error for the log: its message, and the request that failed when it says. */
function logText(error: unknown): string {
  const request = (error as { request?: unknown } | undefined)?.request;
  return `${error instanceof Error ? error.message : String(error)}${typeof request === 'string' ? ` (${request})` : ''}`;
}

/** A lifecycle as one comparable string: stage, outcome and when it was entered. */
function lifecycleText(lifecycle: Lifecycle | null | undefined): string {
  return lifecycle ? `${lifecycle.stage}\u0000${lifecycle.status ?? ''}\u0000${lifecycle.enteredStageAt}` : '';
}

/** The stage the listing row says. */
function listedLifecycle(summary: FeatureSummary): string {
  return lifecycleText(summary.lifecycle);
}

function sameStatus(a: FlagStatus, b: FlagStatus): boolean {
  return a.stale === b.stale && a.archived === b.archived && lifecycleText(a.lifecycle) === lifecycleText(b.lifecycle);
}

/** How often, at most, a first load redraws the rows that arrived so far. */
export const PARTIAL_MS = 150;

/** Rows of a listing in progress, published at once for the first batch and then at most every PARTIAL_MS. */
class PartialRows {
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

/**
 * Reads in flight, shared by key. Each caller waits with its own cancellation token; the read itself is aborted
 * only when every caller has cancelled.
 */
export class SharedReads<T> {
  private readonly reads = new Map<string, { promise: Promise<T>; controller: AbortController; waiters: number }>();

  join(key: string, token: CancellationLike | undefined, start: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (token?.isCancellationRequested) return Promise.reject(new CancelledError());
    let read = this.reads.get(key);
    if (!read || read.controller.signal.aborted) {
      const controller = new AbortController();
      const promise = start(controller.signal);
      const entry = { promise, controller, waiters: 0 };
      const settled = () => {
        if (this.reads.get(key) === entry) this.reads.delete(key);
      };
      promise.then(settled, settled);
      this.reads.set(key, entry);
      read = entry;
    }
    const entry = read;
    entry.waiters++;
    return new Promise<T>((resolve, reject) => {
      let done = false;
      const finish = () => {
        done = true;
        entry.waiters--;
        subscription?.dispose();
      };
      const subscription = token?.onCancellationRequested(() => {
        if (done) return;
        finish();
        if (entry.waiters === 0) entry.controller.abort();
        reject(new CancelledError());
      });
      entry.promise.then(
        (value) => {
          if (done) return;
          finish();
          resolve(value);
        },
        (error: unknown) => {
          if (done) return;
          finish();
          reject(error);
        },
      );
    });
  }

  clear(): void {
    for (const read of this.reads.values()) read.controller.abort();
    this.reads.clear();
  }
}
