/**
 * Hands a successful answer's bytes on as they arrive (decompressed, the token removed), never holding the answer:
 * an export of any size. At most `maxBytes` are handed on; past that the answer is counted on without being kept, up
 * to `measureUpTo`, and refused with its size (AnswerTooLargeError).
 */
import { pipeline } from 'node:stream';
import * as zlib from 'node:zlib';
import type { Dispatcher } from 'undici';
import { AnswerTooLargeError, UnleashApiError } from './errors';
import { errorCode } from './httpErrors';
import { contentEncoding, discard, notDecompressed } from './responseBody';
import { secretsOf, TokenRedactor } from './tokenRedactor';

export interface StreamOptions {
  signal?: AbortSignal;
  /** Most bytes of the answer (after decompression) handed on. */
  maxBytes: number;
  /** How far an answer of undeclared length is counted past `maxBytes` (not kept), to say how large it is. */
  measureUpTo?: number;
  /** Each piece of the answer in order, the token removed; awaited before the next is read. */
  onBytes: (bytes: Buffer) => void | Promise<void>;
}

/** What a streamed answer's reading needs besides the caller's options. */
interface BodyStream extends StreamOptions {
  label: string;
  token: string;
  /** Turns a transport failure into the client's error (cancelled, timeout, deadline, network); `received`: bytes by then. */
  fail: (error: unknown, received: number) => never;
}

/** An error thrown by the consumer of a streamed answer (not by the transport), passed through as it is. */
class ConsumerError {
  constructor(readonly error: unknown) {}
}

/** Streams the body of `response` to `onBytes`; resolves to the answer's size. */
export async function streamBody(response: Dispatcher.ResponseData, options: BodyStream): Promise<number> {
  const { maxBytes, label } = options;
  const measureUpTo = Math.max(maxBytes, options.measureUpTo ?? maxBytes);
  const encoding = contentEncoding(response.headers);
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
    if (decoder && /^Z_|^ERR_BROTLI|^ERR_ZLIB/.test(errorCode(error) ?? '')) throw notDecompressed(label, encoding);
    return options.fail(error, size);
  }
}
