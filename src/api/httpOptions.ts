/**
 * What the HTTP core (http.ts) is built with and answers: its options, what each call takes, a JSON answer, and the
 * events it reports (a response, a retry) for the log and the benchmarks.
 */
import type { Dispatcher } from 'undici';
import type { AnswerSchemaName, CheckedAnswer, LargeAnswer } from './answerSchemas';

export interface HttpEvent {
  kind: 'response' | 'retry';
  request: string;
  status?: number;
  ms: number;
  attempt: number;
  delayMs?: number;
  reason?: string;
}

export interface HttpOptions {
  /** Parsed server URL (see parseBaseUrl); may carry a path prefix. */
  baseUrl: URL;
  /** Returns the API token; called for every request so a changed token is used at once. */
  getToken: () => Promise<string | undefined> | string | undefined;
  /** The dispatcher to send through (see dispatcher.ts). */
  dispatcher: Dispatcher;
  /** Whole-request timeout, headers and body included. Default 15 s. */
  timeoutMs?: number;
  /** Extra attempts for a GET that failed in a way that is safe to repeat. Default 2. */
  retries?: number;
  /** First backoff delay; doubles per attempt. Default 400 ms. */
  retryBaseMs?: number;
  /**
   * A Retry-After longer than this, or than the timeout, is not waited for; the error is raised instead. Default 10 s.
   */
  maxRetryAfterMs?: number;
  /** Largest body accepted, after decompression. Default 64 MiB. */
  maxResponseBytes?: number;
  /**
   * Most time a streamed answer (an export) may take from its request to its last byte, however steadily it comes.
   * Default INTAKE_BUDGET.exportMs (ten minutes).
   */
  streamDeadlineMs?: number;
  userAgent?: string;
  /**
   * Parses a large answer's bytes (responseBody.ts SMALL_ANSWER) away from this thread, and checks it against the
   * call's schema there (a worker's `answer` job); without it they are parsed here in time slices, and checked by the
   * caller. Throws SyntaxError or JsonTooDeepError as parseJsonWithin does.
   */
  parseLarge?: (bytes: Uint8Array, schema: AnswerSchemaName | undefined) => Promise<LargeAnswer>;
  /** `host:port` of the proxy the dispatcher goes through, for error messages (never with credentials). */
  proxy?: string;
  /** What named that proxy: `http.proxy` or an environment variable such as `HTTPS_PROXY`. */
  proxySource?: string;
  onEvent?: (event: HttpEvent) => void;
}

/** What every call of the client takes: a cancellation. */
export interface Call {
  signal?: AbortSignal;
}

export interface CallOptions extends Call {
  /** The schema the answer is checked against (by the caller, or where a large one is parsed: parseLarge). */
  schema?: AnswerSchemaName;
  /** Sent as If-None-Match; a 304 answer is returned as `{ status: 304 }`. */
  etag?: string;
  /** A smaller body budget than the client's (`maxResponseBytes`), for answers whose size the request bounds. */
  maxBytes?: number;
  /**
   * At most `max` rows in the answer's `features` array: counted as the bytes arrive (base/jsonScan.ts), and the read
   * ends with `tooMany()` at the first row over.
   */
  rows?: { max: number; tooMany: () => Error };
}

export interface JsonResponse {
  status: number;
  body: unknown;
  etag?: string;
  headers: Record<string, string | string[] | undefined>;
  /** The schema the body was already checked against where it was parsed (a large answer), and zod's first issue. */
  checked?: CheckedAnswer;
}
