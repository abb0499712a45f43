/**
 * The lifecycle stages a listing cannot show, read in the background after each listing. A real server's listing
 * gives one stage per flag, picked by timestamp: when a flag entered several stages in the same instant (an import,
 * a restore, 8.x recording stages in one go), it lists the earliest (`initial`) though the flag is `completed` or
 * `pre-live`. So, once a listing completes, the stage list of every listed flag whose row names a stage is read
 * (STAGE_READS_AT_ONCE at a time, at most MAX_STAGE_READS a listing, flags whose row did not change since they were
 * checked skipped), and the current stage it proves is kept in ProvenStages: the tree, tooltips, hovers, completion,
 * diagnostics, Cleanup and the status bar are right without any flag's details being read. The next listing (or
 * another source) stops the reads.
 */
import type { FeatureSummary, Lifecycle } from '../../api/schemas';
import { CancelledError, NotFoundError } from '../../api/errors';
import type { Logger } from '../../base/logger';
import { mapLimited } from '../../base/mapLimited';
import { parseIsoUtc } from '../text/plainText';
import type { Catalog } from './catalog';
import type { FlagSource } from './flagSource';
import type { ProvenStages } from './provenStages';
import { logText } from './logText';

/** Stage lists read at once. */
const STAGE_READS_AT_ONCE = 4;
/** Stage lists read after one listing at most (the rest wait for the next listing, or a read of their details). */
export const MAX_STAGE_READS = 200;

/** The stages in the order a flag goes through them: of two entered in the same instant, the later one is current. */
const ORDER = ['initial', 'pre-live', 'live', 'completed', 'archived'];

/**
 * The current stage of a stage list: the one entered last; of stages entered in the same instant, the furthest along
 * (a stage this file does not know counts as after those it knows). Undefined for an empty list.
 */
function currentStage(stages: readonly Lifecycle[]): Lifecycle | undefined {
  let current: Lifecycle | undefined;
  let currentAt = -Infinity;
  for (const stage of stages) {
    const at = parseIsoUtc(stage.enteredStageAt) ?? -Infinity;
    if (current === undefined || at > currentAt || (at === currentAt && rank(stage) > rank(current))) {
      current = stage;
      currentAt = at;
    }
  }
  return current;
}

function rank(stage: Lifecycle): number {
  const at = ORDER.indexOf(stage.stage.trim());
  return at < 0 ? ORDER.length : at;
}

/**
 * Reads the stage lists of `catalog`'s flags that `proven` has not checked for their current row, and notes what
 * they prove; answers whether any listed flag's stage changed. Stops quietly once `signal` is aborted; a server
 * without stage lists (404) is not asked further.
 */
export async function readStages(
  catalog: Catalog,
  source: FlagSource,
  proven: ProvenStages,
  signal: AbortSignal,
  logger: Pick<Logger, 'info'>,
): Promise<boolean> {
  const read = source.flagStages?.bind(source);
  if (read === undefined) return false;
  const due: Array<{ project: string; summary: FeatureSummary }> = [];
  let skipped = 0;
  for (const summary of catalog.flags) {
    const stage = summary.lifecycle?.stage.trim();
    if (stage === undefined || stage === 'archived') continue;
    const project = summary.project ?? 'default';
    if (proven.checked(summary, project)) continue;
    if (due.length < MAX_STAGE_READS) due.push({ project, summary });
    else skipped++;
  }
  let changed = false;
  let failed = 0;
  let firstFailure: unknown;
  let missing = false;
  await mapLimited(due, STAGE_READS_AT_ONCE, async ({ project, summary }) => {
    if (signal.aborted || missing) return;
    try {
      const stage = currentStage(await read(project, summary.name, signal));
      if (signal.aborted) return;
      if (proven.noteStage(project, summary, stage)) changed = true;
    } catch (error) {
      if (signal.aborted || error instanceof CancelledError) return;
      if (error instanceof NotFoundError && !error.answered) missing = true;
      failed++;
      firstFailure ??= error;
    }
  });
  if (!signal.aborted && failed > 0) logger.info(`Lifecycle stages of ${failed} listed flags could not be read: ${logText(firstFailure)}.`);
  if (!signal.aborted && skipped > 0) logger.info(`Lifecycle stages of ${skipped} listed flags are left for the next listing (at most ${MAX_STAGE_READS} a listing).`);
  return changed;
}
