/**
 * Reads in flight, shared by key: callers asking for the same thing at once share one request (the store's details,
 * segments and archived lookups; a flag's activity).
 */
import { CancelledError } from '../../api/errors';
import type { CancellationLike } from '../../base/emitter';

/** Each caller waits with its own cancellation token; the read itself is aborted only when every caller has cancelled. */
export class SharedReads<T> {
  private readonly reads = new Map<string, { promise: Promise<T>; controller: AbortController; waiters: number }>();

  join(key: string, token: CancellationLike | undefined, start: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (token?.isCancellationRequested) return Promise.reject(new CancelledError());
    let read = this.reads.get(key);
    if (!read || read.controller.signal.aborted) {
      const controller = new AbortController();
      const promise = start(controller.signal);
      const entry = { promise, controller, waiters: 0 };
      const settled = () => {
        if (this.reads.get(key) === entry) this.reads.delete(key);
      };
      promise.then(settled, settled);
      this.reads.set(key, entry);
      read = entry;
    }
    const entry = read;
    entry.waiters++;
    return new Promise<T>((resolve, reject) => {
      let done = false;
      const finish = () => {
        done = true;
        entry.waiters--;
        subscription?.dispose();
      };
      const subscription = token?.onCancellationRequested(() => {
        if (done) return;
        finish();
        if (entry.waiters === 0) entry.controller.abort();
        reject(new CancelledError());
      });
      entry.promise.then(
        (value) => {
          if (done) return;
          finish();
          resolve(value);
        },
        (error: unknown) => {
          if (done) return;
          finish();
          reject(error);
        },
      );
    });
  }

  clear(): void {
    for (const read of this.reads.values()) read.controller.abort();
    this.reads.clear();
  }
}
