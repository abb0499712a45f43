/**
 * The HTTP core of the Admin API client: one keep-alive pool per base URL, the token header, timeouts,
 * cancellation, bounded retries for GETs, decompression and the translation of every failure into a typed error.
 * Imports nothing from 'vscode'.
 */
import * as l10n from '@vscode/l10n';
import { pipeline } from 'node:stream';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { request, type Dispatcher } from 'undici';
import { baseUrlText, isLoopback } from './baseUrl';
import {
  AnswerTooLargeError,
  AuthError,
  BadRequestError,
  CancelledError,
  ForbiddenError,
  HttpError,
  InvalidTokenError,
  MissingTokenError,
  NetworkError,
  NotFoundError,
  SchemaError,
  TimeoutError,
  UnleashApiError,
  type ServerErrorInfo,
} from './errors';
import { RowCounter } from './rowCounter';
import { TokenRedactor } from './tokenRedactor';
import { errorBodySchema } from './schemas';

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
  userAgent?: string;
  /** `host:port` of the proxy the dispatcher goes through, for error messages (never with credentials). */
  proxy?: string;
  /** What named that proxy: `http.proxy` or an environment variable such as `HTTPS_PROXY`. */
  proxySource?: string;
  onEvent?: (event: HttpEvent) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Sent as If-None-Match; a 304 answer is returned as `{ status: 304 }`. */
  etag?: string;
  /** A smaller body budget than the client's (`maxResponseBytes`), for answers whose size the request bounds. */
  maxBytes?: number;
  /**
   * At most `max` rows in the answer's `features` array: counted as the bytes arrive (rowCounter.ts), and the read
   * ends with `tooMany()` at the first row over.
   */
  rows?: { max: number; tooMany: () => Error };
}

export interface StreamOptions {
  signal?: AbortSignal;
  /** Most bytes of the answer (after decompression) handed on. */
  maxBytes: number;
  /** How far an answer of undeclared length is counted past `maxBytes` (not kept), to say how large it is. */
  measureUpTo?: number;
  /** Each piece of the answer in order, the token removed; awaited before the next is read. */
  onBytes: (bytes: Buffer) => void | Promise<void>;
}

export interface JsonResponse {
  status: number;
  body: unknown;
  etag?: string;
  headers: Record<string, string | string[] | undefined>;
}

/** Largest error answer read (a streamed call's error body is read whole, to say what the server said). */
const ERROR_BODY_BYTES = 1024 * 1024;
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
const RETRYABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'EAI_AGAIN']);
const gunzip = promisify(zlib.gunzip);
const brotli = promisify(zlib.brotliDecompress);
const inflate = promisify(zlib.inflate);

export class HttpClient {
  readonly baseUrl: URL;
  private readonly prefix: string;
  private readonly acceptEncoding: string;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly retryBaseMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly maxResponseBytes: number;

  constructor(private readonly options: HttpOptions) {
    this.baseUrl = options.baseUrl;
    this.prefix = baseUrlText(options.baseUrl);
    this.acceptEncoding = acceptEncoding(options.baseUrl);
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.retries = options.retries ?? 2;
    this.retryBaseMs = options.retryBaseMs ?? 400;
    // Waiting for a retry longer than a request may take would hang the caller past the timeout the user chose.
    this.maxRetryAfterMs = Math.min(options.maxRetryAfterMs ?? 10_000, this.timeoutMs);
    this.maxResponseBytes = options.maxResponseBytes ?? 64 * 1024 * 1024;
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
        const delayMs = attempt < this.retries ? this.retryDelay(error, attempt) : undefined;
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

  /** How long to wait before retrying, or undefined when the failure must not be retried. */
  private retryDelay(error: unknown, attempt: number): number | undefined {
    const backoff = this.retryBaseMs * 2 ** attempt + Math.floor(Math.random() * this.retryBaseMs * 0.25);
    if (error instanceof NetworkError) return error.code && RETRYABLE_CODES.has(error.code) ? backoff : undefined;
    if (error instanceof HttpError && RETRYABLE_STATUS.has(error.status) && !error.maintenance) {
      if (error.retryAfterSeconds === undefined) return backoff;
      const wait = error.retryAfterSeconds * 1000;
      return wait <= this.maxRetryAfterMs ? Math.max(wait, 0) : undefined;
    }
    return undefined;
  }

  /**
   * POSTs JSON and hands the answer's bytes to `onBytes` as they arrive (decompressed, the token removed), so that an
   * answer of any size is never held: an export. The wait for the answer to start is bounded by the timeout; then each
   * piece must come within it, and at most `maxBytes` are handed on. A larger answer is counted on (not kept) up to
   * `measureUpTo` when its length was not declared, and refused with AnswerTooLargeError saying how large it is.
   * Never retried (an export stores an audit event each time). Resolves to the answer's size.
   */
  async postStream(path: string, body: unknown, options: StreamOptions): Promise<number> {
    const label = `POST ${path.split('?')[0]}`;
    const { token, headers } = await this.prepare(true, options);
    const started = performance.now();
    const waiting = new AbortController();
    const timer = setTimeout(() => waiting.abort(), this.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, waiting.signal]) : waiting.signal;
    const fail = (error: unknown): never => {
      if (options.signal?.aborted) throw new CancelledError();
      if (waiting.signal.aborted) throw new TimeoutError(label, this.timeoutMs);
      throw toNetworkError(label, error, this.timeoutMs, this.options.proxy, this.options.proxySource);
    };

    let response: Dispatcher.ResponseData;
    try {
      response = await request(`${this.prefix}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal,
        dispatcher: this.options.dispatcher,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
    } catch (error) {
      clearTimeout(timer);
      return fail(error);
    }
    clearTimeout(timer);
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
      const text = redact((await decompress(raw, response.headers, label, ERROR_BODY_BYTES)).toString('utf8'), token);
      const location = status < 400 ? redirectTarget(response.headers.location, `${this.prefix}${path}`, path, token) : undefined;
      throw errorFor(status, text, headerText(response.headers['content-type']) ?? '', label, response.headers, location);
    }
    const contentType = headerText(response.headers['content-type']) ?? '';
    const attachment = /attachment/i.test(headerText(response.headers['content-disposition']) ?? '');
    if (/html/i.test(contentType) && !attachment) {
      discard(response);
      throw htmlInsteadOfJson(label);
    }
    const compressed = isCompressed(response.headers);
    const declared = compressed ? NaN : Number(headerText(response.headers['content-length']));
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
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const started = performance.now();
    const fail = (error: unknown): never => {
      if (options.signal?.aborted) throw new CancelledError();
      if (timeout.aborted) throw new TimeoutError(label, this.timeoutMs);
      throw toNetworkError(label, error, this.timeoutMs, this.options.proxy, this.options.proxySource);
    };

    const maxBytes = Math.min(this.maxResponseBytes, options.maxBytes ?? Infinity);
    let response: Dispatcher.ResponseData;
    let raw: Buffer;
    try {
      response = await request(`${this.prefix}${path}`, {
        method,
        headers,
        body,
        signal,
        dispatcher: this.options.dispatcher,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      const counted = options.rows && response.statusCode < 300 ? { ...options.rows, counter: new RowCounter() } : undefined;
      // A compressed body is counted once unpacked (below).
      raw = await readBody(response, maxBytes, label, isCompressed(response.headers) ? undefined : counted);
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
    if (options.rows && status < 300 && isCompressed(response.headers) && new RowCounter().feed(unpacked) > options.rows.max) throw options.rows.tooMany();
    const text = redact(unpacked.toString('utf8'), token);
    const contentType = headerText(response.headers['content-type']) ?? '';
    if (status >= 300) {
      const location = status < 400 ? redirectTarget(response.headers.location, `${this.prefix}${path}`, path, token) : undefined;
      throw errorFor(status, text, contentType, label, response.headers, location);
    }
    return { status, body: parseJson(text, contentType, response.headers, label), etag, headers: response.headers };
  }
}

function errorFor(
  status: number,
  text: string,
  contentType: string,
  request: string,
  headers: Record<string, string | string[] | undefined>,
  location?: string,
): Error {
  const info: ServerErrorInfo = { status, request, ...parseErrorBody(text, contentType) };
  switch (status) {
    case 400:
      return new BadRequestError(info);
    case 401:
      return new AuthError(info);
    case 403:
      return new ForbiddenError(info);
    case 404:
      return new NotFoundError(info);
    default:
      return new HttpError({ ...info, retryAfterSeconds: parseRetryAfter(headerText(headers['retry-after'])), location });
  }
}

/**
 * Where a redirect points, as origin and path: no credentials, query or fragment (they may carry session state),
 * and without the API path when the redirect kept it, so `http://host/api/admin/x` → `https://host/api/admin/x`
 * reads `https://host`. Undefined when there is no usable http(s) Location.
 */
function redirectTarget(location: string | string[] | undefined, requested: string, apiPath: string, token: string): string | undefined {
  const text = headerText(location);
  if (!text) return undefined;
  let url: URL;
  try {
    url = new URL(text, requested);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const api = apiPath.split('?')[0] ?? '';
  const pathname = api && url.pathname.endsWith(api) ? url.pathname.slice(0, -api.length) : url.pathname;
  return redact(`${url.origin}${pathname.replace(/\/+$/, '')}`, token);
}

/** Reads the three error body shapes; an HTML or empty body leaves only the status to go on. */
function parseErrorBody(text: string, contentType: string): Partial<ServerErrorInfo> {
  if (/html/i.test(contentType) || /^\s*</.test(text)) return {};
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success) {
      const { id, name, message, details } = parsed.data;
      return {
        errorId: id,
        serverName: name,
        serverMessage: message && clip(message),
        // A hostile or broken server could send thousands of details, each of any length.
        details: details?.slice(0, MAX_DETAILS).map((detail) => ({
          message: detail.message === undefined ? undefined : clip(detail.message),
          path: detail.path === undefined ? undefined : clip(detail.path),
        })),
      };
    }
  } catch {
    // not JSON: fall through to the text itself
  }
  const trimmed = text.trim();
  return trimmed ? { serverMessage: clip(trimmed) } : {};
}

/** What a streamed answer's reading needs besides the caller's options. */
interface BodyStream extends StreamOptions {
  label: string;
  token: string;
  /** Turns a transport failure into the client's error (cancelled, timeout, network). */
  fail: (error: unknown) => never;
}

/** An error thrown by the consumer of a streamed answer (not by the transport), passed through as it is. */
class ConsumerError {
  constructor(readonly error: unknown) {}
}

/**
 * Hands a successful answer's bytes to `onBytes` (decompressed, the token removed, at most `maxBytes`); past that,
 * counts on without keeping up to `measureUpTo`, then refuses it with its size.
 */
async function streamBody(response: Dispatcher.ResponseData, options: BodyStream): Promise<number> {
  const { maxBytes, label } = options;
  const measureUpTo = Math.max(maxBytes, options.measureUpTo ?? maxBytes);
  const encoding = (headerText(response.headers['content-encoding']) ?? '').toLowerCase();
  const decoder = encoding === 'gzip' ? zlib.createGunzip() : encoding === 'br' ? zlib.createBrotliDecompress() : encoding === 'deflate' ? zlib.createInflate() : undefined;
  const source: AsyncIterable<Buffer> = decoder ? pipeline(response.body, decoder, () => undefined) : response.body;
  const redactor = new TokenRedactor(secretsOf(options.token));
  let size = 0;
  const pass = async (bytes: Buffer): Promise<void> => {
    if (bytes.length === 0) return;
    try {
      await options.onBytes(bytes);
    } catch (error) {
      throw new ConsumerError(error);
    }
  };
  try {
    for await (const chunk of source) {
      size += chunk.length;
      if (size > measureUpTo) throw new AnswerTooLargeError(label, size, false, maxBytes);
      if (size <= maxBytes) await pass(redactor.push(chunk));
    }
    if (size > maxBytes) throw new AnswerTooLargeError(label, size, true, maxBytes);
    await pass(redactor.end());
    return size;
  } catch (error) {
    discard(response);
    decoder?.destroy();
    if (error instanceof ConsumerError) throw error.error;
    if (error instanceof UnleashApiError) throw error;
    if (decoder && /^Z_|^ERR_BROTLI|^ERR_ZLIB/.test(errorCode(error) ?? '')) {
      throw new SchemaError(label, l10n.t('the answer could not be decompressed ({0})', encoding));
    }
    return options.fail(error);
  }
}

/** Stops reading an answer given up on: its connection is closed, not reused (the abort it raises is expected). */
function discard(response: Dispatcher.ResponseData): void {
  response.body.on('error', () => undefined);
  response.body.destroy();
}

function htmlInsteadOfJson(request: string): SchemaError {
  return new SchemaError(
    request,
    l10n.t('the server answered with an HTML page instead of JSON (is the URL your Unleash server, or is a proxy or login page in the way?)'),
  );
}

function parseJson(
  text: string,
  contentType: string,
  headers: Record<string, string | string[] | undefined>,
  request: string,
): unknown {
  const attachment = /attachment/i.test(headerText(headers['content-disposition']) ?? '');
  if (/html/i.test(contentType) && !attachment) throw htmlInsteadOfJson(request);
  try {
    // A byte order mark (some proxies and Windows servers add one) is not part of the JSON.
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    throw new SchemaError(request, l10n.t('the answer is not valid JSON ({0})', contentType || l10n.t('no content type')));
  }
}

/**
 * What the client asks the server to compress with. Compression trades CPU on both ends for bytes on the wire: a
 * 10,000-flag project listing is 5.3 MB plain and several times smaller compressed, which pays over any network; on this
 * machine (a local Unleash) nothing is saved, and the server's compression and our decompression are pure cost
 * (measured 30 ms + 35–50 ms at 10,000 flags: bench/README.md). A compressed answer is decoded either way.
 */
export function acceptEncoding(baseUrl: URL): string {
  return isLoopback(baseUrl) ? 'identity' : 'gzip, br';
}

/**
 * Reads the body up to `limit` bytes (and `rows.max` rows, when counted). An answer given up on is destroyed before it
 * is complete, so undici closes its connection instead of returning it to the pool: a declared length over the limit
 * stops before the first byte, a longer stream at the limit.
 */
async function readBody(
  response: Dispatcher.ResponseData,
  limit: number,
  request: string,
  rows?: { max: number; tooMany: () => Error; counter: RowCounter },
): Promise<Buffer> {
  const { body } = response;
  const declared = Number(headerText(response.headers['content-length']));
  if (declared > limit) {
    body.destroy();
    throw tooLarge(request, limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      body.destroy();
      throw tooLarge(request, limit);
    }
    if (rows && rows.counter.feed(chunk as Buffer) > rows.max) {
      body.destroy();
      throw rows.tooMany();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function isCompressed(headers: Record<string, string | string[] | undefined>): boolean {
  const encoding = (headerText(headers['content-encoding']) ?? '').toLowerCase();
  return encoding === 'gzip' || encoding === 'br' || encoding === 'deflate';
}

function tooLarge(request: string, limit: number): SchemaError {
  return new SchemaError(request, l10n.t('the answer is larger than {0}', formatBytes(limit)));
}

/** `64 MiB`, `512 KiB`, `300 bytes`. */
function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}

/** Decompresses up to `limit` bytes: a small compressed answer must not unpack into gigabytes. */
async function decompress(
  raw: Buffer,
  headers: Record<string, string | string[] | undefined>,
  request: string,
  limit: number,
): Promise<Buffer> {
  const encoding = (headerText(headers['content-encoding']) ?? '').toLowerCase();
  const options = { maxOutputLength: limit };
  try {
    if (encoding === 'gzip') return await gunzip(raw, options);
    if (encoding === 'br') return await brotli(raw, options);
    if (encoding === 'deflate') return await inflate(raw, options);
  } catch (error) {
    if (errorCode(error) === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(request, limit);
    throw new SchemaError(request, l10n.t('the answer could not be decompressed ({0})', encoding));
  }
  return raw;
}

function toNetworkError(request: string, error: unknown, timeoutMs: number, proxy: string | undefined, proxySource: string | undefined): Error {
  const code = errorCode(error);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return new TimeoutError(request, timeoutMs);
  const message = error instanceof Error ? error.message : String(error);
  return new NetworkError(request, code, message, proxy, proxySource);
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Seconds to wait from a Retry-After header: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * Removes every occurrence of the token, and of its secret part, from text the server sent back. The secret part is
 * what follows the last `.`, `:` or space (`*:*.<secret>`, `user:<secret>`, `Bearer <secret>`): a server may echo it
 * alone, or percent-encode the rest.
 */
export function redact(text: string, token: string): string {
  let result = text;
  for (const secret of secretsOf(token)) result = result.split(secret).join('«token»');
  return result;
}

/** What `redact` removes, in order: the token, and its secret part when that is long enough to be one. */
function secretsOf(token: string): string[] {
  // A token this short is no real token (the server refuses it), and replacing it would mangle the answer.
  if (token.length < MIN_REDACTED_LENGTH) return [];
  const secrets = [token];
  const secretPart = token.slice(Math.max(token.lastIndexOf('.'), token.lastIndexOf(':'), token.lastIndexOf(' ')) + 1);
  if (secretPart.length >= 8 && secretPart !== token) secrets.push(secretPart);
  return secrets;
}

const MIN_REDACTED_LENGTH = 6;

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Details of an error answer kept; the rest are dropped. */
const MAX_DETAILS = 20;

function clip(text: string): string {
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
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
