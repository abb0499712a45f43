/**
 * When a failed GET is tried again: a network failure that is safe to repeat, or a 429/502/503/504 (not maintenance),
 * after a jittered backoff or the server's Retry-After when that is short enough; at most `retries` times.
 */
import { CancelledError, HttpError, NetworkError } from './errors';

export interface RetryPolicy {
  /** Extra attempts after the first. */
  retries: number;
  /** First backoff delay; doubles per attempt. */
  baseMs: number;
  /** A longer Retry-After is not waited for. */
  maxRetryAfterMs: number;
}

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
const RETRYABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'EAI_AGAIN']);

/** How long to wait before attempt `attempt + 1`, or undefined when the failure must not be retried. */
export function retryDelay(error: unknown, attempt: number, policy: RetryPolicy): number | undefined {
  if (attempt >= policy.retries) return undefined;
  const backoff = policy.baseMs * 2 ** attempt + Math.floor(Math.random() * policy.baseMs * 0.25);
  if (error instanceof NetworkError) return error.code && RETRYABLE_CODES.has(error.code) ? backoff : undefined;
  if (error instanceof HttpError && RETRYABLE_STATUS.has(error.status) && !error.maintenance) {
    if (error.retryAfterSeconds === undefined) return backoff;
    const wait = error.retryAfterSeconds * 1000;
    return wait <= policy.maxRetryAfterMs ? Math.max(wait, 0) : undefined;
  }
  return undefined;
}

/** Waits `ms`; a cancellation ends the wait with CancelledError. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CancelledError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CancelledError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
