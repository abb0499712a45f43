/**
 * The extension's one log (base/logger.ts) written to a LogOutputChannel (users pick the level with "Developer: Set
 * Log Level"), with a component tag on every line. Nothing else writes logs; nothing logs the token.
 */
import type * as vscode from 'vscode';
import type { Logger } from '../base/logger';
import { clean } from '../model/text/plainText';

/** Longest log line: server text quoted in a line is bounded too. */
const MAX_LOG_LINE = 4_000;

/** A log line: flag data and server text in it cannot break the line, reorder it or hide in control characters. */
export function logLine(component: string, message: string): string {
  return clean(component ? `[${component}] ${message}` : message, MAX_LOG_LINE);
}

export function createLogger(channel: vscode.LogOutputChannel, component = ''): Logger {
  const tag = (message: string) => logLine(component, message);
  return {
    trace: (message) => channel.trace(tag(message)),
    debug: (message) => channel.debug(tag(message)),
    info: (message) => channel.info(tag(message)),
    warn: (message) => channel.warn(tag(message)),
    error: (message) => channel.error(tag(message instanceof Error ? `${message.name}: ${message.message}` : message)),
    child: (name) => createLogger(channel, component ? `${component}/${name}` : name),
  };
}
