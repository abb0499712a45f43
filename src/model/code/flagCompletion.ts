/**
 * Completion of flag names inside SDK calls, as plain data: where the name being typed is, and the items to offer,
 * ranked: names starting with what was typed first, then the projects this file already reads, then the names used
 * most recently, then by name. The per-flag text is built once per catalog, so a request costs one pass over the names.
 */
import * as l10n from '@vscode/l10n';
import type { FeatureSummary } from '../../api/schemas';
import type { Catalog } from '../store/catalog';
import { sdkCallLiterals } from './sdkCalls';
import { isValidFlagName } from './flagNameRule';
import { flagStatus, statusMarkdown, statusWords, type FlagStatus } from '../store/flagStatus';
import { escapeMarkdown, plainMarkdown } from '../text/markdown';
import { pluralForm } from '../text/intl';
import { chooseEnvironments, hiddenEnvironments } from '../store/environmentChoice';
import { describeEnvironmentState, environmentStrip, flagName } from '../text/flagText';
import { clean } from '../text/plainText';
import { eachInSlices, type TimeSlices } from '../../base/timeSlices';

/** Where a flag name is being typed: the literal's content [start, end) and what is typed before the cursor. */
interface CompletionSpot {
  start: number;
  end: number;
  /** line[start, character). */
  typed: string;
  quote: string;
  call: string;
}

/** The SDK-call literal that holds `character` (between its quotes), terminated or still being typed. */
export function completionSpotAt(line: string, character: number, sdkCalls?: readonly string[]): CompletionSpot | undefined {
  if (character < 0 || character > line.length) return undefined;
  for (const literal of sdkCallLiterals(line, { sdkCalls, unterminated: true })) {
    if (literal.start > character) break;
    if (character > literal.end || literal.dynamic) continue;
    // Being typed (no closing quote): replace only up to the cursor, never the rest of the line.
    const end = literal.unterminated ? character : literal.end;
    return { start: literal.start, end, typed: line.slice(literal.start, character), quote: literal.quote, call: literal.call };
  }
  return undefined;
}

/** A listed flag's one status (FlagStore.status). */
type StatusOf = (flag: FeatureSummary) => FlagStatus;

interface FlagCompletionItem {
  label: string;
  /** `type · project · stale · live · development ● production ○` (bounded, one line). */
  detail: string;
  /** Orders the list: prefix match, project, recent use, name. */
  sortText: string;
  /** The name, as inserted. */
  insertText: string;
}

interface RankingContext {
  /** Projects of the flags this document already reads. */
  preferredProjects?: ReadonlySet<string>;
  /** Names used recently, most recent first. */
  recent?: readonly string[];
}

interface Entry {
  name: string;
  lower: string;
  projects: readonly string[];
  /** The quote the name cannot be written between as it is (it holds that quote). */
  unsafeIn: string;
}

/**
 * The items of one catalog. Names that break Unleash's naming rule (`isValidFlagName`) are left out, not offered
 * with a cleaned label: an item must insert the name the code needs, and that name would carry what the label hides
 * (bidi or zero-width characters, 10 MB of text). The Flags view counts and marks them (`Catalog.invalidNames`).
 * What depends on the flags' status (each item's detail) is written when the item is offered, so one object serves
 * a catalog whatever its flags' statuses become; `withEnvironments` shares it with another choice of environments.
 */
export class FlagCompletions {
  /** `statusOf` gives each flag's status (the store's, read when an item is offered). */
  constructor(
    readonly catalog: Catalog,
    private readonly statusOf: StatusOf = (flag) => flagStatus(flag),
    /** `unleash.environments`: the environments the detail shows (empty: all). */
    readonly environments: readonly string[] = [],
    private readonly entries: readonly Entry[] = entriesOf(catalog),
  ) {}

  /** The items of a catalog, their index built in time slices (a catalog of 100,000 flags never blocks the editor). */
  static async build(catalog: Catalog, statusOf: StatusOf, slices: TimeSlices): Promise<FlagCompletions> {
    const entries: Entry[] = [];
    await eachInSlices(catalog.names(), slices, (name) => addEntry(entries, catalog, name));
    return new FlagCompletions(catalog, statusOf, [], entries);
  }

  /** The same items, their detail showing `environments`. */
  withEnvironments(environments: readonly string[]): FlagCompletions {
    const same = environments.length === this.environments.length && environments.every((name, i) => name === this.environments[i]);
    return same ? this : new FlagCompletions(this.catalog, this.statusOf, environments, this.entries);
  }

  get size(): number {
    return this.entries.length;
  }

  /** The items for one spot, ranked: every name that can be written between the spot's quotes. */
  items(spot: Pick<CompletionSpot, 'typed' | 'quote'>, ranking: RankingContext = {}): FlagCompletionItem[] {
    return this.list(spot, ranking, Number.POSITIVE_INFINITY).items;
  }

  /**
   * At most `limit` items for one spot. When more names could be offered, only those that can still match what is
   * typed (its letters in order) count, the best-ranked `limit` of them are offered, and the list is `incomplete`: the
   * editor asks again as typing goes on. Only the offered items' text is built.
   */
  list(spot: Pick<CompletionSpot, 'typed' | 'quote'>, ranking: RankingContext = {}, limit = MAX_ITEMS): { items: FlagCompletionItem[]; incomplete: boolean } {
    const typed = spot.typed.toLowerCase();
    const recent = new Map<string, number>();
    (ranking.recent ?? []).slice(0, 99).forEach((name, i) => recent.has(name) || recent.set(name, i));
    const preferred = ranking.preferredProjects;
    // A rank per entry (what sortText spells, as a number: prefix, project, recency); -1: left out.
    const ranks = new Int16Array(this.entries.length).fill(-1);
    let offered = 0;
    this.entries.forEach((entry, i) => {
      if (entry.unsafeIn.includes(spot.quote)) return;
      let rank = typed === '' || entry.lower.startsWith(typed) ? 0 : RANK_NOT_PREFIX;
      if (!preferred?.size || !readsAny(entry.projects, preferred)) rank += RANK_OTHER_PROJECT;
      ranks[i] = rank + (recent.get(entry.name) ?? NOT_RECENT);
      offered++;
    });
    const incomplete = offered > limit;
    if (incomplete) keepBest(ranks, this.entries, typed, limit);
    const items: FlagCompletionItem[] = [];
    this.entries.forEach((entry, i) => {
      const rank = ranks[i] as number;
      if (rank < 0) return;
      const sortText = `${rank >= RANK_NOT_PREFIX ? 1 : 0}${rank % RANK_NOT_PREFIX >= RANK_OTHER_PROJECT ? 1 : 0}${String(rank % RANK_OTHER_PROJECT).padStart(2, '0')}${entry.name}`;
      items.push({ label: entry.name, detail: completionDetail(this.catalog.byName(entry.name), this.statusOf, this.environments), sortText, insertText: entry.name });
    });
    return { items, incomplete };
  }

  /** The markdown documentation of one name (built on demand: VS Code asks for the focused item only). */
  documentation(name: string): string {
    return completionDocumentation(this.catalog.byName(name), this.statusOf, this.environments);
  }
}

/** The most items one completion list offers (VS Code shows a dozen; the rest come as typing narrows the list). */
const MAX_ITEMS = 500;
/**
 * A name's rank, lower first, as its sortText spells it: RANK_NOT_PREFIX when it does not start with what is typed,
 * plus RANK_OTHER_PROJECT when it is in none of the file's projects, plus its recency 0–98 (NOT_RECENT: not used lately).
 */
const NOT_RECENT = 99;
const RANK_OTHER_PROJECT = 100;
const RANK_NOT_PREFIX = 200;

function entriesOf(catalog: Catalog): Entry[] {
  const entries: Entry[] = [];
  for (const name of catalog.names()) addEntry(entries, catalog, name);
  return entries;
}

function addEntry(entries: Entry[], catalog: Catalog, name: string): void {
  if (!isValidFlagName(name)) return;
  const flags = catalog.byName(name);
  // Of the quotes, a valid name can hold only `'`.
  entries.push({ name, lower: name.toLowerCase(), projects: flags.map((flag) => flag.project ?? ''), unsafeIn: name.includes("'") ? "'" : '' });
}

function readsAny(projects: readonly string[], preferred: ReadonlySet<string>): boolean {
  for (const project of projects) if (preferred.has(project)) return true;
  return false;
}

/** Does `name` hold the letters of `typed` in order (what any match of the editor's filter needs)? */
function holdsInOrder(name: string, typed: string): boolean {
  let at = 0;
  for (let i = 0; i < name.length && at < typed.length; i++) if (name.charCodeAt(i) === typed.charCodeAt(at)) at++;
  return at === typed.length;
}

/**
 * Leaves in `ranks` the `limit` best-ranked entries that can match `typed` (by rank, then name: the entries are in
 * name order), -1 elsewhere.
 */
function keepBest(ranks: Int16Array, entries: readonly Entry[], typed: string, limit: number): void {
  const perRank = new Int32Array(RANK_NOT_PREFIX * 2);
  entries.forEach((entry, i) => {
    const rank = ranks[i] as number;
    if (rank < 0) return;
    if (holdsInOrder(entry.lower, typed)) perRank[rank] = (perRank[rank] as number) + 1;
    else ranks[i] = -1;
  });
  // The worst rank offered, and how many of that rank fit.
  let worst = 0;
  let room = limit;
  while (worst < perRank.length - 1 && room > (perRank[worst] as number)) room -= perRank[worst++] as number;
  ranks.forEach((rank, i) => {
    if (rank < 0 || rank < worst) return;
    if (rank === worst && room > 0) room--;
    else ranks[i] = -1;
  });
}

/**
 * `release · default · live · development ● production ○`: the first project's type, project, status words
 * (`statusWords`: `stale`, `archived`, `completed (kept)`) and environments, then `+N more projects` when so.
 */
export function completionDetail(flags: readonly FeatureSummary[], statusOf: StatusOf = (flag) => flagStatus(flag), chosen: readonly string[] = []): string {
  const first = flags[0];
  if (!first) return '';
  const parts: string[] = [];
  if (first.type) parts.push(clean(first.type, 40));
  if (first.project) parts.push(clean(first.project, 60));
  parts.push(...statusWords(statusOf(first)));
  const strip = environmentStrip(chooseEnvironments(first.environments ?? [], chosen).shown);
  if (strip !== '') parts.push(strip);
  const others = flags.length - 1;
  if (others > 0) parts.push(pluralForm(others, { one: l10n.t('+{0} more project', others), other: l10n.t('+{0} more projects', others) }));
  return clean(parts.join(' · '), 300);
}

/** The documentation markdown: per project, the name, type, badges, description and each environment's state. */
export function completionDocumentation(
  flags: readonly FeatureSummary[],
  statusOf: StatusOf = (flag) => flagStatus(flag),
  chosen: readonly string[] = [],
): string {
  const sections = flags.slice(0, 3).map((flag) => {
    const head = [`**${escapeMarkdown(flagName(flag.name, 200))}**`];
    if (flag.type) head.push(plainMarkdown(flag.type, 40));
    if (flag.project) head.push(l10n.t('project {0}', plainMarkdown(flag.project, 60)));
    const blocks = [head.join(' · ')];
    const status = statusMarkdown(statusOf(flag));
    if (status !== '') blocks.push(status);
    const description = plainMarkdown(flag.description ?? '', 300);
    if (description !== '') blocks.push(description);
    const { shown, hidden } = chooseEnvironments(flag.environments ?? [], chosen);
    const environments = shown.slice(0, 12);
    if (environments.length > 0) {
      blocks.push(environments.map((env) => `- ${plainMarkdown(env.name, 40) || l10n.t('(unnamed)')}: ${describeEnvironmentState(env.enabled)}`).join('\n'));
    }
    if (hidden > 0) blocks.push(hiddenEnvironments(hidden));
    return blocks.join('\n\n');
  });
  const rest = flags.length - 3;
  if (rest > 0) {
    sections.push(pluralForm(rest, { one: l10n.t('… and {0} more project with this name', rest), other: l10n.t('… and {0} more projects with this name', rest) }));
  }
  return sections.join('\n\n---\n\n');
}
