/**
 * One status per flag (stale, archived, its lifecycle stage with the outcome of a completed flag) and the words
 * every surface shows it with: the store computes it (`FlagStore.status`), and the tree, hover, details, completion,
 * diagnostics and status bar all read it through here, so they never disagree.
 */
import * as l10n from '@vscode/l10n';
import type { Feature, FeatureSummary, Lifecycle } from '../../api/schemas';
import { joinValues } from '../text/intl';
import { plainMarkdown } from '../text/markdown';
import { describeLifecycle, lifecycleStage } from '../text/flagText';
import { clean } from '../text/plainText';

export interface FlagStatus {
  readonly stale: boolean;
  readonly archived: boolean;
  /** The current stage, when the source has one. */
  readonly lifecycle?: Lifecycle;
}

type StatusFields = Pick<FeatureSummary, 'stale' | 'archived' | 'archivedAt' | 'lifecycle'>;

/**
 * The status from the listing row, the details when read, and `proven`: a stage an earlier read of the details
 * proved (provenStages.ts). Details first (a server's listing can lag the stage list they read), then proven, then the
 * row. A flag is archived when either says so (`archived`, `archivedAt`, or the stage `archived`). Also the status of
 * an archived flag found by name (`FlagStore.findArchived`): its search row alone.
 */
export function flagStatus(
  summary: StatusFields | undefined,
  details?: Pick<Feature, 'stale' | 'archived' | 'archivedAt' | 'lifecycle'>,
  proven?: Lifecycle,
): FlagStatus {
  const lifecycle = details?.lifecycle ?? proven ?? summary?.lifecycle ?? undefined;
  const stale = (details?.stale ?? summary?.stale) === true;
  const archived = isArchived(details) || isArchived(summary) || stageIs(lifecycle, 'archived');
  // Archived is the last stage: a stage from before it (a search row of an archived flag may still say `initial`)
  // is history, not its status.
  const current = lifecycle && (!archived || stageIs(lifecycle, 'archived')) ? lifecycle : undefined;
  return current ? { stale, archived, lifecycle: current } : { stale, archived };
}

/** Whether two statuses say the same: stale, archived, and the stage with its outcome and date. */
export function sameStatus(a: FlagStatus, b: FlagStatus): boolean {
  return a.stale === b.stale && a.archived === b.archived && lifecycleKey(a.lifecycle) === lifecycleKey(b.lifecycle);
}

/** A lifecycle as one comparable string: stage, outcome and when it was entered ('' for none). */
export function lifecycleKey(lifecycle: Lifecycle | null | undefined): string {
  return lifecycle ? `${lifecycle.stage}\u0000${lifecycle.status ?? ''}\u0000${lifecycle.enteredStageAt}` : '';
}

function isArchived(flag: StatusFields | undefined): boolean {
  if (!flag) return false;
  return flag.archived === true || (flag.archivedAt !== undefined && flag.archivedAt !== null);
}

function stageIs(lifecycle: Lifecycle | undefined, stage: string): boolean {
  return lifecycle !== undefined && lifecycle.stage.trim() === stage;
}

/** Completed (the lifecycle stage `completed`, kept or discarded): the code that reads it is ready to clean up. */
export function isCompleted(status: FlagStatus): boolean {
  return stageIs(status.lifecycle, 'completed');
}

/** The stages every flag passes through on its way: shown, but nothing to act on. */
const ROUTINE_STAGES = new Set(['initial', 'pre-live', 'live']);

/** What the status calls for: archived, completed or stale (in that order), or nothing. */
type Attention = 'archived' | 'completed' | 'stale';

function attentionOf(status: FlagStatus): Attention | undefined {
  if (status.archived) return 'archived';
  if (isCompleted(status)) return 'completed';
  return status.stale ? 'stale' : undefined;
}

/**
 * The status in words, one per fact, for a line of plain text: `stale`, `archived`, `completed (kept)`, `live`.
 * The stage `archived` is said by `archived` alone; an empty stage is left out.
 */
export function statusWords(status: FlagStatus): string[] {
  const words: string[] = [];
  if (status.stale) words.push(l10n.t('stale'));
  if (status.archived) words.push(l10n.t('archived'));
  const stage = status.lifecycle?.stage.trim() ?? '';
  if (status.lifecycle && stage !== '' && stage !== 'archived') words.push(lifecycleStage(status.lifecycle));
  return words;
}

/**
 * The words of a flag row, short enough to stay beside the name at the default side bar width: `statusWords`, but a
 * completed flag's stage as its outcome alone (`kept`, `discarded`: only a completed flag has one; `completed` when
 * the server gave none). Split into what must stay visible (`shown`) and a routine stage (`initial`, `pre-live`,
 * `live`) that may be cut. The tooltip and the screen-reader label say it in full (`completed (kept)`).
 */
export function rowWords(status: FlagStatus): { shown: string[]; routine?: string } {
  const words = statusWords(status);
  const stage = status.lifecycle?.stage.trim() ?? '';
  if (ROUTINE_STAGES.has(stage)) return { shown: words.slice(0, -1), routine: words.at(-1) };
  if (stage !== 'completed') return { shown: words };
  const outcome = clean(status.lifecycle?.status ?? '', 40).trim();
  return outcome === '' ? { shown: words } : { shown: [...words.slice(0, -1), outcome] };
}

/**
 * The status as a markdown line for tooltips, hovers and completion documentation:
 * `**Stale** · **Archived** · Lifecycle: completed \(kept\) since 2026\-11\-20`; '' when there is nothing to say.
 */
export function statusMarkdown(status: FlagStatus): string {
  const parts: string[] = [];
  if (status.stale) parts.push(`**${l10n.t('Stale')}**`);
  if (status.archived) parts.push(`**${l10n.t('Archived')}**`);
  if (status.lifecycle) parts.push(l10n.t('Lifecycle: {0}', plainMarkdown(describeLifecycle(status.lifecycle), 100)));
  return parts.join(' · ');
}

/**
 * What the code that reads a completed flag should do, from the outcome given when it was completed: Unleash's
 * `kept` keeps the feature (remove the flag, keep the code it turns on), `discarded` drops it (remove that code too).
 */
export function completedAdvice(status: FlagStatus): string {
  const outcome = clean(status.lifecycle?.status ?? '', 40).trim();
  if (outcome === 'kept') return l10n.t('remove the flag and keep the code it turns on');
  if (outcome === 'discarded') return l10n.t('remove the flag and the code it turns on');
  return l10n.t('ready to remove');
}

/**
 * How many flags call for attention, by status: `1 archived, 2 completed (kept), 1 stale` (each flag counted once,
 * by `attentionOf`); '' when none does. For the status bar, over the whole catalog.
 */
export function attentionCounts(statuses: Iterable<FlagStatus>): string {
  const counts = new Map<string, number>();
  const order: Record<Attention, number> = { archived: 0, completed: 1, stale: 2 };
  const keys: Array<{ word: string; rank: number }> = [];
  for (const status of statuses) {
    const attention = attentionOf(status);
    if (!attention) continue;
    const word = attention === 'archived' ? l10n.t('archived') : attention === 'stale' ? l10n.t('stale') : lifecycleStage(status.lifecycle as Lifecycle);
    if (!counts.has(word)) keys.push({ word, rank: order[attention] });
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  keys.sort((a, b) => a.rank - b.rank || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
  return joinValues(keys.map(({ word }) => l10n.t('{0} {1}', counts.get(word) ?? 0, word)));
}
