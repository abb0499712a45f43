/**
 * What a failure means to a listing (listing.ts): whether it ends the whole listing, or says the search cannot be
 * used (missing, or refusing for now) so that the listing goes on without proving itself complete.
 */
import * as l10n from '@vscode/l10n';
import { AuthError, CancelledError, ConfigError, HttpError, InvalidTokenError, MissingTokenError, NetworkError, NotFoundError } from './errors';

/**
 * Network failures that say the server (or the proxy in the way) cannot be reached at all, whatever is asked: nothing
 * listens on its port, its name does not resolve, no route leads there. A reset or a timeout may be one request's.
 */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Failures that are never one project's and end the listing: a cancellation (or the listing's deadline), a setting
 * or a bound, the token, a server that cannot be reached (after that request's own retries: no other request of the
 * listing waits through its own).
 */
export function endsListing(error: unknown, signal: AbortSignal | undefined): boolean {
  return (
    Boolean(signal?.aborted) ||
    error instanceof CancelledError ||
    error instanceof ConfigError ||
    error instanceof AuthError ||
    error instanceof MissingTokenError ||
    error instanceof InvalidTokenError ||
    (error instanceof NetworkError && error.code !== undefined && UNREACHABLE.has(error.code))
  );
}

/** Whether a project's listing failed in a way the same server will repeat: a 500 (see listingFallbacks.ts). */
export function failsAgain(error: unknown): boolean {
  return error instanceof HttpError && error.status === 500;
}

/**
 * Why the search cannot be used, when the error says it is missing or refuses for now (Unleash 8 allows 15 searches
 * a minute per client address and answers 429 beyond that); undefined otherwise.
 */
export function searchRefusal(error: unknown): string | undefined {
  if (error instanceof NotFoundError) return l10n.t('the server has no flag search');
  if (error instanceof HttpError && error.status === 429) {
    return error.retryAfterSeconds === undefined
      ? l10n.t('the server refuses more searches (429: it limits searches per minute)')
      : l10n.t('the server refuses more searches for {0} s (429: it limits searches per minute)', error.retryAfterSeconds);
  }
  return undefined;
}
