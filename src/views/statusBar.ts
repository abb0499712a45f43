/**
 * The status bar item: where the flags come from and the store's state (`statusContent`), with a click that
 * offers Refresh, Test Connection, Connect and Show Log.
 */
import * as vscode from 'vscode';
import { Commands, STATUS_BAR_ID } from '../base/constants';
import type { FlagStore } from '../model/store/flagStore';
import { attentionCounts } from '../model/store/flagStatus';
import { statusContent, type StatusContent } from '../model/content/statusBarContent';
import { readServerUrl } from '../services/settings';
import { formatError } from '../model/content/formatError';
import { afterActivation } from '../services/activation';
import { DisposableStore } from '../services/disposables';

export interface StatusBar extends vscode.Disposable {
  /** What the item shows now (for the in-editor tests). */
  content(): StatusContent;
}

export function registerStatusBar(store: FlagStore): StatusBar {
  const item = vscode.window.createStatusBarItem(STATUS_BAR_ID, vscode.StatusBarAlignment.Left, 10);
  item.name = vscode.l10n.t('Unleash');
  item.command = Commands.statusActions;
  let current: StatusContent | undefined;
  // The counts by status, once per catalog and status version (a read of the details can change a flag's status).
  let counted: { catalog: unknown; version: number; text: string } | undefined;
  const attention = (): string => {
    const { catalog, statusVersion: version } = store;
    if (counted?.catalog !== catalog || counted.version !== version) {
      counted = { catalog, version, text: attentionCounts(catalog.flags.map((flag) => store.status(flag))) };
    }
    return counted.text;
  };

  const update = (): StatusContent => {
    const failed = store.state === 'error' || store.state === 'invalidSettings';
    const outOfDate = store.state === 'ready' && store.outOfDate !== undefined;
    current = statusContent({
      state: store.state,
      source: store.currentSource,
      flagCount: store.catalog.size,
      reason: failed ? formatError(store.error, { request: true }).message : undefined,
      lastRefreshed: store.state === 'ready' ? store.refreshedAt : undefined,
      outOfDate: outOfDate ? formatError(store.outOfDate, { request: true }).message : undefined,
      attention: store.state === 'ready' ? attention() : undefined,
      configured: readServerUrl() !== '',
    });
    item.text = current.text;
    item.tooltip = current.tooltip;
    item.accessibilityInformation = { label: current.accessibleLabel };
    item.backgroundColor =
      current.tone === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground')
      : current.tone === 'warning' ? new vscode.ThemeColor('statusBarItem.warningBackground')
      : undefined;
    if (current.visible) item.show();
    else item.hide();
    return current;
  };

  const owned = new DisposableStore(
    item,
    store.onDidChange(update),
    store.onDidChangeStatus(update),
    vscode.commands.registerCommand(Commands.statusActions, () => showActions()),
    // Shown once activate() has returned: composing the first text (Intl's plural rules and dates) costs milliseconds.
    afterActivation(() => current ?? update()),
  );
  return {
    content: () => current ?? update(),
    dispose: () => owned.dispose(),
  };
}

async function showActions(): Promise<void> {
  const actions = [
    { label: vscode.l10n.t('$(refresh) Refresh Flags'), command: Commands.refresh },
    { label: vscode.l10n.t('$(pulse) Test Connection'), command: Commands.testConnection },
    { label: vscode.l10n.t('$(plug) Connect to Server…'), command: Commands.connect },
    { label: vscode.l10n.t('$(output) Show Log'), command: Commands.showLog },
  ];
  const picked = await vscode.window.showQuickPick(actions, { title: vscode.l10n.t('Unleash') });
  if (picked) await vscode.commands.executeCommand(picked.command);
}
