/**
 * Keeps the store on the connection's source, the `unleash.state` context key (which picks the Flags view's welcome
 * content) on the store's state, and `unleash.mode` (which commands are on offer) on the connection's.
 */
import * as vscode from 'vscode';
import { ContextKeys } from '../base/constants';
import { sourceMode } from '../model/store/flagSource';
import type { FlagStore } from '../model/store/flagStore';
import type { AnnouncedState } from './connectionState';
import { onDidChangeSettings, readHoverSettings, readRefreshIntervalMinutes } from './settings';
import { DisposableStore } from './disposables';

export function bindStoreToConnection(connection: AnnouncedState, store: FlagStore): vscode.Disposable {
  const showState = () => void vscode.commands.executeCommand('setContext', ContextKeys.state, store.state);
  const applyInterval = () => store.setRefreshInterval(readRefreshIntervalMinutes());
  const applyEnvironments = () => store.setEnvironmentChoice(readHoverSettings().environments);
  const showMode = () => {
    const mode = sourceMode(connection.state.state, connection.state.source);
    if (mode) void vscode.commands.executeCommand('setContext', ContextKeys.mode, mode);
  };
  showState();
  showMode();
  applyInterval();
  applyEnvironments();
  return new DisposableStore(
    connection.onDidChange((state) => {
      showMode();
      void store.setSource(state.source, state.state, state.problem);
    }),
    store.onDidChange(showState),
    onDidChangeSettings(() => {
      applyInterval();
      applyEnvironments();
    }),
  );
}
