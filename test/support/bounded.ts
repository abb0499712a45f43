/**
 * Bounded waits for tests: a wait that may never end becomes a failure that names what it waited for, well before
 * the runner's per-file timeout (test/run.ts) ends the whole file.
 */
const WAIT_MS = 10_000;

/** Resolves as `promise` does, or rejects with "timed out after N ms waiting for <what>". */
export function bounded<T>(promise: Promise<T>, what: string, ms = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Resolves with the first value `probe` answers other than undefined or false, asked every 20 ms; rejects after `ms`
 * with "timed out after N ms waiting for <what>". For what settles on a timer, such as
 * the file watcher's.
 */
export async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, ms = WAIT_MS): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
