/** A logger for unit tests that keeps every line it is given, so a test can read what the log would show. */
import type { Logger } from '../../src/base/logger';

export function recordingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const record = (message: string | Error) => {
    lines.push(String(message));
  };
  const logger: Logger = { trace: record, debug: record, info: record, warn: record, error: record, child: () => logger };
  return { logger, lines };
}
