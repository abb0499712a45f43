/**
 * Reading an answer's body whole, within bounds: at most so many bytes as they arrive and once decompressed (a small
 * compressed answer must not unpack into gigabytes), at most so many rows when counted, and parsed as JSON only
 * when it is not an HTML page, within the intake's depth: a large answer here in batches when its bytes show it
 * within the intake's budget (answerOnHost.ts), otherwise in the worker, or in time slices without one.
 */
import * as l10n from '@vscode/l10n';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import type { Dispatcher } from 'undici';
import { formatByteSize } from '../base/byteSize';
import { INTAKE_BUDGET } from '../base/intakeBudget';
import { JsonTooDeepError } from '../base/jsonBytes';
import { JsonPartError } from '../base/jsonPartError';
import { parseJsonSliced } from '../base/slicedJson';
import { JsonScan, scanInSlices } from '../base/jsonScan';
import { TimeSlices } from '../base/timeSlices';
import { takeOnHost } from './answerOnHost';
import { redact, secretsOf, TokenRedactor } from './tokenRedactor';
import type { AnswerSchemaName, CheckedAnswer, LargeAnswer } from './answerSchemas';
import { SchemaError } from './errors';
import { errorCode } from './httpErrors';

type AnswerHeaders = Record<string, string | string[] | undefined>;

const gunzip = promisify(zlib.gunzip);
const brotli = promisify(zlib.brotliDecompress);
const inflate = promisify(zlib.inflate);

/**
 * Reads the body up to `limit` bytes, each chunk scanned by `scan` as it arrives (and `rows.max` rows of it, when
 * counted). An answer given up on is destroyed before it is complete, so undici closes its connection instead of
 * returning it to the pool: a declared length over the limit stops before the first byte, a longer stream at the limit.
 */
export async function readBody(
  response: Dispatcher.ResponseData,
  limit: number,
  request: string,
  scan?: JsonScan,
  rows?: { max: number; tooMany: () => Error },
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
    scan?.feed(chunk as Buffer);
    if (rows && scan && scan.rows > rows.max) {
      body.destroy();
      throw rows.tooMany();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Decompresses up to `limit` bytes. */
export async function decompress(raw: Buffer, headers: AnswerHeaders, request: string, limit: number): Promise<Buffer> {
  const encoding = contentEncoding(headers);
  const options = { maxOutputLength: limit };
  try {
    if (encoding === 'gzip') return await gunzip(raw, options);
    if (encoding === 'br') return await brotli(raw, options);
    if (encoding === 'deflate') return await inflate(raw, options);
  } catch (error) {
    if (errorCode(error) === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(request, limit);
    throw notDecompressed(request, encoding);
  }
  return raw;
}

export function notDecompressed(request: string, encoding: string): SchemaError {
  return new SchemaError(request, l10n.t('the answer could not be decompressed ({0})', encoding));
}

/** The answer's Content-Encoding, lower case (empty when none). */
export function contentEncoding(headers: AnswerHeaders): string {
  return (headerText(headers['content-encoding']) ?? '').toLowerCase();
}

export function isCompressed(headers: AnswerHeaders): boolean {
  const encoding = contentEncoding(headers);
  return encoding === 'gzip' || encoding === 'br' || encoding === 'deflate';
}

/** Stops reading an answer given up on: its connection is closed, not reused (the abort it raises is expected). */
export function discard(response: Dispatcher.ResponseData): void {
  response.body.on('error', () => undefined);
  response.body.destroy();
}

/** An HTML page where JSON was asked for (a file sent as an attachment is not a page). */
export function isHtmlPage(headers: AnswerHeaders): boolean {
  const attachment = /attachment/i.test(headerText(headers['content-disposition']) ?? '');
  return /html/i.test(headerText(headers['content-type']) ?? '') && !attachment;
}

export function htmlInsteadOfJson(request: string): SchemaError {
  return new SchemaError(
    request,
    l10n.t('the server answered with an HTML page instead of JSON (is the URL your Unleash server, or is a proxy or login page in the way?)'),
  );
}

/** Answers up to this size are read at once; a larger one in time slices (a 64 MB answer would block the editor). */
const SMALL_ANSWER = 256 * 1024;
/** The part of a large answer the token is removed from at a time. */
const REDACT_CHUNK = 1024 * 1024;

/**
 * The answer's JSON, the token removed from it first (a server may echo it), nested at most `INTAKE_BUDGET.depth`
 * levels deep. A large answer is taken here when its scan (`scan`, made as it arrived, of these same bytes) shows the
 * worker would change nothing (answerOnHost.ts); otherwise in the worker (`parseLarge`), or in time slices without
 * one. An HTML page, bad JSON or deeper nesting is a SchemaError.
 */
export async function parseJson(
  body: Buffer,
  token: string,
  headers: AnswerHeaders,
  request: string,
  options: { parseLarge?: (bytes: Uint8Array, schema: AnswerSchemaName | undefined) => Promise<LargeAnswer>; schema?: AnswerSchemaName; scan?: JsonScan } = {},
): Promise<{ body: unknown; checked?: CheckedAnswer }> {
  if (isHtmlPage(headers)) throw htmlInsteadOfJson(request);
  const { parseLarge, schema } = options;
  const slices = new TimeSlices();
  const small = body.length <= SMALL_ANSWER;
  const bytes = small ? Buffer.from(redact(body.toString('utf8'), token), 'utf8') : await redactLarge(body, token, slices);
  const checked = (issue?: CheckedAnswer['issue']) => (schema ? { checked: { schema, ...(issue ? { issue } : {}) } } : {});
  try {
    if (!small) {
      // The scan made as the bytes arrived holds for them only if no token was taken out.
      const shape = (bytes === body && options.scan ? options.scan : await scanInSlices(bytes, slices)).finish();
      const taken = shape && (await takeOnHost(bytes, shape, schema, slices));
      if (taken) return { body: taken.body, ...checked() };
    }
    // A byte order mark (some proxies and Windows servers add one) is not part of the JSON: both parsers skip it.
    if (parseLarge && !small) {
      const large = await parseLarge(bytes, schema);
      return { body: large.body, ...checked(large.issue) };
    }
    return { body: await parseJsonSliced(bytes, { slices, maxDepth: INTAKE_BUDGET.depth }) };
  } catch (error) {
    if (error instanceof JsonTooDeepError) {
      throw new SchemaError(request, l10n.t('the answer nests lists and objects more than {0} levels deep', INTAKE_BUDGET.depth));
    }
    if (!(error instanceof SyntaxError) && !(error instanceof JsonPartError)) throw new SchemaError(request, error instanceof Error ? error.message : String(error));
    const contentType = headerText(headers['content-type']) ?? '';
    throw new SchemaError(request, l10n.t('the answer is not valid JSON ({0})', contentType || l10n.t('no content type')));
  }
}

/** A large answer without the token, removed in time slices; the answer itself when it holds none (most do). */
async function redactLarge(body: Buffer, token: string, slices: TimeSlices): Promise<Buffer> {
  const secrets = secretsOf(token);
  // The last secret is the token's secret part when it has one, which the token holds: where it is not, neither is the token.
  const probe = secrets[secrets.length - 1];
  if (probe === undefined || !body.includes(probe)) return body;
  const redactor = new TokenRedactor(secrets);
  const parts: Buffer[] = [];
  for (let at = 0; at < body.length; at += REDACT_CHUNK) {
    if (slices.due()) await slices.next();
    parts.push(redactor.push(body.subarray(at, at + REDACT_CHUNK)));
  }
  parts.push(redactor.end());
  return Buffer.concat(parts);
}

function tooLarge(request: string, limit: number): SchemaError {
  return new SchemaError(request, l10n.t('the answer is larger than {0}', formatByteSize(limit)));
}

/** A header's value (the first, when it was sent twice). */
export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
