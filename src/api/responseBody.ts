/**
 * Reading an answer's body whole, within bounds: at most so many bytes as they arrive and once decompressed (a small
 * compressed answer must not unpack into gigabytes), at most so many rows when counted, and parsed as JSON only
 * when it is not an HTML page.
 */
import * as l10n from '@vscode/l10n';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import type { Dispatcher } from 'undici';
import { formatByteSize } from '../base/byteSize';
import { SchemaError } from './errors';
import { errorCode } from './httpErrors';
import type { RowCounter } from './rowCounter';

type AnswerHeaders = Record<string, string | string[] | undefined>;

const gunzip = promisify(zlib.gunzip);
const brotli = promisify(zlib.brotliDecompress);
const inflate = promisify(zlib.inflate);

/**
 * Reads the body up to `limit` bytes (and `rows.max` rows, when counted). An answer given up on is destroyed before it
 * is complete, so undici closes its connection instead of returning it to the pool: a declared length over the limit
 * stops before the first byte, a longer stream at the limit.
 */
export async function readBody(
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

export function parseJson(text: string, headers: AnswerHeaders, request: string): unknown {
  if (isHtmlPage(headers)) throw htmlInsteadOfJson(request);
  try {
    // A byte order mark (some proxies and Windows servers add one) is not part of the JSON.
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    const contentType = headerText(headers['content-type']) ?? '';
    throw new SchemaError(request, l10n.t('the answer is not valid JSON ({0})', contentType || l10n.t('no content type')));
  }
}

function tooLarge(request: string, limit: number): SchemaError {
  return new SchemaError(request, l10n.t('the answer is larger than {0}', formatByteSize(limit)));
}

/** A header's value (the first, when it was sent twice). */
export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
