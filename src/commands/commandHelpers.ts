/**
 * What every command does the same way: find the server to ask (or say why there is none and what fixes it), run a
 * request under a cancellable progress notification, and show an error as one formatted sentence with its next steps
 * as buttons.
 */
import * as vscode from 'vscode';
import type { UnleashClient } from '../api/client';
import { MissingTokenError } from '../api/errors';
import { Commands } from '../base/constants';
import type { FlagStore } from '../model/store/flagStore';
import { formatError, type ErrorContext } from '../model/content/formatError';
import type { FormattedError, NextStep } from '../model/content/formattedError';
import type { Connection } from '../services/connection';
import { serverHost } from '../services/settings';
import type { Logger } from '../base/logger';

/** What a command that reads from the server or the export files needs. */
export interface CommandDeps {
  connection: Pick<Connection, 'serverClient' | 'state' | 'settled'>;
  /** `load()`: a command that reads the flag list is a need for it (the first one starts the load). */
  store: Pick<FlagStore, 'catalog' | 'load'>;
  logger: Logger;
}

type ErrorShown = ErrorContext & { retry?: () => unknown };

const LABELS: Record<NextStep, () => string> = {
  setToken: () => vscode.l10n.t('Set Token'),
  openSettings: () => vscode.l10n.t('Open Settings'),
  retry: () => vscode.l10n.t('Retry'),
  showLog: () => vscode.l10n.t('Show Log'),
};

/**
 * Shows `error` as the sentence `formatError` makes of it, with its next steps as buttons (Retry only when `retry` is
 * given), logs it, and runs the step the user picks. A cancellation shows nothing. Returns what was shown.
 */
export function showError(error: unknown, logger: Logger, context: ErrorShown = {}): FormattedError {
  const formatted = formatError(error, context);
  if (formatted.silent) return formatted;
  logger.error(formatted.message);
  const actions = formatted.actions.filter((action) => action !== 'retry' || context.retry);
  const labels = actions.map((action) => LABELS[action]());
  void vscode.window.showErrorMessage(formatted.message, ...labels).then(async (picked) => {
    const step = actions[labels.findIndex((label) => label === picked)];
    if (step === 'retry') await context.retry?.();
    if (step === 'setToken') await vscode.commands.executeCommand(Commands.setToken);
    if (step === 'showLog') await vscode.commands.executeCommand(Commands.showLog);
    if (step === 'openSettings') await vscode.commands.executeCommand(Commands.openSettings, formatted.setting);
  });
  return formatted;
}

/** What a command returns when it could not do its job: the message shown, and whether the user cancelled. */
export interface CommandFailure {
  error: string;
  cancelled?: boolean;
}

/** Shows `error` (see `showError`) and returns it as the command's failure. */
export function failWith(error: unknown, logger: Logger, context: ErrorShown): CommandFailure {
  const formatted = showError(error, logger, context);
  return formatted.silent ? { error: formatted.message, cancelled: true } : { error: formatted.message };
}

/** No server is configured and the Flags view shows the workspace's export files (offline mode). */
export function isOffline(deps: Pick<CommandDeps, 'connection'>): boolean {
  return deps.connection.state.source?.kind === 'files';
}

/**
 * The server to ask, when one is connected. Otherwise the failure, after saying why there is none: a missing token,
 * a setting to fix or a workspace server not allowed yet as an error with the step that fixes it; no server
 * configured at all as `noServer(offline)`, a warning with Connect….
 */
export async function requireServer(
  deps: Pick<CommandDeps, 'connection' | 'logger'>,
  context: ErrorShown,
  noServer: (offline: boolean) => string,
): Promise<UnleashClient | CommandFailure> {
  let client: UnleashClient | undefined;
  try {
    client = await deps.connection.serverClient();
  } catch (error) {
    return failWith(error, deps.logger, { server: serverHost(), ...context });
  }
  if (client) return client;
  const { state, problem } = deps.connection.state;
  if (state === 'noToken' || state === 'invalidSettings' || state === 'unapproved') {
    return failWith(state === 'noToken' ? new MissingTokenError() : problem, deps.logger, { server: serverHost(), ...context });
  }
  const message = noServer(isOffline(deps));
  void vscode.window.showWarningMessage(message, vscode.l10n.t('Connect…')).then((picked) => {
    if (picked) void vscode.commands.executeCommand(Commands.connect);
  });
  return { error: message };
}

/**
 * Runs `task` under a progress notification with a Cancel button; cancelling aborts the signal the task's requests
 * use (they then reject with a CancelledError, which `showError` keeps silent).
 */
export function withCancellableProgress<T>(
  title: string,
  task: (signal: AbortSignal, progress: vscode.Progress<{ message?: string }>) => Promise<T>,
): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const controller = new AbortController();
    const subscription = token.onCancellationRequested(() => controller.abort());
    try {
      return await task(controller.signal, progress);
    } finally {
      subscription.dispose();
    }
  });
}
