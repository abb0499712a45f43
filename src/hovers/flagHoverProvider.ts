/**
 * Hovers on flag names in code. The provider only reads the store: it recognises the name under the cursor against an
 * index of the catalog and renders what the store knows (`hoverMarkdown`). The first hover that can be on a flag name
 * starts reading the flag list; then a known name's hover never waits on the network (readDetails), and an unknown
 * one in an SDK call waits at most LOOKUP_WAIT_MS for the lookup among archived flags (archivedFlag).
 */
import * as vscode from 'vscode';
import { CancelledError } from '../api/errors';
import { nextTurn } from '../base/nextTurn';
import type { Feature, FeatureSummary } from '../api/schemas';
import { Commands } from '../base/constants';
import { flagKey, type Catalog } from '../model/store/catalog';
import type { FlagNameIndex } from '../model/code/flagNameIndex';
import { findFlagAt, findFlagInCode } from '../model/code/flagNames';
import type { NameTransform } from '../model/code/nameTransforms';
import { hoverMayNameFlag } from '../model/store/flagDemand';
import type { FlagStore } from '../model/store/flagStore';
import { isValidFlagName } from '../model/code/flagNameRule';
import { hoverMarkdown, type HoverMatch } from '../model/content/hoverContent';
import { HOVER_LIMITS } from '../model/content/hoverLimits';
import { archivedFlagMarkdown, lookupPendingMarkdown, unknownFlagMarkdown } from '../model/content/unlistedFlagContent';
import { activityMarkdown } from '../model/activity/activityText';
import { USAGE_HOURS, type FlagActivity } from '../model/activity/flagActivity';
import { registerAgainOn } from '../services/disposables';
import type { HoverSettingsByFolder } from '../services/hoverSettingsByFolder';
import type { Logger } from '../base/logger';

/** Lines longer than this (minified bundles) get no hover: recognition scans the line up to the cursor. */
export const MAX_HOVER_LINE = 200_000;

/** Longest a hover waits for the lookup of a name among archived flags (one search request). */
export const LOOKUP_WAIT_MS = 2_000;

/** Configuration languages whose strings need no quotes: a whole value there is a literal too. */
const PLAIN_SCALAR_LANGUAGES = new Set(['yaml', 'dockercompose', 'properties', 'ini', 'dotenv', 'env', 'toml']);

interface HoverOptions {
  transforms: NameTransform[];
  /** undefined: the built-in list of SDK calls. */
  sdkCalls: string[] | undefined;
  /** `unleash.hover.matchAnywhere`: names in comments and prose too (`findFlagAt`), not only as code names them. */
  matchAnywhere?: boolean;
  /** `unleash.environments`: the environments shown, in order (empty or not given: all). */
  environments?: readonly string[];
}

/** The part of the store the provider reads (a FlagStore; narrowed so tests can pass a stand-in). */
type HoverStore = Pick<
  FlagStore,
  | 'state' | 'catalog' | 'currentSource' | 'peekFeature' | 'feature' | 'peekArchived' | 'findArchived' | 'load'
  | 'status' | 'findsArchived' | 'archivedLookupFailed'
>;

/** The part of FlagActivity the provider reads: the last change and usage of a flag, known or to read. */
type HoverActivity = Pick<FlagActivity, 'peekLatest' | 'peekUsage' | 'latest' | 'usage'>;

/** The options for one document (its folder's settings); undefined where hovers are off or its language is not listed. */
type HoverOptionsOf = (document: vscode.TextDocument) => HoverOptions | undefined;

export class FlagHoverProvider implements vscode.HoverProvider {
  /** Details reads that failed (by flagKey), per catalog: a new catalog tries them again. */
  private readonly failed = new WeakMap<Catalog, Set<string>>();
  /** The catalog whose name index was last logged. */
  private indexedCatalog: Catalog | undefined;

  constructor(
    private readonly store: HoverStore,
    private readonly logger: Logger,
    private options: HoverOptions | HoverOptionsOf,
    private readonly activity?: HoverActivity,
  ) {
  }

  setOptions(options: HoverOptions | HoverOptionsOf): void {
    this.options = options;
  }

  /** The name index of the current catalog (built once per catalog, shared with diagnostics and hints), logged once. */
  nameIndex(): FlagNameIndex {
    const catalog = this.store.catalog;
    if (this.indexedCatalog !== catalog) {
      const started = performance.now();
      const { size } = catalog.nameIndex;
      this.indexedCatalog = catalog;
      this.logger.debug(`Indexed ${size} flag names in ${(performance.now() - started).toFixed(1)} ms.`);
    }
    return catalog.nameIndex;
  }

  async provideHover(
    document: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.Hover | undefined> {
    if (!this.store.currentSource || position.line >= document.lineCount) return undefined;
    const settings = typeof this.options === 'function' ? this.options(document) : this.options;
    if (!settings) return undefined;
    const line = document.lineAt(position.line).text;
    if (line.length > MAX_HOVER_LINE) return undefined;
    const plainScalars = PLAIN_SCALAR_LANGUAGES.has(document.languageId);
    if (this.store.state === 'idle') {
      // Nothing needed the flags yet: the first hover that can be on a flag name reads the list and waits for it.
      if (!hoverMayNameFlag(line, position.character, { ...settings, plainScalars })) return undefined;
      await this.store.load(token);
      if (token.isCancellationRequested) return undefined;
    }
    const source = this.store.currentSource;
    if (!source) return undefined;
    const options = { transforms: settings.transforms, sdkCalls: settings.sdkCalls };
    const match =
      settings.matchAnywhere === true
        ? findFlagAt(line, position.character, this.nameIndex(), options)
        : findFlagInCode(line, position.character, this.nameIndex(), {
            ...options,
            plainScalars,
          });
    if (!match) return undefined;
    const range = new vscode.Range(position.line, match.start, position.line, match.end);

    if (!match.known) {
      // Only a catalog that finished loading can say a name does not exist.
      if (match.inSdkCall === undefined || this.store.state !== 'ready') return undefined;
      const archived = await this.archivedFlag(match.name, token);
      if (token.isCancellationRequested) return undefined;
      if (archived === 'pending') return hover(lookupPendingMarkdown(match.name, source.label, match.inSdkCall), range);
      return hover(
        archived
          ? archivedFlagMarkdown(archived, match.inSdkCall, source.label)
          : unknownFlagMarkdown(match.name, source.label, match.inSdkCall, source.kind),
        range,
      );
    }

    const summaries = this.store.catalog.byName(match.name);
    if (summaries.length === 0) return undefined;
    const reads: Array<Promise<unknown>> = [];
    // Only the projects the hover shows: a name held by thousands of projects is read a handful at a time.
    for (const summary of summaries.slice(0, HOVER_LIMITS.projects)) {
      const project = summary.project ?? '';
      if (this.store.peekFeature(project, summary.name) || this.hasFailed(project, summary.name)) continue;
      reads.push(this.readDetails(project, summary.name, token));
    }
    for (const read of this.activityReads(summaries, token)) reads.push(read);
    if (reads.length > 0) {
      // One event-loop turn: enough for an in-memory source, never enough for a network round trip.
      await Promise.race([Promise.allSettled(reads), nextTurn()]);
      if (token.isCancellationRequested) return undefined;
    }

    const now = new Date();
    const matches: HoverMatch[] = summaries.map((summary) => {
      const project = summary.project ?? '';
      const details: Feature | undefined = this.store.peekFeature(project, summary.name);
      const status = this.store.status(summary, project);
      const activity = this.activityOf(project, summary.name, now);
      if (details) return { summary, details, status, activity };
      return { summary, status, detailsState: this.hasFailed(project, summary.name) ? 'unavailable' : 'loading', activity };
    });
    const webUrl = source.webUrl?.bind(source);
    return hover(hoverMarkdown({ matches, sourceLabel: source.label, webUrl, now, environments: settings.environments }), range);
  }

  /**
   * The archived flag of a name the listing does not have (undefined: none, or the source cannot tell, or the lookup
   * failed: the store logs it and does not ask again until a refresh). The lookup is started when the store has no
   * answer yet and waited for at most LOOKUP_WAIT_MS; `pending` when it is still out then.
   */
  private async archivedFlag(name: string, token: vscode.CancellationToken): Promise<FeatureSummary | undefined | 'pending'> {
    const known = this.store.peekArchived(name);
    if (known !== undefined) return known ?? undefined;
    if (!this.store.findsArchived || !isValidFlagName(name) || this.store.archivedLookupFailed(name)) return undefined;
    const lookup = this.store.findArchived(name, token).catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, LOOKUP_WAIT_MS)));
    await Promise.race([lookup, waited]);
    clearTimeout(timer);
    const answer = this.store.peekArchived(name);
    if (answer !== undefined) return answer ?? undefined;
    return this.store.archivedLookupFailed(name) || token.isCancellationRequested ? undefined : 'pending';
  }

  /**
   * Starts the reads of the last change and usage of the flags shown (the first HOVER_LIMITS.projects) that are not
   * known yet; each never rejects (FlagActivity remembers a failure as an answer).
   */
  private activityReads(summaries: readonly FeatureSummary[], token: vscode.CancellationToken): Array<Promise<unknown>> {
    const activity = this.activity;
    if (!activity) return [];
    const reads: Array<Promise<unknown>> = [];
    for (const summary of summaries.slice(0, HOVER_LIMITS.projects)) {
      const project = summary.project ?? '';
      if (activity.peekLatest(project, summary.name) === undefined) reads.push(activity.latest(project, summary.name, token).catch(() => undefined));
      if (activity.peekUsage(summary.name) === undefined) reads.push(activity.usage(summary.name, token).catch(() => undefined));
    }
    return reads;
  }

  /** The activity lines of one flag from what is known now ('' when there is nothing to add). */
  private activityOf(project: string, name: string, now: Date): string | undefined {
    if (!this.activity) return undefined;
    const text = activityMarkdown({ latest: this.activity.peekLatest(project, name), usage: this.activity.peekUsage(name), now, hours: USAGE_HOURS });
    return text === '' ? undefined : text;
  }

  /**
   * Starts (or joins) the store's read of one flag's details with the hover's token (the store aborts it once every
   * waiter cancelled); never rejects. The hover waits one event-loop turn for it: a source answering from memory shows
   * the details at once, a server's show on the next hover. A failed read is not retried until the catalog changes.
   */
  private async readDetails(project: string, name: string, token: vscode.CancellationToken): Promise<void> {
    const catalog = this.store.catalog;
    try {
      await this.store.feature(project, name, token);
    } catch (error) {
      if (error instanceof CancelledError || token.isCancellationRequested) return;
      // Details of a catalog that has since been replaced are no one's concern.
      if (this.store.catalog !== catalog) return;
      const failed = this.failed.get(catalog) ?? new Set<string>();
      this.failed.set(catalog, failed.add(flagKey(project, name)));
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn(`Reading the details of ${JSON.stringify(name)} (project ${JSON.stringify(project)}) for a hover failed: ${reason}`);
    }
  }

  /** Whether reading the details of `name` failed for the current catalog. */
  private hasFailed(project: string, name: string): boolean {
    return this.failed.get(this.store.catalog)?.has(flagKey(project, name)) === true;
  }
}

function hover(value: string, range: vscode.Range): vscode.Hover {
  const markdown = new vscode.MarkdownString(value, false);
  // Only our own three commands may run from a hover link; flag data never produces a link to them (it is escaped).
  markdown.isTrusted = { enabledCommands: [Commands.revealFlag, Commands.copyFlagName, Commands.showFlagDetails] };
  markdown.supportHtml = false;
  markdown.supportThemeIcons = false;
  return new vscode.Hover(markdown, range);
}

/**
 * Registers the flag hover for the documents any folder's `unleash.hover.languages` covers (again when a
 * `unleash.hover.*` setting changes; none when every folder has `unleash.hover.enabled` off). Each hover follows the
 * settings of its document's folder. The returned Disposable removes everything.
 */
export function registerFlagHovers(deps: { store: FlagStore; settings: HoverSettingsByFolder; logger: Logger; activity?: HoverActivity }): vscode.Disposable {
  const { store, settings, logger } = deps;
  const optionsOf: HoverOptionsOf = (document) => {
    const own = settings.of(document);
    if (!own.enabled || !settings.covers(document)) return undefined;
    return { transforms: own.nameTransforms, sdkCalls: own.sdkCalls, matchAnywhere: own.matchAnywhere, environments: own.environments };
  };
  const provider = new FlagHoverProvider(store, logger, optionsOf, deps.activity);
  const register = (): vscode.Disposable | undefined => {
    const { languages, enabled, problems } = settings.registration();
    for (const { setting, problem } of problems) logger.warn(`Setting ${setting}: ${problem}; ignored.`);
    if (!enabled) {
      logger.info('Hovers are off (unleash.hover.enabled).');
      return undefined;
    }
    const named = languages.some((filter) => filter.language !== undefined)
      ? [...new Set(languages.map((filter) => filter.language))].join(', ')
      : 'all languages';
    logger.debug(`Hovers registered for ${named}.`);
    return vscode.languages.registerHoverProvider(languages, provider);
  };
  return registerAgainOn(settings.onDidChange, register);
}
