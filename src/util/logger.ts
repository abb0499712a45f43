/**
 * The extension's one log: a LogOutputChannel (users pick the level with "Developer: Set Log Level"), with a
 * component tag on every line. Nothing else writes logs; nothing logs the token.
 */
import * as vscode from 'vscode';

export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string | Error): void;
  /** A logger whose lines carry `[component]`. */
  child(component: string): Logger;
}

export function createLogger(channel: vscode.LogOutputChannel, component = ''): Logger {
  const tag = (message: string) => (component ? `[${component}] ${message}` : message);
  return {
    trace: (message) => channel.trace(tag(message)),
    debug: (message) => channel.debug(tag(message)),
    info: (message) => channel.info(tag(message)),
    warn: (message) => channel.warn(tag(message)),
    error: (message) => channel.error(tag(message instanceof Error ? `${message.name}: ${message.message}` : message)),
    child: (name) => createLogger(channel, component ? `${component}/${name}` : name),
  };
}
