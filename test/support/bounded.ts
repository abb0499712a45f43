/**
 * Bounded waits for tests: a wait that may never end becomes a failure that names what it waited for, well before
 * the runner's per-file timeout (test/run.ts) ends the whole file.
 */
export const WAIT_MS = 10_000;

/** Resolves as `promise` does, or rejects with "timed out after N ms waiting for <what>". */
export function bounded<T>(promise: Promise<T>, what: string, ms = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Polls `condition` every few milliseconds until it holds; rejects after `ms` naming `what`. */
export async function waitUntil(condition: () => boolean, what: string, ms = WAIT_MS): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
