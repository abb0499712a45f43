/**
 * Keeps the store on the connection's source, and the `unleash.state` context key (which picks the Flags view's
 * welcome content) on the store's state.
 */
import * as vscode from 'vscode';
import { ContextKeys } from '../constants';
import type { FlagStore } from '../model/flagStore';
import type { Connection } from './connection';
import { onDidChangeSettings, readSettings } from './settings';

export function bindStoreToConnection(connection: Connection, store: FlagStore): vscode.Disposable {
  const showState = () => void vscode.commands.executeCommand('setContext', ContextKeys.state, store.state);
  const applyInterval = () => store.setRefreshInterval(readSettings().refreshIntervalMinutes);
  showState();
  applyInterval();
  return vscode.Disposable.from(
    connection.onDidChange((state) => void store.setSource(state.source, state.state, state.problem)),
    store.onDidChange(showState),
    onDidChangeSettings(applyInterval),
  );
}
