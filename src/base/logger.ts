/**
 * The extension's one log, as every layer sees it: lines at a level, and children whose lines carry `[component]`.
 * services/logger.ts writes it to VS Code's log channel; tests pass their own. Nothing logs the token.
 */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string | Error): void;
  /** A logger whose lines carry `[component]`. */
  child(component: string): Logger;
}
