/**
 * A flag's change history and usage, read on demand for one flag (hover, tooltip, details), shared between callers,
 * kept ACTIVITY_TTL_MS and forgotten on refresh. A failed read is remembered as long as an answer (a broken flag cannot make every hover ask
 * again); a 403 until the source changes, logged once. Export files hold neither: every read answers `unavailable`.
 * The details document's history is read HISTORY_STEP changes at a time, each page worded as it arrives (its events'
 * data is not kept), up to MAX_HISTORY_EVENTS.
 */
import * as l10n from '@vscode/l10n';
import type { Logger } from '../../base/logger';
import type { EventPage } from '../../api/activityReader';
import { CancelledError, ForbiddenError } from '../../api/errors';
import type { FeatureEvent, FeatureMetricsRow } from '../../api/activitySchemas';
import type { CancellationLike, Disposable, Event } from '../../base/emitter';
import { nextTurn } from '../../base/nextTurn';
import { TimeSlices } from '../../base/timeSlices';
import { historyEntry, type HistoryEntry } from './eventWording';
import type { Catalog } from '../store/catalog';
import { flagKey } from '../store/catalog';
import type { FlagSource } from '../store/flagSource';
import { SharedReads } from '../store/sharedReads';
import { formatError } from '../content/formatError';
import { summarizeAnswer } from './usageSummary';

/** How long an answer (or a failure) is kept. */
const ACTIVITY_TTL_MS = 60_000;
/** Flags whose activity is kept at once, per kind; the oldest is forgotten first. */
const MAX_ENTRIES = 200;
/** Changes a details document shows at first, and adds each time more are asked for (pages of HISTORY_PAGE). */
export const HISTORY_STEP = 200;
/** The most changes a details document reads; the rest are in Unleash's event log. */
export const MAX_HISTORY_EVENTS = 5_000;
const HISTORY_PAGE = 50;
/** The usage window every surface shows. */
export const USAGE_HOURS = 24;

/** What is known of one part: its value, why it cannot be read, or nothing yet (`loading`). */
export type Known<T> =
  | { readonly value: T }
  | { readonly unavailable: string; readonly forbidden?: boolean; readonly offline?: boolean }
  | undefined;

/** A flag's history as a details document shows it: the newest changes, and how many there are. */
export interface History {
  events: HistoryEntry[];
  /** Events the server holds for this flag, when it says. */
  total?: number;
  /** From the deprecated per-flag endpoint: its newest 50 only. */
  legacy?: boolean;
  /** The server has no older change than these (a short page, or `total` reached). */
  end?: boolean;
  /** Events of the server's pages read so far: where the next page starts. */
  read?: number;
  /** Why reading further failed after some changes were read, and how many were wanted then (asked again only for more). */
  stopped?: { reason: string; wanted: number };
}

/** Whether `history` holds fewer than `wanted` changes while the server has more to give. */
function readsMore(history: History, wanted: number): boolean {
  if (history.stopped !== undefined && wanted <= history.stopped.wanted) return false;
  return history.events.length < wanted && history.legacy !== true && history.end !== true;
}

type ActivityKind = 'history' | 'usage';

/** What FlagActivity reads of the store: its source and catalog, and when they change. */
interface ActivityStore {
  readonly currentSource: FlagSource | undefined;
  readonly catalog: Catalog;
  readonly onDidChange: Event<void>;
}

interface Entry<T> {
  known: NonNullable<Known<T>>;
  at: number;
}

/** A small map of answers that expire, the oldest forgotten first when it is full. */
class Expiring<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(private readonly now: () => number, private readonly ttlMs: number) {}

  get(key: string): Known<T> {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (this.now() - entry.at >= this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.known;
  }

  set(key: string, known: NonNullable<Known<T>>): void {
    this.entries.delete(key);
    this.entries.set(key, { known, at: this.now() });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
  }

  clear(): void {
    this.entries.clear();
  }
}

export class FlagActivity implements Disposable {
  private readonly latestChanges: Expiring<FeatureEvent | null>;
  private readonly histories: Expiring<History>;
  private readonly usages: Expiring<FeatureMetricsRow[]>;
  private readonly pendingLatest = new SharedReads<FeatureEvent | null>();
  private readonly pendingHistory = new SharedReads<History>();
  private readonly pendingUsage = new SharedReads<FeatureMetricsRow[]>();
  /** Why a kind is refused (a 403) for the current source; cleared when the source changes. */
  private readonly refused = new Map<ActivityKind, string>();
  private source: FlagSource | undefined;
  private catalog: Catalog | undefined;
  private readonly subscription: Disposable;
  private readonly now: () => number;

  constructor(
    private readonly store: ActivityStore,
    private readonly logger: Pick<Logger, 'warn'>,
    options: { ttlMs?: number; now?: () => number } = {},
  ) {
    const now = (this.now = options.now ?? Date.now);
    const ttl = options.ttlMs ?? ACTIVITY_TTL_MS;
    this.latestChanges = new Expiring(now, ttl);
    this.histories = new Expiring(now, ttl);
    this.usages = new Expiring(now, ttl);
    this.source = store.currentSource;
    this.catalog = store.catalog;
    this.subscription = store.onDidChange(() => this.follow());
  }

  /** The flag's latest change as known now (null: it has none); undefined when it was not read (or expired). */
  peekLatest(project: string, name: string): Known<FeatureEvent | null> {
    this.follow();
    return this.refusal('history') ?? this.offline() ?? this.latestChanges.get(flagKey(project, name));
  }

  peekUsage(name: string): Known<FeatureMetricsRow[]> {
    this.follow();
    return this.refusal('usage') ?? this.offline() ?? this.usages.get(name);
  }

  /** Reads the latest change (one event) when it is not known; never rejects but for a cancellation. */
  latest(project: string, name: string, token?: CancellationLike): Promise<Known<FeatureEvent | null>> {
    const key = flagKey(project, name);
    return this.read('history', this.latestChanges, this.pendingLatest, key, token, async (source, signal) => {
      const page = await source.flagHistory!(project, name, { limit: 1, offset: 0 }, signal);
      return page.events[0] ?? null;
    }, () => this.peekLatest(project, name));
  }

  /**
   * Reads the newest `wanted` changes (at most MAX_HISTORY_EVENTS), HISTORY_PAGE at a time, stopping at the last one.
   * What is known already is kept and only the pages after it are read.
   */
  history(project: string, name: string, token?: CancellationLike, wanted: number = HISTORY_STEP): Promise<Known<History>> {
    const key = flagKey(project, name);
    const upTo = Math.max(1, Math.min(MAX_HISTORY_EVENTS, Math.floor(wanted)));
    const peek = (): Known<History> => {
      const known = this.refusal('history') ?? this.offline() ?? this.histories.get(key);
      return known !== undefined && 'value' in known && readsMore(known.value, upTo) ? undefined : known;
    };
    const start = async (source: FlagSource, signal: AbortSignal): Promise<History> => {
      const before = this.histories.get(key);
      const from = before !== undefined && 'value' in before ? before.value : { events: [] };
      const events = [...from.events];
      let read = from.read ?? 0;
      let lowest = events.at(-1)?.id;
      let page: EventPage | undefined;
      let end = false;
      while (events.length < upTo) {
        const limit = Math.min(HISTORY_PAGE, upTo - events.length);
        try {
          page = await source.flagHistory!(project, name, { limit, offset: read }, signal);
        } catch (error) {
          // The changes read so far stay shown, with why the next ones are not.
          if (events.length === 0 || error instanceof CancelledError || error instanceof ForbiddenError) throw error;
          return { ...from, events, read, total: page?.total ?? from.total, stopped: { reason: reasonOf(error), wanted: upTo } };
        }
        const got = page.events.slice(0, limit);
        // The latest change is the first of them: a hover of this flag needs no request of its own.
        if (read === 0) this.latestChanges.set(key, { value: got[0] ?? null });
        read += got.length;
        for (const event of got) {
          // A change made since the last page moved the pages by one: what was listed already is not listed again.
          if (typeof event.id === 'number' && lowest !== undefined && event.id >= lowest) continue;
          const entry = historyEntry(event);
          events.push(entry);
          if (entry.id !== undefined) lowest = entry.id;
        }
        if (page.legacy || got.length < limit || read >= (page.total ?? read)) {
          end = true;
          break;
        }
      }
      return { events, total: page?.total ?? from.total, legacy: page?.legacy ?? from.legacy, end: end || from.end, read };
    };
    return this.read('history', this.histories, this.pendingHistory, key, token, start, peek, `${key}\u0000${upTo}`);
  }

  /** Reads the flag's evaluations of the last USAGE_HOURS hours when they are not known. */
  usage(name: string, token?: CancellationLike): Promise<Known<FeatureMetricsRow[]>> {
    const read = async (source: FlagSource, signal: AbortSignal) => {
      const rows = await source.flagUsage!(name, USAGE_HOURS, signal);
      // Summed up here, in slices: a hostile answer may hold 300,000 rows, and hovers then answer from memory.
      await summarizeAnswer(rows, new Date(this.now()), USAGE_HOURS, new TimeSlices());
      return rows;
    };
    return this.read('usage', this.usages, this.pendingUsage, name, token, read, () => this.peekUsage(name));
  }

  dispose(): void {
    this.subscription.dispose();
    this.forget();
  }

  private async read<T>(
    kind: ActivityKind,
    cache: Expiring<T>,
    pending: SharedReads<T>,
    key: string,
    token: CancellationLike | undefined,
    start: (source: FlagSource, signal: AbortSignal) => Promise<T>,
    peek: () => Known<T>,
    pendingKey: string = key,
  ): Promise<Known<T>> {
    const known = peek();
    if (known !== undefined) return known;
    const source = this.store.currentSource as FlagSource;
    try {
      const value = await pending.join(pendingKey, token, async (signal) => {
        const answer = await start(source, signal);
        if (this.store.currentSource === source) cache.set(key, { value: answer });
        return answer;
      });
      // The answer was parsed and checked in this turn: whatever the caller builds of it waits for the next one, so a
      // large answer and its rendering never block the editor as one piece.
      await nextTurn();
      return { value };
    } catch (error) {
      if (error instanceof CancelledError) throw error;
      if (this.store.currentSource !== source) return undefined;
      if (error instanceof ForbiddenError) return this.refuse(kind, error);
      const unavailable = reasonOf(error);
      cache.set(key, { unavailable });
      return { unavailable };
    }
  }

  private refuse(kind: ActivityKind, error: ForbiddenError): Known<never> {
    const reason = reasonOf(error);
    if (!this.refused.has(kind)) {
      this.refused.set(kind, reason);
      this.logger.warn(
        kind === 'history'
          ? `History is left out: the token may not read the event log. ${error.message}`
          : `Usage is left out: the token may not read the metrics. ${error.message}`,
      );
    }
    return { unavailable: reason, forbidden: true };
  }

  private refusal(kind: ActivityKind): Known<never> {
    const reason = this.refused.get(kind);
    return reason === undefined ? undefined : { unavailable: reason, forbidden: true };
  }

  /** Export files (or no source): the server's history and usage are not there. */
  private offline(): Known<never> {
    const source = this.store.currentSource;
    if (source?.flagHistory && source.flagUsage) return undefined;
    return { unavailable: l10n.t('export files hold no history or usage; connect to a server to see them'), offline: true };
  }

  /** A new catalog (a refresh) forgets the answers; a new source also forgets its refusals. */
  private follow(): void {
    const { currentSource, catalog } = this.store;
    if (currentSource === this.source && catalog === this.catalog) return;
    if (currentSource !== this.source) this.refused.clear();
    this.source = currentSource;
    this.catalog = catalog;
    this.forget();
  }

  private forget(): void {
    for (const cache of [this.latestChanges, this.histories, this.usages]) cache.clear();
    for (const pending of [this.pendingLatest, this.pendingHistory, this.pendingUsage]) pending.clear();
  }
}

/**
 * An error as the end of "could not be read: …". A RangeError is the engine refusing an answer too deep or too large
 * to walk (the stack, a string's length): said in words, never as the engine's message.
 */
function reasonOf(error: unknown): string {
  if (error instanceof RangeError) return l10n.t("The server's answer is nested too deeply or is too large to read here; see the flag in Unleash.");
  return formatError(error, { request: true }).message;
}
