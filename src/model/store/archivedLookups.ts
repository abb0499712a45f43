/**
 * Names looked up among archived flags (the listing leaves those out), so that a name code reads is called archived
 * rather than unknown. Each name is asked once until the next listing, and only a few per listing: each is a search
 * request, and Unleash 8 allows a client 15 searches a minute, which the listing needs too.
 */
import type { FeatureSummary } from '../../api/schemas';
import type { CancellationLike } from '../../base/emitter';
import type { Logger } from '../../base/logger';
import { logText } from './logText';
import { SharedReads } from './sharedReads';

/** Names remembered as archived or not; past this the memory starts again (typos are unbounded). */
const MAX_ARCHIVED_LOOKUPS = 1_000;
/** Names looked up per listing; past this a name counts as not checked (unknown) until the next refresh. */
export const MAX_LOOKUPS_PER_LISTING = 10;

/** The search of one name among archived flags (`FlagSource.findArchived`). */
type FindArchived = (name: string, signal: AbortSignal) => Promise<FeatureSummary | undefined>;

export class ArchivedLookups {
  /** The archived flag of each name looked up, or null for none. */
  private readonly found = new Map<string, FeatureSummary | null>();
  /** Names whose lookup failed (until the next refresh): no verdict, and not asked again. */
  private readonly failedNames = new Set<string>();
  /** Lookups sent since the last listing (MAX_LOOKUPS_PER_LISTING). */
  private asked = 0;
  private readonly pending = new SharedReads<FeatureSummary | undefined>();

  /** `changed`: an answer, or a failure, came in (the status of a name changed). */
  constructor(
    private readonly logger: Pick<Logger, 'info' | 'error'>,
    private readonly changed: () => void,
  ) {}

  /** The archived flag, null when there is none, undefined when that name was not looked up (yet). */
  peek(name: string): FeatureSummary | null | undefined {
    return this.found.get(name);
  }

  failed(name: string): boolean {
    return this.failedNames.has(name);
  }

  /**
   * The archived flag of this name through `find`, asked once per name; undefined where none is known. `current`
   * says whether the source that answers is still the store's (an answer for an old source is not kept).
   */
  async find(name: string, find: FindArchived, current: () => boolean, token?: CancellationLike): Promise<FeatureSummary | undefined> {
    const known = this.found.get(name);
    if (known !== undefined) return known ?? undefined;
    if (this.failedNames.has(name)) return undefined;
    return this.pending.join(name, token, async (signal) => {
      if (this.asked >= MAX_LOOKUPS_PER_LISTING) {
        this.rememberFailed(name);
        this.logger.info(`Not looking up ${JSON.stringify(name)} among archived flags: ${MAX_LOOKUPS_PER_LISTING} names were, since the last refresh.`);
        this.changed();
        return undefined;
      }
      this.asked++;
      let flag: FeatureSummary | undefined;
      try {
        flag = await find(name, signal);
      } catch (error) {
        if (current() && !signal.aborted) {
          this.rememberFailed(name);
          this.logger.error(`Looking for an archived flag named ${JSON.stringify(name)} failed: ${logText(error)}`);
          this.changed();
        }
        throw error;
      }
      if (current()) {
        if (this.found.size >= MAX_ARCHIVED_LOOKUPS) this.found.clear();
        this.found.set(name, flag ?? null);
        this.changed();
      }
      return flag;
    });
  }

  /** A new listing (or source): every name may be asked again. */
  clear(): void {
    this.found.clear();
    this.failedNames.clear();
    this.asked = 0;
    this.pending.clear();
  }

  private rememberFailed(name: string): void {
    if (this.failedNames.size >= MAX_ARCHIVED_LOOKUPS) this.failedNames.clear();
    this.failedNames.add(name);
  }
}
