/** Shows a formatted error with its next steps as buttons, and runs the one the user picks. */
import * as vscode from 'vscode';
import { Commands } from '../constants';
import { formatError, type ErrorContext, type NextStep } from './formatError';
import type { Logger } from './logger';

const LABELS: Record<NextStep, string> = {
  setToken: 'Set Token',
  openSettings: 'Open Settings',
  retry: 'Retry',
  showLog: 'Show Log',
};

export async function showError(
  error: unknown,
  logger: Logger,
  context: ErrorContext & { retry?: () => unknown } = {},
): Promise<void> {
  const formatted = formatError(error, context);
  if (formatted.silent) return;
  logger.error(formatted.message);
  const actions = formatted.actions.filter((action) => action !== 'retry' || context.retry);
  const picked = await vscode.window.showErrorMessage(formatted.message, ...actions.map((action) => LABELS[action]));
  const step = actions.find((action) => LABELS[action] === picked);
  if (step === 'retry') await context.retry?.();
  if (step === 'setToken') await vscode.commands.executeCommand(Commands.setToken);
  if (step === 'showLog') await vscode.commands.executeCommand(Commands.showLog);
  if (step === 'openSettings') await vscode.commands.executeCommand(Commands.openSettings, formatted.setting);
}
