/** A quick pick shown until it gives an answer or is dismissed, then disposed. */
import type * as vscode from 'vscode';
import { DisposableStore } from '../services/disposables';

/**
 * Shows `quickPick`; each Enter asks `accept` for the answer (undefined: not yet, the pick stays open). Undefined when
 * dismissed.
 */
export async function answerOf<T extends vscode.QuickPickItem, R>(quickPick: vscode.QuickPick<T>, accept: () => R | undefined): Promise<R | undefined> {
  const answer = await new Promise<R | undefined>((resolve) => {
    const owned = new DisposableStore();
    const finish = (value: R | undefined): void => {
      owned.dispose();
      resolve(value);
      quickPick.hide();
    };
    owned.add(
      quickPick.onDidAccept(() => {
        const value = accept();
        if (value !== undefined) finish(value);
      }),
    );
    owned.add(quickPick.onDidHide(() => finish(undefined)));
    quickPick.show();
  });
  quickPick.dispose();
  return answer;
}
