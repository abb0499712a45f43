/**
 * Where flag data comes from: a live server, or export files in the workspace (offline mode). The store reads one
 * source; the tree and hovers never know which.
 */
import * as l10n from '@vscode/l10n';
import type { ListingFailure } from '../../api/listingTypes';
import type { EventPage } from '../../api/activityReader';
import type { Feature, FeatureSummary, Lifecycle, Segment } from '../../api/schemas';
import type { FeatureMetricsRow } from '../../api/activitySchemas';

/** Where flags come from, for the commands on offer: a server (set, whatever its state), export files, or nothing. */
type SourceMode = 'server' | 'offline' | 'none';

/**
 * The mode of a connection's state: a set server stays `server` while it lacks a token, approval or valid settings
 * (Set API Token, Allow… and Test Connection are what fixes those). Undefined while the first evaluation runs.
 */
export function sourceMode(state: string, source: Pick<FlagSource, 'kind'> | undefined): SourceMode | undefined {
  if (source) return source.kind === 'server' ? 'server' : 'offline';
  if (state === 'noToken' || state === 'unapproved' || state === 'invalidSettings') return 'server';
  if (state === 'loading') return undefined;
  return 'none';
}

export interface FlagSource {
  readonly kind: 'server' | 'files';
  /** Shown in the view's description and in hovers: a host name, or the export files read. */
  readonly label: string;
  /** Offline mode: how many export files were read. */
  readonly fileCount?: number;
  /** Every flag; `onRows`, when given, sees batches of rows as they arrive, before the listing is complete. */
  listFeatures(signal?: AbortSignal, onRows?: (rows: FeatureSummary[]) => void): Promise<FeatureSummary[]>;
  /**
   * What the last listing could not check (it may be incomplete), in words; undefined when it was proven complete.
   * Offline: the export files that were not read, why, and what to do.
   */
  readonly listingNote?: string;
  /** Projects whose flags the last listing could not read, each with why (a server); every other project was listed. */
  readonly failedProjects?: readonly ListingFailure[];
  getFeature(project: string, name: string, signal?: AbortSignal): Promise<Feature>;
  getStrategySegments(strategyId: string, signal?: AbortSignal): Promise<Segment[]>;
  listEnvironments(signal?: AbortSignal): Promise<string[]>;
  /** Every stage the flag entered, with when (a server: what its listing's one stage may hide; see stageReads.ts). */
  flagStages?(project: string, name: string, signal?: AbortSignal): Promise<Lifecycle[]>;
  /** The archived flag of this name, where the source can tell (a server; export files list archived flags). */
  findArchived?(name: string, signal?: AbortSignal): Promise<FeatureSummary | undefined>;
  /** A page of a flag's history, newest first, where the source keeps one (a server; export files have none). */
  flagHistory?(project: string, name: string, page: { limit: number; offset: number }, signal?: AbortSignal): Promise<EventPage>;
  /** A flag's evaluations in the last `hours` hours, per environment, application and hour (a server). */
  flagUsage?(name: string, hours: number, signal?: AbortSignal): Promise<FeatureMetricsRow[]>;
  /** The flag's page in the Unleash web UI, where there is one. */
  webUrl?(project: string, name: string): string | undefined;
}

/** The source, or the error every read gives when there is none. */
export function requireSource(source: FlagSource | undefined): FlagSource {
  if (!source) throw new Error(l10n.t('No Unleash server or export files are configured.'));
  return source;
}
