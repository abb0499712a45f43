/**
 * Typed errors of the Admin API client. The client never decides what to tell the user: it throws one of these,
 * carrying what a UI needs to choose a message and a next step (model/content/formatError.ts). No error text holds
 * the API token: server messages are redacted before they get here (tokenRedactor.ts).
 */
import * as l10n from '@vscode/l10n';

export interface ErrorDetail {
  message?: string;
  path?: string;
}

export interface ServerErrorInfo {
  /** HTTP status. */
  status: number;
  /** The server's `message`, when the body had one. */
  serverMessage?: string;
  /** The server's error `name`, e.g. NotFoundError, AuthenticationRequired. */
  serverName?: string;
  /** The error instance id, only present on errors raised by Unleash middleware. */
  errorId?: string;
  details?: ErrorDetail[];
  /** Method and path (never the query string or the token), for the log. */
  request: string;
}

export abstract class UnleashApiError extends Error {
  abstract readonly kind: string;
}

/** An HTTP error answer of the server. */
abstract class ServerError extends UnleashApiError {
  readonly status: number;
  readonly serverMessage?: string;
  readonly serverName?: string;
  readonly errorId?: string;
  readonly details: ErrorDetail[];
  readonly request: string;

  constructor(message: string, info: ServerErrorInfo) {
    super(message);
    this.status = info.status;
    this.serverMessage = info.serverMessage;
    this.serverName = info.serverName;
    this.errorId = info.errorId;
    this.details = info.details ?? [];
    this.request = info.request;
  }
}

/** No token is configured; raised before any request is made. */
export class MissingTokenError extends UnleashApiError {
  readonly kind = 'missing-token';
  constructor() {
    super(l10n.t('No API token is set for this Unleash server.'));
  }
}

/**
 * The token holds characters an HTTP header cannot carry (a line break, a curly quote, a zero-width space: copy and
 * paste leftovers); raised before any request is made. The message never quotes the token.
 */
export class InvalidTokenError extends UnleashApiError {
  readonly kind = 'invalid-token';
  constructor() {
    super(l10n.t('The API token contains characters that cannot be sent to the server (a line break, a non-ASCII or an invisible character).'));
  }
}

/** 401: the token is missing, unknown or expired. */
export class AuthError extends ServerError {
  readonly kind = 'auth';
  constructor(info: ServerErrorInfo) {
    super(l10n.t('The server rejected the API token (401): {0}', info.serverMessage ?? l10n.t('authentication required')), info);
  }
}

/** 403: the token is valid but may not do this. */
export class ForbiddenError extends ServerError {
  readonly kind = 'forbidden';
  /** True when the token is a client/backend/frontend token, which the Admin API never accepts. */
  readonly wrongTokenType: boolean;
  constructor(info: ServerErrorInfo) {
    const wrongTokenType = /different token type/i.test(info.serverMessage ?? '');
    super(
      wrongTokenType
        ? l10n.t('The API token is a client (backend or frontend) token; the Admin API needs an admin token or a personal access token (403).')
        : l10n.t('The API token has no permission for this (403): {0}', info.serverMessage ?? l10n.t('forbidden')),
      info,
    );
    this.wrongTokenType = wrongTokenType;
  }
}

/** 404: the resource does not exist (or, for get-feature, lives in another project). */
export class NotFoundError extends ServerError {
  readonly kind = 'not-found';
  /** For get-feature: the project the server says the feature really belongs to. */
  readonly actualProject?: string;
  constructor(info: ServerErrorInfo) {
    super(l10n.t('Not found (404): {0}', info.serverMessage ?? info.request), info);
    const match = /but there's a feature with that name in project "([^"]+)"/.exec(info.serverMessage ?? '');
    this.actualProject = match?.[1];
  }

  /** The 404 answers the question (Unleash's own JSON error), not one of a wrong URL or a proxy. */
  get answered(): boolean {
    return Boolean(this.serverMessage) && !/path you were looking for/i.test(this.serverMessage ?? '');
  }
}

/** 400: the request was invalid; `details` says which part. */
export class BadRequestError extends ServerError {
  readonly kind = 'bad-request';
  constructor(info: ServerErrorInfo) {
    const firstDetail = info.details?.find((detail) => detail.message)?.message;
    super(l10n.t('The server refused the request (400): {0}', firstDetail ?? info.serverMessage ?? l10n.t('bad request')), info);
  }
}

/** Any other HTTP error status: a redirect (3xx), 413, 415, 429, 5xx (including 503 maintenance mode). */
export class HttpError extends ServerError {
  readonly kind = 'http';
  /** Seconds from a Retry-After header, when the server sent one. */
  readonly retryAfterSeconds?: number;
  /**
   * For a redirect: where to, as origin and path (no query, no credentials), with the API path cut off when the
   * redirect kept it, so that it reads as the base URL to use (`http://host` → `https://host`).
   */
  readonly location?: string;
  constructor(info: ServerErrorInfo & { retryAfterSeconds?: number; location?: string }) {
    super(
      info.location
        ? l10n.t('The server redirects to {0} ({1})', info.location, info.status)
        : info.serverMessage
          ? l10n.t('The server answered {0}: {1}', info.status, info.serverMessage)
          : l10n.t('The server answered {0}', info.status),
      info,
    );
    this.retryAfterSeconds = info.retryAfterSeconds;
    this.location = info.location;
  }

  get maintenance(): boolean {
    return this.status === 503 && /maintenance/i.test(this.serverMessage ?? '');
  }
}

/**
 * The server could not be reached: refused, reset, DNS, TLS, or a proxy in the way. `code` is the system or undici
 * error code.
 */
export class NetworkError extends UnleashApiError {
  readonly kind = 'network';
  readonly code?: string;
  readonly request: string;
  /** `host:port` of the proxy the request went through (`http.proxy`), never with its credentials. */
  readonly proxy?: string;
  /** What named the proxy: `http.proxy` (the default) or an environment variable such as `HTTPS_PROXY`. */
  readonly proxySource?: string;
  constructor(request: string, code: string | undefined, causeMessage: string, proxy?: string, proxySource?: string) {
    super(l10n.t('Could not reach the Unleash server ({0}): {1}', code ?? l10n.t('network error'), causeMessage));
    this.code = code;
    this.request = request;
    this.proxy = proxy;
    if (proxySource) this.proxySource = proxySource;
  }

  /** The status a proxy answered a CONNECT with, when it refused to open the tunnel (407, 403, 502…). */
  get proxyStatus(): number | undefined {
    const match = /Proxy response \((\d{3})\)/.exec(this.message);
    return this.proxy && match ? Number(match[1]) : undefined;
  }

  get tls(): boolean {
    return /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/i.test(`${this.code ?? ''} ${this.message}`);
  }
}

/** The request took longer than the configured timeout. */
export class TimeoutError extends UnleashApiError {
  readonly kind = 'timeout';
  readonly timeoutMs: number;
  readonly request: string;
  constructor(request: string, timeoutMs: number) {
    super(l10n.t('The Unleash server did not answer within {0} s.', timeoutMs / 1000));
    this.timeoutMs = timeoutMs;
    this.request = request;
  }
}

/**
 * A streamed answer (an export) was still arriving when its deadline passed, however steadily its bytes came: each
 * wait was within the timeout, the whole was not.
 */
export class DeadlineError extends UnleashApiError {
  readonly kind = 'deadline';
  readonly request: string;
  readonly deadlineMs: number;
  /** Bytes of the answer received by then. */
  readonly receivedBytes: number;
  constructor(request: string, deadlineMs: number, receivedBytes: number) {
    super(l10n.t('The Unleash server was still sending its answer after {0} s ({1} bytes received): stopped.', deadlineMs / 1000, receivedBytes));
    this.request = request;
    this.deadlineMs = deadlineMs;
    this.receivedBytes = receivedBytes;
  }
}

/** The caller cancelled the request. */
export class CancelledError extends UnleashApiError {
  readonly kind = 'cancelled';
  constructor() {
    super(l10n.t('The request was cancelled.'));
  }
}

/**
 * Whether a name is an archived flag's could not be told: the server's search matched more archived flags than the
 * client reads for one name (its query matches parts of names). Not a failure of the server.
 */
export class ArchivedLookupError extends UnleashApiError {
  readonly kind = 'archived-lookup';
  constructor(name: string, read: number) {
    super(l10n.t('more than {0} archived flags match "{1}": not looked through', read, name));
  }
}

/** The answer was not what the API promises: not JSON, or JSON of another shape. */
export class SchemaError extends UnleashApiError {
  readonly kind = 'schema';
  /** Dotted path of the first field that did not match, e.g. `features.3.name`; empty when the body was not JSON. */
  readonly path: string;
  readonly request: string;
  constructor(request: string, reason: string, path = '') {
    super(
      path
        ? l10n.t('Unexpected answer from the server: field {0} {1}.', `\`${path}\``, reason)
        : l10n.t('Unexpected answer from the server: {0}.', reason),
    );
    this.path = path;
    this.request = request;
  }
}

/** A setting is unusable; raised before any request is made. `setting` is the settings id to point the user at. */
export class ConfigError extends UnleashApiError {
  readonly kind = 'config';
  /** The setting (`unleash.serverUrl`), or an environment variable (`HTTPS_PROXY`: no dot in its name). */
  readonly setting: string;
  /** What is wrong with it, as the end of a sentence about it: `is empty. Set it to …`. */
  readonly problem: string;
  constructor(setting: string, problem: string) {
    const name = `\`${setting}\``;
    super(isEnvironmentVariable(setting) ? l10n.t('The environment variable {0} {1}', name, problem) : l10n.t('The setting {0} {1}', name, problem));
    this.setting = setting;
    this.problem = problem;
  }
}

/** `HTTPS_PROXY`, `NO_PROXY`: a name without a dot is the environment's, not a setting. */
export function isEnvironmentVariable(name: string): boolean {
  return !name.includes('.');
}

/**
 * An answer larger than the client may take for one call (`limit` bytes, after decompression). `bytes` is how large
 * it is when `exact`, else how much was counted before the client stopped (it is larger). Callers that stream an
 * answer (exports) say what to do about it; nothing of the answer was kept.
 */
export class AnswerTooLargeError extends UnleashApiError {
  readonly kind = 'too-large';
  constructor(
    readonly request: string,
    readonly bytes: number,
    readonly exact: boolean,
    readonly limit: number,
  ) {
    super(
      exact
        ? l10n.t('The answer is {0} bytes, more than the {1} allowed.', bytes, limit)
        : l10n.t('The answer is more than {0} bytes, more than the {1} allowed.', bytes, limit),
    );
  }
}
