/**
 * "Check Workspace for Flag References": analyses every source file of the workspace (not only open ones) against
 * the catalog in memory, with progress and cancellation, and puts the findings in the Problems panel.
 */
import * as vscode from 'vscode';
import { Commands, SOURCE_FILES_EXCLUDE, SOURCE_FILES_GLOB } from '../constants';
import type { FlagDiagnosticsPublisher } from '../code/flagDiagnosticsPublisher';
import type { CodeFlags } from '../services/codeFlags';
import type { Logger } from '../util/logger';
import { plural } from '../model/wording';

/** At most this many files are read; larger files are skipped. */
export const MAX_CHECKED_FILES = 20_000;
export const MAX_CHECKED_FILE_BYTES = 2_000_000;

export interface WorkspaceCheck {
  files: number;
  filesWithProblems: number;
  problems: number;
  cancelled: boolean;
}

export function registerCheckWorkspaceCommand(deps: { flags: CodeFlags; publisher: FlagDiagnosticsPublisher; logger: Logger }): vscode.Disposable {
  return vscode.commands.registerCommand(Commands.checkWorkspaceFlags, () => checkWorkspace(deps));
}

async function checkWorkspace(deps: { flags: CodeFlags; publisher: FlagDiagnosticsPublisher; logger: Logger }): Promise<WorkspaceCheck | undefined> {
  const { flags, publisher, logger } = deps;
  await flags.store.load();
  if (!flags.ready) {
    void vscode.window.showInformationMessage(
      flags.store.state === 'loading' ? 'The flags are still loading; check again in a moment.' : 'Load the flags first: connect to a server or add export files in .unleash/.',
    );
    return undefined;
  }
  const result: WorkspaceCheck = { files: 0, filesWithProblems: 0, problems: 0, cancelled: false };
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Checking flag references', cancellable: true },
    async (progress, token) => {
      const uris = await vscode.workspace.findFiles(SOURCE_FILES_GLOB, SOURCE_FILES_EXCLUDE, MAX_CHECKED_FILES, token);
      const analyzer = flags.analyzer();
      const open = new Map(vscode.workspace.textDocuments.map((document) => [document.uri.toString(), document]));
      for (const uri of uris) {
        if (token.isCancellationRequested) {
          result.cancelled = true;
          break;
        }
        progress.report({ message: vscode.workspace.asRelativePath(uri), increment: 100 / uris.length });
        let text: string;
        const document = open.get(uri.toString());
        if (document) text = document.getText();
        else {
          try {
            const stat = await vscode.workspace.fs.stat(uri);
            if (stat.size > MAX_CHECKED_FILE_BYTES) continue;
            text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
          } catch (error) {
            logger.warn(`Skipped ${vscode.workspace.asRelativePath(uri)}: ${error instanceof Error ? error.message : error}`);
            continue;
          }
        }
        // Each file as its folder's settings name flags.
        const found = analyzer.analyse(text, flags.analysisOptions({ uri }));
        result.files += 1;
        if (found.length > 0) {
          result.filesWithProblems += 1;
          result.problems += found.length;
        }
        publisher.publish(uri, found, true);
      }
    },
  );
  const summary = `${result.cancelled ? 'Stopped after' : 'Checked'} ${plural(result.files, 'file')}: ${plural(result.problems, 'flag problem')} in ${plural(result.filesWithProblems, 'file')}.`;
  logger.info(summary);
  // Not awaited: the command answers (for keybindings and tests) while the message stays up.
  void vscode.window.showInformationMessage(summary, ...(result.problems > 0 ? ['Show Problems'] : [])).then((choice) => {
    if (choice === 'Show Problems') void vscode.commands.executeCommand('workbench.actions.view.problems');
  });
  return result;
}
