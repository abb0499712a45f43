/** Show Log and Open Settings: on offer in every build and every state. */
import * as vscode from 'vscode';
import { Commands } from '../base/constants';
import { DisposableStore } from '../services/disposables';

export function registerLogAndSettingsCommands(channel: vscode.LogOutputChannel): vscode.Disposable {
  return new DisposableStore(
    vscode.commands.registerCommand(Commands.showLog, () => channel.show(true)),
    vscode.commands.registerCommand(Commands.openSettings, (setting?: string) =>
      vscode.commands.executeCommand('workbench.action.openSettings', setting ?? `@ext:unleash-flags.unleash-flags`),
    ),
  );
}
