/**
 * "Check Workspace for Flag References": analyses every source file of the workspace (not only open ones) against
 * the catalog in memory, with progress and cancellation, and puts the findings in the Problems panel. A name the
 * listing lacks is looked up among archived flags before its file is reported.
 */
import * as vscode from 'vscode';
import { Commands, SOURCE_FILES_GLOB } from '../base/constants';
import { lookUpArchived, type FlagDiagnosticsPublisher } from '../code/flagDiagnosticsPublisher';
import type { CodeFlags } from '../services/codeFlags';
import type { Logger } from '../base/logger';
import { pluralForm } from '../model/text/intl';
import { visitWorkspaceFiles } from '../services/workspaceFiles';
import { fileCount } from '../views/usageCounts';

interface WorkspaceCheck {
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
      flags.store.state === 'loading'
        ? vscode.l10n.t('The flags are still loading; check again in a moment.')
        : vscode.l10n.t('Load the flags first: connect to a server or add export files in .unleash/.'),
    );
    return undefined;
  }
  const result: WorkspaceCheck = { files: 0, filesWithProblems: 0, problems: 0, cancelled: false };
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking flag references'), cancellable: true },
    async (progress, token) => {
      const analyzer = flags.analyzer();
      const visited = await visitWorkspaceFiles(
        SOURCE_FILES_GLOB,
        token,
        logger,
        async (uri, text) => {
          // Each file as its folder's settings name flags.
          let found = await analyzer.analyse(text, flags.analysisOptions({ uri }));
          // Names the listing lacks: archived or unknown once the store has looked them up (asked once per name).
          if (found.some((d) => d.awaitsLookup)) {
            await lookUpArchived(flags.store, found).settled;
            found = await analyzer.analyse(text, flags.analysisOptions({ uri }));
          }
          if (found.length > 0) {
            result.filesWithProblems += 1;
            result.problems += found.length;
          }
          publisher.publish(uri, found, true);
        },
        (uri, increment) => progress.report({ message: vscode.workspace.asRelativePath(uri), increment }),
      );
      result.files = visited.files;
      result.cancelled = visited.cancelled;
    },
  );
  const problems = pluralForm(result.problems, {
    one: vscode.l10n.t('{0} flag problem', result.problems),
    other: vscode.l10n.t('{0} flag problems', result.problems),
  });
  const summary = result.cancelled
    ? vscode.l10n.t('Stopped after {0}: {1} in {2}.', fileCount(result.files), problems, fileCount(result.filesWithProblems))
    : vscode.l10n.t('Checked {0}: {1} in {2}.', fileCount(result.files), problems, fileCount(result.filesWithProblems));
  logger.info(summary);
  // Not awaited: the command answers (for keybindings and tests) while the message stays up.
  const showProblems = vscode.l10n.t('Show Problems');
  void vscode.window.showInformationMessage(summary, ...(result.problems > 0 ? [showProblems] : [])).then((choice) => {
    if (choice === showProblems) void vscode.commands.executeCommand('workbench.actions.view.problems');
  });
  return result;
}
