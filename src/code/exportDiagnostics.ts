/**
 * Diagnostics on an export file that the server has moved away from (services/exportDrift.ts): one at the top saying
 * what changed and what to do, and one on the entry of each flag that was removed, enabled or disabled since (at most
 * MAX_FLAG_DIAGNOSTICS), on the line the drift check found it at, each with the quick actions Compare Export with
 * Server… and Update Export. Published again only when what they say changes.
 */
import * as vscode from 'vscode';
import { Commands, EXPORT_FOLDER } from '../base/constants';
import { driftCount, type Drift } from '../model/export/exportDrift';
import { driftFlagMessage, driftMessage } from '../model/export/driftText';
import { DIAGNOSTIC_SOURCE } from '../model/code/flagDiagnostics';
import { DisposableStore } from '../services/disposables';
import type { ExportDrift, ExportFileReport } from '../services/exportDrift';
import type { Logger } from '../base/logger';

/** The code of these diagnostics (their code actions look for it). */
const DRIFT_DIAGNOSTIC_CODE = 'export-out-of-date';
const MAX_FLAG_DIAGNOSTICS = 100;

export class ExportDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('unleash-exports');
  /** What each file's diagnostics say, so that unchanged ones are not published again. */
  private readonly signatures = new Map<string, string>();
  private readonly owned: DisposableStore;
  private run = Promise.resolve();

  constructor(
    private readonly drift: ExportDrift,
    private readonly logger: Logger,
  ) {
    this.owned = new DisposableStore(
      vscode.languages.registerCodeActionsProvider({ pattern: `**/${EXPORT_FOLDER}/*.json` }, new ExportDriftActions(), ExportDriftActions.metadata),
      drift.onDidChange(() => {
        this.run = this.run.then(() => this.update()).catch((error: unknown) => this.logger.warn(`Export diagnostics: ${String(error)}`));
      }),
      this.collection,
    );
  }

  /** Resolves once the diagnostics follow the last reports. */
  settled(): Promise<void> {
    return this.run;
  }

  private async update(): Promise<void> {
    const current = new Set<string>();
    for (const report of this.drift.reports) {
      if (!report.drift || driftCount(report.drift) === 0) continue;
      const key = report.uri.toString();
      current.add(key);
      const diagnostics = this.diagnostics(report, report.drift);
      const signature = diagnostics.map((diagnostic) => `${diagnostic.range.start.line}:${diagnostic.message}`).join('\n');
      if (this.signatures.get(key) === signature) continue;
      this.signatures.set(key, signature);
      this.collection.set(report.uri, diagnostics);
    }
    for (const key of [...this.signatures.keys()]) {
      if (current.has(key)) continue;
      this.signatures.delete(key);
      this.collection.delete(vscode.Uri.parse(key));
    }
  }

  private diagnostics(report: ExportFileReport, drift: Drift): vscode.Diagnostic[] {
    const server = this.drift.server;
    const top = make(new vscode.Range(0, 0, 0, 1), driftMessage(server, drift, report.environment));
    const flags = (['removed', 'enabled', 'disabled'] as const).flatMap((kind) => drift[kind].slice(0, MAX_FLAG_DIAGNOSTICS).map((flag) => ({ kind, flag }))).slice(0, MAX_FLAG_DIAGNOSTICS);
    const onFlags = flags.map(({ kind, flag }) => {
      const line = flag.line ?? 0;
      return make(new vscode.Range(line, 0, line, 1_000), driftFlagMessage(kind, flag, server, report.environment));
    });
    return [top, ...onFlags];
  }

  dispose(): void {
    this.owned.dispose();
  }
}

/** On an out-of-date export file's diagnostics: Compare Export with Server… and Update Export, for that file. */
class ExportDriftActions implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const diagnostics = context.diagnostics.filter((diagnostic) => diagnostic.code === DRIFT_DIAGNOSTIC_CODE);
    if (diagnostics.length === 0) return [];
    return [
      [vscode.l10n.t('Compare Export with Server…'), Commands.compareExport],
      [vscode.l10n.t('Update Export'), Commands.updateExport],
    ].map(([title, command]) => {
      const action = new vscode.CodeAction(title as string, vscode.CodeActionKind.QuickFix);
      action.diagnostics = diagnostics;
      action.command = { command: command as string, title: title as string, arguments: [document.uri] };
      return action;
    });
  }
}

function make(range: vscode.Range, message: string): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(range, message, vscode.DiagnosticSeverity.Warning);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = DRIFT_DIAGNOSTIC_CODE;
  return diagnostic;
}
