/**
 * The composition root: builds each service once, hands it to the features that need it, and registers one
 * Disposable per feature. Nothing else happens here.
 */
import * as vscode from 'vscode';
import { registerConnectionCommands } from './commands/connection';
import { LOG_CHANNEL_NAME } from './constants';
import { registerFlagHovers } from './hovers/flagHoverProvider';
import { FlagStore } from './model/flagStore';
import { bindStoreToConnection } from './services/binding';
import { Connection } from './services/connection';
import { TokenStore } from './services/tokens';
import { createLogger } from './util/logger';

export function activate(context: vscode.ExtensionContext): void {
  const started = performance.now();
  const channel = vscode.window.createOutputChannel(LOG_CHANNEL_NAME, { log: true });
  const logger = createLogger(channel);
  const tokens = new TokenStore(context.secrets);
  const connection = new Connection(tokens, logger.child('connection'));
  const store = new FlagStore(logger.child('store'));

  context.subscriptions.push(
    channel,
    tokens,
    connection,
    store,
    bindStoreToConnection(connection, store),
    registerConnectionCommands({ connection, tokens, logger: logger.child('commands'), channel }),
    registerFlagHovers({ store, logger: logger.child('hovers') }),
  );

  void connection.update();
  logger.info(`Activated in ${(performance.now() - started).toFixed(1)} ms.`);
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
