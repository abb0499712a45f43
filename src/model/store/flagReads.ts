/**
 * What the store reads about its flags on demand, once per listing and shared between callers: a flag's details, a
 * strategy's segments, a name among archived flags; the stages a listing cannot show, in the background after each
 * listing (stageReads.ts); and each listed flag's one status from what was read.
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
import { readStages } from './stageReads';

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
  /** The background reads of the last listing's stage lists; aborted by the next listing or another source. */
  private stageReads: AbortController | undefined;
  private stagesRead: Promise<void> = Promise.resolve();

  constructor(
    private readonly target: ReadTarget,
    private readonly logger: Pick<Logger, 'info' | 'error'>,
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
        // The status version moves before the details are announced: their listeners see both at once.
        const changed = summary !== undefined && before !== undefined && !sameStatus(before, this.status(summary, project));
        if (changed) this.statusVersionValue++;
        this.detailsLoaded.fire({ project, name });
        if (changed) this.statusChanged.fire(undefined);
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
    this.stageReads?.abort();
    this.details.clear();
    this.detailsVersionValue++;
    this.pendingDetails.clear();
    this.segments.clear();
    this.pendingSegments.clear();
    this.archived.clear();
  }

  /**
   * A listing completed: stages proven for flags whose listed stage changed (or that are gone) are forgotten, and the
   * stages the listing may hide are read in the background (onDidChangeStatus once they changed any flag's).
   */
  listed(catalog: Catalog): void {
    this.proven.forgetDisproved(catalog);
    const source = this.target.currentSource;
    this.stageReads?.abort();
    if (!source?.flagStages) return;
    const controller = new AbortController();
    this.stageReads = controller;
    this.stagesRead = readStages(catalog, source, this.proven, controller.signal, this.logger).then(
      (changed) => {
        if (changed && !controller.signal.aborted && this.target.catalog === catalog) this.statusDidChange(true);
      },
      (error: unknown) => this.logger.error(`Reading the lifecycle stages of the listed flags failed: ${String(error)}`),
    );
  }

  /** Settles once the background reads of the last listing's stages are done (or stopped). */
  stagesSettled(): Promise<void> {
    return this.stagesRead;
  }

  /** Another source: what a read proved holds only for the source that answered it. */
  forgetProven(): void {
    this.stageReads?.abort();
    this.proven.clear();
  }

  dispose(): void {
    this.stageReads?.abort();
    this.detailsLoaded.dispose();
    this.statusChanged.dispose();
  }

  /** `listed`: a flag of the catalog (not an archived lookup) changed its status. */
  private statusDidChange(listed: boolean): void {
    if (listed) this.statusVersionValue++;
    this.statusChanged.fire(undefined);
  }
}
