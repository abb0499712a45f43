/**
 * What completion, diagnostics, code actions and the editor's Find Usages share: the recognition settings (SDK
 * calls, name transforms and languages of each document's folder; severities), and the per-catalog analyzer and
 * completion items, each built once per catalog. Reads only the store: nothing here sends a request.
 */
import * as vscode from 'vscode';
import { SETTINGS_SECTION } from '../base/constants';
import { TimeSlices } from '../base/timeSlices';
import type { Catalog } from '../model/store/catalog';
import { FlagAnalyzer, severitiesFrom, type AnalysisOptions, type Severities } from '../model/code/flagDiagnostics';
import { FlagCompletions } from '../model/code/flagCompletion';
import { isValidFlagName } from '../model/code/flagNameRule';
import type { NameTransform } from '../model/code/nameTransforms';
import type { FlagStore } from '../model/store/flagStore';
import { Emitter } from '../base/emitter';
import type { Logger } from '../base/logger';
import type { HoverSettingsByFolder } from './hoverSettingsByFolder';
import { readCodeSettings } from './settings';
import { DisposableStore } from './disposables';

interface CodeOptions {
  /** The window's (no folder's) SDK calls and transforms; a document's own are `naming(document)`. */
  sdkCalls: string[] | undefined;
  transforms: NameTransform[];
  /** What providers are registered for: every document some folder's `unleash.hover.languages` covers. */
  selector: vscode.DocumentFilter[];
  completion: boolean;
  diagnostics: boolean;
  severities: Severities;
}

/** Names accepted from completion that rank first next time. */
const MAX_RECENT = 20;

export class CodeFlags implements vscode.Disposable {
  private optionsValue: CodeOptions;
  private analyzerValue: FlagAnalyzer | undefined;
  /** The completion items of the last catalog asked for, built in time slices. */
  private completionsValue: { catalog: Catalog; built: Promise<FlagCompletions> } | undefined;
  private readonly recentNames: string[] = [];
  private readonly optionsChanged = new Emitter<void>();
  /** A `unleash.hover.*`, `completion.*` or `diagnostics.*` setting changed. */
  readonly onDidChangeOptions = this.optionsChanged.event;
  private readonly owned: DisposableStore;

  constructor(
    readonly store: FlagStore,
    private readonly logger: Logger,
    private readonly hoverSettings: HoverSettingsByFolder,
  ) {
    this.optionsValue = this.read();
    const reread = () => {
      this.optionsValue = this.read();
      this.optionsChanged.fire(undefined);
    };
    this.owned = new DisposableStore(
      this.optionsChanged,
      // The hover settings' own cache is reset first: it fires after it did.
      hoverSettings.onDidChange(reread),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (['completion', 'diagnostics'].some((part) => event.affectsConfiguration(`${SETTINGS_SECTION}.${part}`))) reread();
      }),
    );
  }

  /** How `document` names flags: the SDK calls and name transforms of its folder's `unleash.hover.*`. */
  naming(document: { readonly uri: vscode.Uri } | undefined): { sdkCalls: string[] | undefined; transforms: NameTransform[] } {
    if (!document) return { sdkCalls: this.optionsValue.sdkCalls, transforms: this.optionsValue.transforms };
    const own = this.hoverSettings.of(document);
    return { sdkCalls: own.sdkCalls, transforms: own.nameTransforms };
  }

  /** `unleash.environments` of the document's folder (the window's without a document): which states to show. */
  environments(document?: { readonly uri: vscode.Uri }): string[] {
    return (document ? this.hoverSettings.of(document) : this.hoverSettings.window()).environments;
  }

  /** How Find Usages reads a file: its folder's naming, and whether its hovers match names anywhere. */
  usageOptions(uri: vscode.Uri): { sdkCalls: string[] | undefined; transforms: NameTransform[]; matchAnywhere: boolean } {
    const own = this.hoverSettings.of({ uri });
    return { sdkCalls: own.sdkCalls, transforms: own.nameTransforms, matchAnywhere: own.matchAnywhere };
  }

  get options(): CodeOptions {
    return this.optionsValue;
  }

  /** The catalog can judge names: loaded, from a source. Loading or failed: no verdicts (no false alarms). */
  get ready(): boolean {
    return this.store.state === 'ready' && this.store.currentSource !== undefined;
  }

  analyzer(): FlagAnalyzer {
    const catalog: Catalog = this.store.catalog;
    if (this.analyzerValue?.catalog !== catalog) this.analyzerValue = new FlagAnalyzer(catalog);
    return this.analyzerValue;
  }

  /** The completion items of the catalog, as `document`'s folder shows environments (built once per catalog). */
  async completions(document?: { readonly uri: vscode.Uri }): Promise<FlagCompletions> {
    const catalog = this.store.catalog;
    if (this.completionsValue?.catalog !== catalog) {
      this.completionsValue = { catalog, built: FlagCompletions.build(catalog, (flag) => this.store.status(flag), new TimeSlices()) };
    }
    return (await this.completionsValue.built).withEnvironments(this.environments(document));
  }

  /**
   * How to analyse `document` (its folder's naming), or any file of the workspace check when none is given: each
   * flag's status and the archived lookups as the store has them.
   */
  analysisOptions(document?: { readonly uri: vscode.Uri }): AnalysisOptions {
    const store = this.store;
    const source = store.currentSource;
    const naming = this.naming(document);
    return {
      sdkCalls: naming.sdkCalls,
      transforms: naming.transforms,
      severities: this.optionsValue.severities,
      sourceLabel: source?.label ?? '',
      sourceKind: source?.kind ?? 'server',
      status: (flag) => store.status(flag),
      // Only a name Unleash accepts can be an archived flag's; a failed lookup gives no verdict (unknown, as before).
      archived: store.findsArchived
        ? (name) => (!isValidFlagName(name) || store.archivedLookupFailed(name) ? null : store.peekArchived(name))
        : undefined,
    };
  }

  /** Does this document's language take part (its folder's `unleash.hover.languages`)? */
  covers(document: vscode.TextDocument): boolean {
    return this.hoverSettings.covers(document);
  }

  get recent(): readonly string[] {
    return this.recentNames;
  }

  recordUse(name: unknown): void {
    if (typeof name !== 'string' || name === '') return;
    const at = this.recentNames.indexOf(name);
    if (at >= 0) this.recentNames.splice(at, 1);
    this.recentNames.unshift(name);
    this.recentNames.length = Math.min(this.recentNames.length, MAX_RECENT);
  }

  private read(): CodeOptions {
    const settings = readCodeSettings();
    const hover = this.hoverSettings.window();
    const severityProblems: string[] = [];
    const severities = severitiesFrom(settings.severity, severityProblems);
    for (const { setting, problem } of settings.problems) this.logger.warn(`Setting ${setting}: ${problem}; ignored.`);
    for (const problem of severityProblems) this.logger.warn(`Setting ${SETTINGS_SECTION}.diagnostics.severity: ${problem}; ignored.`);
    return {
      sdkCalls: hover.sdkCalls,
      transforms: hover.nameTransforms,
      selector: this.hoverSettings.registration().languages,
      completion: settings.completion,
      diagnostics: settings.diagnostics,
      severities,
    };
  }

  dispose(): void {
    this.owned.dispose();
  }
}
