/**
 * Turns a failed request into one of the client's typed errors (errors.ts): an error answer by its status and body
 * (the token removed, long texts clipped), a transport failure by its system or undici code.
 */
import { z } from 'zod';
import {
  AuthError,
  BadRequestError,
  ForbiddenError,
  HttpError,
  NetworkError,
  NotFoundError,
  TimeoutError,
  type ServerErrorInfo,
} from './errors';
import { redact } from './tokenRedactor';

/** The error body: three shapes in the wild ({id,name,message,details}, {name,message,details}, {message}). */
const errorBodySchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  message: z.string().optional(),
  details: z.array(z.looseObject({ message: z.string().optional(), path: z.string().optional() })).optional(),
});

/** Details of an error answer kept; the rest are dropped. */
const MAX_DETAILS = 20;

/** What an error answer said, besides its status. */
interface ErrorAnswer {
  /** The body, the token already removed. */
  text: string;
  contentType: string;
  retryAfter?: string;
  /** For a redirect: where to, already cut down by `redirectTarget`. */
  location?: string;
}

/** The typed error for an answer of status 300 and above. */
export function errorFor(status: number, request: string, answer: ErrorAnswer): Error {
  const info: ServerErrorInfo = { status, request, ...parseErrorBody(answer.text, answer.contentType) };
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
      return new HttpError({ ...info, retryAfterSeconds: parseRetryAfter(answer.retryAfter), location: answer.location });
  }
}

/**
 * Where a redirect points, as origin and path: no credentials, query or fragment (they may carry session state),
 * and without the API path when the redirect kept it, so `http://host/api/admin/x` → `https://host/api/admin/x`
 * reads `https://host`. Undefined when there is no usable http(s) Location.
 */
export function redirectTarget(location: string | undefined, requested: string, apiPath: string, token: string): string | undefined {
  if (!location) return undefined;
  let url: URL;
  try {
    url = new URL(location, requested);
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

/** Seconds to wait from a Retry-After header: delta-seconds or an HTTP date. */
function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

function clip(text: string): string {
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

/** A transport failure (no answer): a timeout of undici's, or a NetworkError with its code. */
export function toNetworkError(request: string, error: unknown, timeoutMs: number, proxy: string | undefined, proxySource: string | undefined): Error {
  const code = errorCode(error);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return new TimeoutError(request, timeoutMs);
  const message = error instanceof Error ? error.message : String(error);
  return new NetworkError(request, code, message, proxy, proxySource);
}

/** The system or undici code of a failure, or of what caused it (a few levels deep). */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
