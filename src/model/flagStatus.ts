/**
 * One truth per flag: its lifecycle stage, stale and archived marks, derived from the most specific data the
 * extension has. The tree row, its tooltip, the Lifecycle row, the hover and the details document all ask here, so
 * they never disagree.
 *
 * The details (get-feature) win over the listing row: a real server's search listing picks the stage by timestamp,
 * and a flag completed in the instant it was created is listed as `initial` while get-feature says `completed`.
 * A flag is archived when either says so (`archived`, `archivedAt`, or the stage `archived`).
 */
import type { Feature, FeatureSummary, Lifecycle } from '../api/schemas';

export interface FlagStatus {
  readonly stale: boolean;
  readonly archived: boolean;
  /** The current stage, when the source has one. */
  readonly lifecycle?: Lifecycle;
}

type StatusFields = Pick<FeatureSummary, 'stale' | 'archived' | 'archivedAt' | 'lifecycle'>;

export function flagStatus(summary: StatusFields | undefined, details?: Pick<Feature, 'stale' | 'archived' | 'archivedAt' | 'lifecycle'>): FlagStatus {
  const lifecycle = details?.lifecycle ?? summary?.lifecycle ?? undefined;
  const stale = (details?.stale ?? summary?.stale) === true;
  const archived =
    isArchived(details) || isArchived(summary) || (lifecycle !== undefined && lifecycle.stage.trim() === 'archived');
  return lifecycle ? { stale, archived, lifecycle } : { stale, archived };
}

function isArchived(flag: StatusFields | undefined): boolean {
  if (!flag) return false;
  return flag.archived === true || (flag.archivedAt !== undefined && flag.archivedAt !== null);
}
