/**
 * The HTTP core of the Admin API client: the token header, timeouts, cancellation, bounded retries for GETs, bounded
 * bodies, and every failure as a typed error (httpErrors.ts).
 */
import { request, type Dispatcher } from 'undici';
import { baseUrlText, isLoopback } from './baseUrl';
import { AnswerTooLargeError, CancelledError, DeadlineError, InvalidTokenError, MissingTokenError, TimeoutError, UnleashApiError } from './errors';
import { errorFor, redirectTarget, toNetworkError } from './httpErrors';
import { retryDelay, sleep, type RetryPolicy } from './retries';
import { JsonScan, scanInSlices } from '../base/jsonScan';
import { TimeSlices } from '../base/timeSlices';
import { decompress, discard, headerText, htmlInsteadOfJson, isCompressed, isHtmlPage, parseJson, readBody } from './responseBody';
import type { CallOptions, HttpOptions, JsonResponse } from './httpOptions';
import { streamBody, type StreamOptions } from './streamedBody';
import { redact } from './tokenRedactor';
import { INTAKE_BUDGET } from '../base/intakeBudget';

/** Largest error answer read (a streamed call's error body is read whole, to say what the server said). */
const ERROR_BODY_BYTES = 1024 * 1024;

export class HttpClient {
  readonly baseUrl: URL;
  private readonly prefix: string;
  private readonly acceptEncoding: string;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly maxResponseBytes: number;
  private readonly streamDeadlineMs: number;

  constructor(private readonly options: HttpOptions) {
    this.baseUrl = options.baseUrl;
    this.prefix = baseUrlText(options.baseUrl);
    this.acceptEncoding = acceptEncoding(options.baseUrl);
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.retry = {
      retries: options.retries ?? 2,
      baseMs: options.retryBaseMs ?? 400,
      // Waiting for a retry longer than a request may take would hang the caller past the timeout the user chose.
      maxRetryAfterMs: Math.min(options.maxRetryAfterMs ?? 10_000, this.timeoutMs),
    };
    this.maxResponseBytes = options.maxResponseBytes ?? INTAKE_BUDGET.answerBytes;
    this.streamDeadlineMs = options.streamDeadlineMs ?? INTAKE_BUDGET.exportMs;
  }

  get(path: string, options: CallOptions = {}): Promise<JsonResponse> {
    return this.withRetries('GET', path, options);
  }

  /** POSTs JSON. Never retried: an export writes an audit event on the server each time. */
  post(path: string, body: unknown, options: CallOptions = {}): Promise<JsonResponse> {
    return this.once('POST', path, JSON.stringify(body), options, 0);
  }

  private async withRetries(method: 'GET', path: string, options: CallOptions): Promise<JsonResponse> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(method, path, undefined, options, attempt);
      } catch (error) {
        const delayMs = retryDelay(error, attempt, this.retry);
        if (delayMs === undefined) throw error;
        this.options.onEvent?.({
          kind: 'retry',
          request: `${method} ${path}`,
          ms: 0,
          attempt: attempt + 1,
          delayMs,
          reason: error instanceof Error ? error.message : String(error),
        });
        await sleep(delayMs, options.signal);
      }
    }
  }

  /**
   * POSTs JSON and hands the answer's bytes to `onBytes` as they arrive (streamedBody.ts), so that an answer of any
   * size is never held: an export. The wait for the answer to start is bounded by the timeout; then each piece must
   * come within it, and the whole within `streamDeadlineMs` of the request (a server sending a byte now and then
   * never ends otherwise). Never retried (an export stores an audit event each time). Resolves to the answer's size.
   */
  async postStream(path: string, body: unknown, options: StreamOptions): Promise<number> {
    const label = `POST ${path.split('?')[0]}`;
    const { token, headers } = await this.prepare(true, options);
    const deadline = new AbortController();
    const deadlineTimer = setTimeout(() => deadline.abort(), this.streamDeadlineMs);
    try {
      return await this.streamOnce(path, body, label, token, headers, options, deadline.signal);
    } finally {
      clearTimeout(deadlineTimer);
    }
  }

  private async streamOnce(
    path: string,
    body: unknown,
    label: string,
    token: string,
    headers: Record<string, string>,
    options: StreamOptions,
    deadline: AbortSignal,
  ): Promise<number> {
    const started = performance.now();
    const waiting = new AbortController();
    const timer = setTimeout(() => waiting.abort(), this.timeoutMs);
    const timeout = AbortSignal.any([waiting.signal, deadline]);
    const failure = this.failure(label, options.signal, waiting.signal);
    const fail = (error: unknown, received = 0): never => {
      if (deadline.aborted && !options.signal?.aborted) throw new DeadlineError(label, this.streamDeadlineMs, received);
      return failure(error);
    };
    let response: Dispatcher.ResponseData;
    try {
      response = await this.send('POST', path, headers, JSON.stringify(body), options.signal, timeout);
    } catch (error) {
      return fail(error);
    } finally {
      clearTimeout(timer);
    }
    const status = response.statusCode;
    this.options.onEvent?.({ kind: 'response', request: label, status, ms: performance.now() - started, attempt: 0 });

    if (status >= 300) {
      let raw: Buffer;
      try {
        raw = await readBody(response, ERROR_BODY_BYTES, label);
      } catch (error) {
        if (error instanceof UnleashApiError) throw error;
        return fail(error);
      }
      throw this.errorAnswer(response, await decompress(raw, response.headers, label, ERROR_BODY_BYTES), path, label, token);
    }
    if (isHtmlPage(response.headers)) {
      discard(response);
      throw htmlInsteadOfJson(label);
    }
    const declared = isCompressed(response.headers) ? NaN : Number(headerText(response.headers['content-length']));
    if (declared > options.maxBytes) {
      discard(response);
      throw new AnswerTooLargeError(label, declared, true, options.maxBytes);
    }
    return streamBody(response, { ...options, label, token, fail });
  }

  /** The token (checked) and the request headers. */
  private async prepare(json: boolean, options: Pick<CallOptions, 'signal' | 'etag'>): Promise<{ token: string; headers: Record<string, string> }> {
    if (options.signal?.aborted) throw new CancelledError();
    const token = (await this.options.getToken())?.trim();
    if (!token) throw new MissingTokenError();
    // A header carries printable ASCII only; undici would refuse anything else with a vague "invalid header".
    if (!/^[\x20-\x7e]+$/.test(token)) throw new InvalidTokenError();
    const headers: Record<string, string> = {
      accept: 'application/json',
      'accept-encoding': this.acceptEncoding,
      authorization: token,
      'user-agent': this.options.userAgent ?? 'unleash-flags-vscode',
    };
    if (json) headers['content-type'] = 'application/json';
    if (options.etag) headers['if-none-match'] = options.etag;
    return { token, headers };
  }

  private async once(
    method: 'GET' | 'POST',
    path: string,
    body: string | undefined,
    options: CallOptions,
    attempt: number,
  ): Promise<JsonResponse> {
    const label = `${method} ${path.split('?')[0]}`;
    const { token, headers } = await this.prepare(body !== undefined, options);
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const started = performance.now();
    const fail = this.failure(label, options.signal, timeout);

    const maxBytes = Math.min(this.maxResponseBytes, options.maxBytes ?? Infinity);
    let response: Dispatcher.ResponseData;
    let raw: Buffer;
    let scan: JsonScan | undefined;
    try {
      response = await this.send(method, path, headers, body, options.signal, timeout);
      // A compressed body is scanned, and its rows counted, once unpacked (below).
      scan = response.statusCode < 300 && !isCompressed(response.headers) ? new JsonScan() : undefined;
      raw = await readBody(response, maxBytes, label, scan, options.rows);
    } catch (error) {
      // The client's own refusals (too large, too many rows) are not network failures.
      if (error instanceof UnleashApiError) throw error;
      return fail(error);
    }

    const status = response.statusCode;
    this.options.onEvent?.({ kind: 'response', request: label, status, ms: performance.now() - started, attempt });
    const etag = headerText(response.headers.etag);
    if (status === 304) return { status, body: undefined, etag, headers: response.headers };

    const unpacked = await decompress(raw, response.headers, label, maxBytes);
    if (status >= 300) throw this.errorAnswer(response, unpacked, path, label, token);
    scan ??= await scanInSlices(unpacked, new TimeSlices());
    if (options.rows && scan.rows > options.rows.max) throw options.rows.tooMany();
    const parsed = await parseJson(unpacked, token, response.headers, label, { parseLarge: this.options.parseLarge, schema: options.schema, scan });
    return { status, ...parsed, etag, headers: response.headers };
  }

  /** Sends one request; `timeout` ends it (and each of its waits), as does the caller's `signal`. */
  private send(
    method: 'GET' | 'POST',
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal | undefined,
    timeout: AbortSignal,
  ): Promise<Dispatcher.ResponseData> {
    return request(`${this.prefix}${path}`, {
      method,
      headers,
      body,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      dispatcher: this.options.dispatcher,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
  }

  /** Turns a transport failure into the client's error: cancelled (by the caller), timed out, or a network error. */
  private failure(label: string, signal: AbortSignal | undefined, timeout: AbortSignal): (error: unknown) => never {
    return (error) => {
      if (signal?.aborted) throw new CancelledError();
      if (timeout.aborted) throw new TimeoutError(label, this.timeoutMs);
      throw toNetworkError(label, error, this.timeoutMs, this.options.proxy, this.options.proxySource);
    };
  }

  /** The typed error for an answer of status 300 and above, its body (`unpacked`) without the token. */
  private errorAnswer(response: Dispatcher.ResponseData, unpacked: Buffer, path: string, label: string, token: string): Error {
    const { statusCode: status, headers } = response;
    const location = status < 400 ? redirectTarget(headerText(headers.location), `${this.prefix}${path}`, path, token) : undefined;
    const text = redact(unpacked.toString('utf8'), token);
    return errorFor(status, label, { text, contentType: headerText(headers['content-type']) ?? '', retryAfter: headerText(headers['retry-after']), location });
  }
}

/**
 * What the client asks the server to compress with: nothing on loopback, where compressing and decompressing are pure
 * cost (bench/README.md); `gzip, br` elsewhere, where the bytes saved pay. A compressed answer is decoded either way.
 */
export function acceptEncoding(baseUrl: URL): string {
  return isLoopback(baseUrl) ? 'identity' : 'gzip, br';
}
