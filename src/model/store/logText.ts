/** An error for the log: its message, and the request that failed when it says. */
export function logText(error: unknown): string {
  const request = (error as { request?: unknown } | undefined)?.request;
  return `${error instanceof Error ? error.message : String(error)}${typeof request === 'string' ? ` (${request})` : ''}`;
}
