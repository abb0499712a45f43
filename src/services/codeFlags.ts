/**
 * What completion, diagnostics, code actions and the editor's Find Usages share: the recognition settings (SDK
 * calls, name transforms, languages, severities), and the per-catalog analyzer and completion items, each built
 * once per catalog. Reads only the store: nothing here sends a request.
 */
import * as vscode from 'vscode';
import { SETTINGS_SECTION } from '../constants';
import type { Catalog } from '../model/catalog';
import { FlagAnalyzer, severitiesFrom, type AnalysisOptions, type Severities } from '../model/flagDiagnostics';
import { FlagCompletions } from '../model/flagCompletion';
import type { NameTransform } from '../model/flagNames';
import type { FlagStore } from '../model/flagStore';
import { Emitter } from '../base/emitter';
import type { Logger } from '../util/logger';
import { readSettings } from './settings';

export interface CodeOptions {
  sdkCalls: string[] | undefined;
  transforms: NameTransform[];
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
  private completionsValue: FlagCompletions | undefined;
  private readonly recentNames: string[] = [];
  private readonly optionsChanged = new Emitter<void>();
  /** A `unleash.hover.*`, `completion.*` or `diagnostics.*` setting changed. */
  readonly onDidChangeOptions = this.optionsChanged.event;
  private readonly watcher: vscode.Disposable;

  constructor(
    readonly store: FlagStore,
    private readonly logger: Logger,
  ) {
    this.optionsValue = this.read();
    this.watcher = vscode.workspace.onDidChangeConfiguration((event) => {
      if (['hover', 'completion', 'diagnostics'].some((part) => event.affectsConfiguration(`${SETTINGS_SECTION}.${part}`))) {
        this.optionsValue = this.read();
        this.optionsChanged.fire(undefined);
      }
    });
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

  completions(): FlagCompletions {
    const catalog = this.store.catalog;
    if (this.completionsValue?.catalog !== catalog) this.completionsValue = new FlagCompletions(catalog);
    return this.completionsValue;
  }

  analysisOptions(): AnalysisOptions {
    const source = this.store.currentSource;
    return {
      sdkCalls: this.optionsValue.sdkCalls,
      transforms: this.optionsValue.transforms,
      severities: this.optionsValue.severities,
      sourceLabel: source?.label ?? '',
      sourceKind: source?.kind ?? 'server',
    };
  }

  /** Does this document's language take part (the `unleash.hover.languages` setting)? */
  covers(document: vscode.TextDocument): boolean {
    return vscode.languages.match(this.optionsValue.selector, document) > 0;
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
    const settings = readSettings();
    const severityProblems: string[] = [];
    const severities = severitiesFrom(settings.diagnostics.severity, severityProblems);
    for (const problem of severityProblems) this.logger.warn(`Setting ${SETTINGS_SECTION}.diagnostics.severity: ${problem}; ignored.`);
    return {
      sdkCalls: settings.hover.sdkCalls,
      transforms: settings.hover.nameTransforms,
      selector: settings.hover.languages,
      completion: settings.completion.enabled,
      diagnostics: settings.diagnostics.enabled,
      severities,
    };
  }

  dispose(): void {
    this.watcher.dispose();
    this.optionsChanged.dispose();
  }
}
