/**
 * What a connection announces (the desktop's, services/connection.ts; the browser build's, services/filesConnection.ts),
 * and waiting for its first evaluation.
 */
import type * as vscode from 'vscode';
import type { FlagSource } from '../model/store/flagSource';
import type { StoreState } from '../model/store/flagStore';

export interface ConnectionState {
  /** Why nothing can be shown, or 'ready' when `source` is set. */
  state: StoreState;
  source?: FlagSource;
  /** The configuration problem behind 'invalidSettings'. */
  problem?: unknown;
}

/** A connection as the store and the commands see it. */
export interface AnnouncedState {
  readonly state: ConnectionState;
  readonly onDidChange: vscode.Event<ConnectionState>;
}

/**
 * The state once the first evaluation is done: right after start-up the connection has not read its settings yet,
 * and a command run at once must not report "no server". Waits at most `ms`.
 */
export async function settledState(connection: AnnouncedState, ms: number): Promise<ConnectionState> {
  if (connection.state.state !== 'loading') return connection.state;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      subscription.dispose();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const subscription = connection.onDidChange(done);
  });
  return connection.state;
}
