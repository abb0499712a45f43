/**
 * Publishes flag diagnostics for open documents: on open, on a settled edit (debounced), and again when the catalog,
 * a flag's status or the settings change. Never while the catalog is loading or failed (stale verdicts are cleared
 * then). A name the listing lacks waits for its lookup among archived flags, then says archived or unknown, never one
 * and then the other.
 */
import * as vscode from 'vscode';
import { callsSdk } from '../model/store/flagDemand';
import { DIAGNOSTIC_SOURCE, type FlagDiagnostic } from '../model/code/flagDiagnostics';
import type { FlagStore } from '../model/store/flagStore';
import type { CodeFlags } from '../services/codeFlags';
import { codeSchemes } from '../services/settings';
import { DisposableStore } from '../services/disposables';
import type { Logger } from '../base/logger';

/** Quiet time after the last keystroke before a document is analysed again. */
export const DIAGNOSTICS_DEBOUNCE_MS = 400;
/** Documents longer than this (characters) are not analysed. */
const MAX_ANALYSED_DOCUMENT = 5_000_000;
/** Names one document (or one file of the workspace check) looks up among archived flags; the rest show as unknown. */
const MAX_LOOKUPS_PER_DOCUMENT = 20;
/** Quiet time after a status change (an archived lookup answered) before open documents are analysed again. */
const STATUS_DEBOUNCE_MS = 50;

/**
 * Starts the store's lookup among archived flags of the names in `found` that await one (at most
 * MAX_LOOKUPS_PER_DOCUMENT): the names asked, and a promise that settles when every answer (or failure) is in.
 */
export function lookUpArchived(store: FlagStore, found: readonly FlagDiagnostic[]): { names: Set<string>; settled: Promise<void> } {
  const names = new Set<string>();
  for (const diagnostic of found) {
    if (names.size >= MAX_LOOKUPS_PER_DOCUMENT) break;
    if (diagnostic.awaitsLookup) names.add(diagnostic.text);
  }
  // Failures are the store's to remember (and log): the name then shows as unknown.
  const settled = Promise.allSettled([...names].map((name) => store.findArchived(name))).then(() => undefined);
  return { names, settled };
}

const SEVERITY: Record<FlagDiagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

/** A model diagnostic as VS Code shows it. */
function toDiagnostic(found: FlagDiagnostic): vscode.Diagnostic {
  const range = new vscode.Range(found.line, found.start, found.line, found.end);
  const diagnostic = new vscode.Diagnostic(range, found.message, SEVERITY[found.severity]);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = found.code;
  if (found.kind === 'archived' || found.kind === 'stale' || found.kind === 'completed') {
    diagnostic.tags = [vscode.DiagnosticTag.Unnecessary];
  }
  return diagnostic;
}

export class FlagDiagnosticsPublisher implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('unleash');
  /** What was published, by document URI: code actions look up a diagnostic's suggestions here. */
  private readonly published = new Map<string, FlagDiagnostic[]>();
  /** Files the workspace check reported: kept when their editor closes. */
  private readonly fromWorkspaceCheck = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** The latest analysis of each document (an older one that finishes later is dropped), and those running. */
  private readonly runs = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  private statusTimer: NodeJS.Timeout | undefined;
  private readonly owned: DisposableStore;

  constructor(
    private readonly flags: CodeFlags,
    private readonly logger: Logger,
  ) {
    this.owned = new DisposableStore(
      this.collection,
      flags.store.onDidChange(() => this.refreshAll()),
      flags.store.onDidChangeStatus(() => this.scheduleOpenDocuments()),
      flags.onDidChangeOptions(() => this.refreshAll()),
      vscode.workspace.onDidOpenTextDocument((document) => this.analyse(document)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0) this.schedule(event.document);
      }),
      vscode.workspace.onDidCloseTextDocument((document) => {
        const key = document.uri.toString();
        this.cancel(key);
        this.runs.delete(key);
        if (!this.fromWorkspaceCheck.has(key)) this.clear(document.uri);
      }),
    );
    this.refreshAll();
  }

  /** The flag diagnostic published at `range` with `code` in `uri`. */
  lookup(uri: vscode.Uri, range: vscode.Range, code: unknown): FlagDiagnostic | undefined {
    return this.published
      .get(uri.toString())
      ?.find((d) => d.code === code && d.line === range.start.line && d.start === range.start.character && d.end === range.end.character);
  }

  /** Publishes the result of analysing a file that may not be open (the workspace check). */
  publish(uri: vscode.Uri, found: FlagDiagnostic[], fromWorkspaceCheck = false): void {
    const key = uri.toString();
    if (fromWorkspaceCheck) this.fromWorkspaceCheck.add(key);
    if (found.length === 0) {
      this.clear(uri);
      return;
    }
    this.published.set(key, found);
    this.collection.set(uri, found.map(toDiagnostic));
  }

  /**
   * Analyses one document (when the catalog is ready and the document's language takes part), in time slices: a
   * newer analysis of the same document, or of everything, supersedes it. `settled()` resolves once all are done.
   */
  analyse(document: vscode.TextDocument): void {
    const run = this.analyseNow(document).catch((error: unknown) => this.logger.warn(`Diagnostics of ${document.uri.toString()}: ${String(error)}`));
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  /** Resolves once every analysis started so far has published. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  private async analyseNow(document: vscode.TextDocument): Promise<void> {
    if (!this.flags.options.diagnostics) return;
    if (!codeSchemes().includes(document.uri.scheme)) return;
    if (!this.flags.ready) {
      this.loadIfCalled(document);
      return;
    }
    if (!this.flags.covers(document)) {
      this.clear(document.uri);
      return;
    }
    const text = document.getText();
    if (text.length > MAX_ANALYSED_DOCUMENT) return;
    const started = performance.now();
    const key = document.uri.toString();
    const run = (this.runs.get(key) ?? 0) + 1;
    this.runs.set(key, run);
    const found = await this.flags.analyzer().analyse(text, this.flags.analysisOptions(document));
    if (this.runs.get(key) !== run) return;
    this.runs.delete(key);
    // Names being looked up among archived flags are shown once the answer is in (a status change analyses again).
    const asked = lookUpArchived(this.flags.store, found).names;
    this.publish(document.uri, found.filter((d) => !(d.awaitsLookup && asked.has(d.text))));
    this.logger.trace(`Analysed ${document.uri.fsPath || document.uri.toString()} in ${(performance.now() - started).toFixed(1)} ms: ${found.length} diagnostics.`);
  }

  /** A flag's status changed (an archived lookup answered, details proved a stage): the open documents again, soon. */
  private scheduleOpenDocuments(): void {
    if (this.statusTimer) return;
    this.statusTimer = setTimeout(() => {
      this.statusTimer = undefined;
      if (!this.flags.options.diagnostics) return;
      for (const document of vscode.workspace.textDocuments) {
        if (!this.timers.has(document.uri.toString())) this.analyse(document);
      }
    }, STATUS_DEBOUNCE_MS);
  }

  /**
   * Nothing needed the flags yet: a document that passes a flag name to an SDK call does (the list is read, and every
   * open document analysed once it is). Other documents cost a text search and no request.
   */
  private loadIfCalled(document: vscode.TextDocument): void {
    const store = this.flags.store;
    if (store.state !== 'idle' || !this.flags.covers(document)) return;
    const text = document.getText();
    if (text.length > MAX_ANALYSED_DOCUMENT || !callsSdk(text, this.flags.naming(document).sdkCalls)) return;
    this.logger.info(`${document.uri.fsPath || document.uri.toString()} calls an SDK: reading the flags.`);
    void store.load();
  }

  private schedule(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    this.cancel(key);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.analyse(document);
      }, DIAGNOSTICS_DEBOUNCE_MS),
    );
  }

  private cancel(key: string): void {
    const timer = this.timers.get(key);
    if (timer) clearTimeout(timer);
    this.timers.delete(key);
  }

  private clear(uri: vscode.Uri): void {
    this.published.delete(uri.toString());
    this.collection.delete(uri);
  }

  /** After a catalog or settings change: everything again, or nothing when the catalog cannot judge names. */
  private refreshAll(): void {
    for (const key of this.timers.keys()) this.cancel(key);
    this.collection.clear();
    this.published.clear();
    this.fromWorkspaceCheck.clear();
    if (!this.flags.options.diagnostics) return;
    for (const document of vscode.workspace.textDocuments) this.analyse(document);
  }

  dispose(): void {
    clearTimeout(this.statusTimer);
    for (const key of [...this.timers.keys()]) this.cancel(key);
    this.owned.dispose();
  }
}
