/** The language features over flag names in code, registered alike by the desktop and the browser build. */
import type * as vscode from 'vscode';
import type { Logger } from '../base/logger';
import type { CodeFlags } from '../services/codeFlags';
import { DisposableStore } from '../services/disposables';
import { registerFlagAtCursorContext } from './flagAtCursor';
import { registerFlagCodeActions } from './flagCodeActions';
import { registerFlagCompletion } from './flagCompletionProvider';
import type { FlagDiagnosticsPublisher } from './flagDiagnosticsPublisher';
import { registerFlagInlayHints } from './flagInlayHints';
import { registerFlagNavigation } from './flagNavigation';

/** Completion, quick fixes, inlay hints, F12/Shift+F12 and the at-cursor context; owns `codeFlags` and `diagnostics`. */
export function registerCodeFeatures(codeFlags: CodeFlags, diagnostics: FlagDiagnosticsPublisher, logger: Logger): vscode.Disposable {
  return new DisposableStore(
    codeFlags,
    diagnostics,
    registerFlagCompletion(codeFlags),
    registerFlagCodeActions(codeFlags, diagnostics),
    registerFlagInlayHints(codeFlags),
    registerFlagNavigation(codeFlags, logger.child('navigation')),
    registerFlagAtCursorContext(codeFlags),
  );
}
