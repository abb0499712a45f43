/**
 * Go to Definition (F12) and Peek on a flag name: the flag's details document, with the flag revealed in the Flags
 * view; Find All References (Shift+F12): every use in the workspace, by the rule Find Usages and the hovers follow.
 */
import * as vscode from 'vscode';
import { Commands } from '../base/constants';
import type { CodeFlags } from '../services/codeFlags';
import { flagDetailsUri } from '../services/flagDetailsAddress';
import { searchFlagUsages } from '../services/flagUsageSearch';
import type { Logger } from '../base/logger';
import { flagAtPosition } from './flagAtCursor';
import { registerForCodeLanguages } from './languageRegistration';
import { DisposableStore } from '../services/disposables';

export class FlagNavigationProvider implements vscode.DefinitionProvider, vscode.ReferenceProvider {
  constructor(
    private readonly flags: CodeFlags,
    private readonly logger: Logger,
  ) {}

  provideDefinition(document: vscode.TextDocument, position: vscode.Position): vscode.Location | undefined {
    const flag = flagAtPosition(this.flags, document, position);
    if (!flag) return undefined;
    void vscode.commands.executeCommand(Commands.revealFlag, flag);
    return new vscode.Location(flagDetailsUri(flag), new vscode.Position(0, 0));
  }

  async provideReferences(document: vscode.TextDocument, position: vscode.Position, _context: vscode.ReferenceContext, token: vscode.CancellationToken): Promise<vscode.Location[]> {
    const flag = flagAtPosition(this.flags, document, position);
    if (!flag) return [];
    const search = await searchFlagUsages(flag.name, this.flags, this.logger, token);
    return search.files.flatMap((file) => file.ranges.map((use) => new vscode.Location(file.uri, use.range)));
  }
}

export function registerFlagNavigation(flags: CodeFlags, logger: Logger): vscode.Disposable {
  const provider = new FlagNavigationProvider(flags, logger);
  return registerForCodeLanguages(flags, (selector) =>
    new DisposableStore(vscode.languages.registerDefinitionProvider(selector, provider), vscode.languages.registerReferenceProvider(selector, provider)),
  );
}
