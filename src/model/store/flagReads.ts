/**
 * What the store reads about its flags on demand, once per listing and shared between callers: a flag's details, a
 * strategy's segments, a name among archived flags; and each listed flag's one status from what was read.
 */
import type { Feature, FeatureSummary, Segment } from '../../api/schemas';
import { Emitter, type CancellationLike } from '../../base/emitter';
import type { Logger } from '../../base/logger';
import { ArchivedLookups } from './archivedLookups';
import { flagKey, type Catalog } from './catalog';
import { requireSource, type FlagSource } from './flagSource';
import { flagStatus, sameStatus, type FlagStatus } from './flagStatus';
import { ProvenStages } from './provenStages';
import { SharedReads } from './sharedReads';

/** The store's current source and catalog: what is read, and what the answers belong to. */
interface ReadTarget {
  readonly currentSource: FlagSource | undefined;
  readonly catalog: Catalog;
}

export class FlagReads {
  private readonly detailsLoaded = new Emitter<{ project: string; name: string }>();
  /** One flag's details arrived (hovers show them next time). */
  readonly onDidLoadDetails = this.detailsLoaded.event;
  private readonly statusChanged = new Emitter<void>();
  /**
   * A status changed without a new catalog: details told more than the listing (a stage the stage list proves), or
   * a lookup among archived flags answered (or failed). Diagnostics, completion and the status bar follow.
   */
  readonly onDidChangeStatus = this.statusChanged.event;

  private readonly details = new Map<string, Feature>();
  private detailsVersionValue = 0;
  private readonly pendingDetails = new SharedReads<Feature>();
  private readonly segments = new Map<string, Segment[]>();
  private readonly pendingSegments = new SharedReads<Segment[]>();
  private readonly proven = new ProvenStages();
  private statusVersionValue = 0;
  private readonly archived: ArchivedLookups;

  constructor(
    private readonly target: ReadTarget,
    logger: Pick<Logger, 'info' | 'error'>,
  ) {
    this.archived = new ArchivedLookups(logger, () => this.statusDidChange(false));
  }

  /** Changes whenever a flag's details are added or forgotten: lets a tree row skip looking when nothing changed. */
  get detailsVersion(): number {
    return this.detailsVersionValue;
  }

  /** Changes whenever a listed flag's status changes without a new catalog: lets a cache skip rebuilding. */
  get statusVersion(): number {
    return this.statusVersionValue;
  }

  peekFeature(project: string, name: string): Feature | undefined {
    return this.details.get(flagKey(project, name));
  }

  async feature(project: string, name: string, token?: CancellationLike): Promise<Feature> {
    const key = flagKey(project, name);
    const known = this.details.get(key);
    if (known) return known;
    const source = requireSource(this.target.currentSource);
    return this.pendingDetails.join(key, token, async (signal) => {
      const feature = await source.getFeature(project, name, signal);
      if (this.target.currentSource === source) {
        const summary = this.target.catalog.get(project, name);
        const before = summary && this.status(summary, project);
        this.details.set(key, feature);
        this.proven.note(project, name, summary, feature);
        this.detailsVersionValue++;
        this.detailsLoaded.fire({ project, name });
        if (summary && before && !sameStatus(before, this.status(summary, project))) this.statusDidChange(true);
      }
      return feature;
    });
  }

  status(summary: FeatureSummary, project: string): FlagStatus {
    return flagStatus(summary, this.details.get(flagKey(project, summary.name)), this.proven.of(summary, project));
  }

  peekArchived(name: string): FeatureSummary | null | undefined {
    return this.archived.peek(name);
  }

  archivedLookupFailed(name: string): boolean {
    return this.archived.failed(name);
  }

  async findArchived(name: string, token?: CancellationLike): Promise<FeatureSummary | undefined> {
    const known = this.archived.peek(name);
    if (known !== undefined) return known ?? undefined;
    const source = requireSource(this.target.currentSource);
    if (!source.findArchived) return undefined;
    return this.archived.find(name, source.findArchived.bind(source), () => this.target.currentSource === source, token);
  }

  async strategySegments(strategyId: string, token?: CancellationLike): Promise<Segment[]> {
    const known = this.segments.get(strategyId);
    if (known) return known;
    const source = requireSource(this.target.currentSource);
    return this.pendingSegments.join(strategyId, token, async (signal) => {
      const segments = await source.getStrategySegments(strategyId, signal);
      if (this.target.currentSource === source) this.segments.set(strategyId, segments);
      return segments;
    });
  }

  /** A new listing starts: everything read is forgotten (what details proved about stages is kept, `listed`). */
  clear(): void {
    this.details.clear();
    this.detailsVersionValue++;
    this.pendingDetails.clear();
    this.segments.clear();
    this.pendingSegments.clear();
    this.archived.clear();
  }

  /** A listing completed: stages proven for flags whose listed stage changed (or that are gone) are forgotten. */
  listed(catalog: Catalog): void {
    this.proven.forgetDisproved(catalog);
  }

  /** Another source: what a read proved holds only for the source that answered it. */
  forgetProven(): void {
    this.proven.clear();
  }

  dispose(): void {
    this.detailsLoaded.dispose();
    this.statusChanged.dispose();
  }

  /** `listed`: a flag of the catalog (not an archived lookup) changed its status. */
  private statusDidChange(listed: boolean): void {
    if (listed) this.statusVersionValue++;
    this.statusChanged.fire(undefined);
  }
}
