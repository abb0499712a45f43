/**
 * Stages a read of a flag's details, or of its stage list (stageReads.ts), proved beyond what its listing row says. A
 * real server's search listing picks the stage by timestamp (a flag completed in the instant it was created is listed
 * as `initial`), so what was proved is kept across a refresh while the listing still says what it said then, and
 * forgotten once it says otherwise. A row whose stage list agreed is remembered as checked, so that it is not read
 * again while the row stays the same.
 */
import type { Feature, FeatureSummary, Lifecycle } from '../../api/schemas';
import { flagKey, type Catalog } from './catalog';
import { lifecycleKey } from './flagStatus';

interface Proven {
  readonly project: string;
  readonly name: string;
  /** The listing row's stage when the details were read (`lifecycleKey`). */
  readonly listed: string;
  /** The stage proved; undefined when the row's own was confirmed (checked, nothing to add). */
  readonly lifecycle: Lifecycle | undefined;
}

export class ProvenStages {
  /** By flagKey. */
  private readonly proven = new Map<string, Proven>();

  /** The stage proven for this listed flag (`project` as the flag is addressed), while its row says what it said. */
  of(summary: FeatureSummary, project: string): Lifecycle | undefined {
    const proven = this.proven.get(flagKey(project, summary.name));
    return proven && proven.listed === lifecycleKey(summary.lifecycle) ? proven.lifecycle : undefined;
  }

  /** Whether this row's stage was checked against the flag's stages (or its details) since the row last changed. */
  checked(summary: FeatureSummary, project: string): boolean {
    return this.proven.get(flagKey(project, summary.name))?.listed === lifecycleKey(summary.lifecycle);
  }

  /**
   * Notes the current stage a stage list proved for a listed row (undefined: the list was empty): kept when it
   * differs from the row's, else the row is remembered as checked. Answers whether the flag's stage changed.
   */
  noteStage(project: string, summary: FeatureSummary, stage: Lifecycle | undefined): boolean {
    const key = flagKey(project, summary.name);
    const listed = lifecycleKey(summary.lifecycle);
    const before = this.of(summary, project);
    const differs = stage !== undefined && lifecycleKey(stage) !== listed;
    this.proven.set(key, { project, name: summary.name, listed, lifecycle: differs ? stage : undefined });
    return lifecycleKey(before) !== lifecycleKey(differs ? stage : undefined);
  }

  /** Remembers (or forgets) what the details say beyond the listing row's stage. */
  note(project: string, name: string, summary: FeatureSummary | undefined, feature: Feature): void {
    const key = flagKey(project, name);
    const lifecycle = feature.lifecycle ?? undefined;
    const listed = lifecycleKey(summary?.lifecycle);
    if (!summary || !lifecycle || lifecycleKey(lifecycle) === listed) this.proven.delete(key);
    else this.proven.set(key, { project, name, listed, lifecycle });
  }

  /** After a listing: stages of flags the listing no longer has, or whose listed stage changed, are dropped. */
  forgetDisproved(catalog: Catalog): void {
    for (const [key, entry] of this.proven) {
      const summary = catalog.get(entry.project, entry.name);
      if (!summary || lifecycleKey(summary.lifecycle) !== entry.listed) this.proven.delete(key);
    }
  }

  /** Another source: what a read proved holds only for the source that answered it. */
  clear(): void {
    this.proven.clear();
  }
}
