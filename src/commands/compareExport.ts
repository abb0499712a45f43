/**
 * "Unleash: Compare Export with Server…": VS Code's diff editor between an export file of the workspace and a fresh
 * export of the same flags from the server, in the canonical layout Export Environment writes; "Update Export" on the
 * server's side runs Export Environment into the same file. Each comparison asks the server for an export (which
 * stores an audit event there): only when the user asks, never on a timer.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Commands, EXPORT_SERVER_SCHEME } from '../base/constants';
import { driftCount } from '../model/export/exportDrift';
import { driftDescription } from '../model/export/driftText';
import { updatePlan } from '../model/export/exportUpdate';
import { loadCore } from '../services/core';
import { pickText } from '../model/text/markdown';
import type { ExportDrift, ExportFileReport } from '../services/exportDrift';
import { failWith, requireServer, withCancellableProgress, type CommandDeps, type CommandFailure } from './commandHelpers';
import type { ExportArguments, ExportCommandResult } from './exportEnvironment';
import { RecentDocuments } from './recentDocuments';
import { DisposableStore } from '../services/disposables';

interface CompareExportDeps extends CommandDeps {
  drift: ExportDrift;
}

/** What Compare Export with Server answers (for keybindings and tests). */
interface CompareResult {
  /** The export file (the diff's left side). */
  file: string;
  /** The server's side: its address, and its text. */
  server: string;
  serverText: string;
}

/** The server's side of the last few comparisons, with the export file each stands for. */
type ServerExports = RecentDocuments<{ text: string; report: ExportFileReport }>;

/**
 * Compare Export with Server… and Update Export, each on the file given (a URI, an Export Files row) or picked:
 *   await vscode.commands.executeCommand('unleash.compareExport', vscode.Uri.file('/ws/.unleash/development.json'))
 */
export function registerCompareExport(deps: CompareExportDeps): vscode.Disposable {
  const exports: ServerExports = new RecentDocuments(EXPORT_SERVER_SCHEME, 5, () =>
    vscode.l10n.t('This comparison is closed. Run "Unleash: Compare Export with Server…" again.'),
  );
  return new DisposableStore(
    exports.register(),
    vscode.commands.registerCommand(Commands.compareExport, (arg?: unknown) => compareExport(deps, exports, arg)),
    vscode.commands.registerCommand(Commands.updateExport, (arg?: unknown) => updateExport(deps, exports, arg)),
  );
}

/** The export file an argument names: a file or a comparison's URI, an Export Files row, or one picked. */
async function reportOf(deps: CompareExportDeps, exports: ServerExports, arg: unknown, title: string): Promise<ExportFileReport | undefined> {
  await deps.store.load();
  await deps.drift.check();
  const uri = arg instanceof vscode.Uri ? arg : (arg as { uri?: unknown } | undefined)?.uri instanceof vscode.Uri ? (arg as { uri: vscode.Uri }).uri : undefined;
  if (uri?.scheme === EXPORT_SERVER_SCHEME) return exports.get(uri)?.report;
  const reports = deps.drift.reports;
  if (uri) return reports.find((report) => report.uri.toString() === uri.toString());
  if (reports.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('No export file to compare: export an environment first (Unleash: Export Environment…), into .unleash/ of a workspace folder.'),
    );
    return undefined;
  }
  const outOfDate = deps.drift.outOfDateFiles;
  if (reports.length === 1) return reports[0];
  if (outOfDate.length === 1) return outOfDate[0];
  const picked = await vscode.window.showQuickPick(
    reports.map((report) => ({ report, label: pickText(report.path), description: report.drift ? driftDescription(report.drift) : report.problem })),
    { title },
  );
  return picked?.report;
}

async function compareExport(deps: CompareExportDeps, exports: ServerExports, arg: unknown): Promise<CompareResult | CommandFailure | undefined> {
  const report = await reportOf(deps, exports, arg, vscode.l10n.t('Unleash: Compare Export with Server'));
  if (!report) return undefined;
  const client = await requireServer(deps, { action: vscode.l10n.t('compare the export') }, () =>
    vscode.l10n.t('Comparing an export needs a connection to an Unleash server.'),
  );
  if ('error' in client) return client;
  const server = client.baseUrl.host;
  const { exportContent } = await loadCore();
  let text: string;
  try {
    text = await withCancellableProgress(vscode.l10n.t('Exporting {0} from {1} to compare', report.environment, server), async (signal) =>
      (await exportContent(client, report.environment, report.scope, signal)).data.toString('utf8'),
    );
  } catch (error) {
    return failWith(error, deps.logger, { action: vscode.l10n.t('export {0} to compare', report.environment), server, retry: () => compareExport(deps, exports, report.uri) });
  }
  const right = exports.add(`${path.basename(report.uri.fsPath, '.json')} (${server}).json`, { text, report });
  const changes = report.drift && driftCount(report.drift) > 0 ? ` · ${driftDescription(report.drift)}` : '';
  await vscode.commands.executeCommand('vscode.diff', report.uri, right, vscode.l10n.t('{0} ↔ {1} now{2}', report.path, server, changes), { preview: true });
  deps.logger.info(`Compared ${report.path} with a fresh export of ${report.environment} from ${server}.`);
  return { file: report.uri.toString(), server: right.toString(), serverText: text };
}

/**
 * Export Environment into the same file: the environment and flags it holds, into its own path. What the file's
 * content declares counts only when its name says the same (exportUpdate.ts); otherwise the user is asked, and a
 * file whose path cannot be written again, or that lists more flags than one export request may name, is refused.
 */
async function updateExport(deps: CompareExportDeps, exports: ServerExports, arg: unknown): Promise<ExportCommandResult | undefined> {
  const report = await reportOf(deps, exports, arg, vscode.l10n.t('Unleash: Update Export'));
  if (!report) return undefined;
  const plan = updatePlan({ folder: report.folder.fsPath, file: report.uri.fsPath, environment: report.environment, scope: report.scope });
  if (plan.kind === 'refuse') {
    deps.logger.warn(plan.message);
    void vscode.window.showWarningMessage(plan.message);
    return { error: plan.message };
  }
  if (plan.kind === 'ask') {
    const answer = await vscode.window.showWarningMessage(plan.question, { modal: true }, plan.confirm);
    if (answer !== plan.confirm) return undefined;
  }
  const args: ExportArguments = { environment: report.environment, scope: report.scope, folder: report.folder.fsPath, template: plan.template };
  const result = await vscode.commands.executeCommand<ExportCommandResult>(Commands.exportEnvironment, args);
  await deps.drift.recheck();
  return result;
}
