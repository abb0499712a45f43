/**
 * The syntax error of a JSON text too large to parse natively whole (slicedJson.ts): JSON.parse's message on the part
 * that fails, and the line that part starts at.
 */
import type { TimeSlices } from './timeSlices';

/** A syntax error in a text larger than `exactBytes`: JSON.parse's message on the part that fails, and its line. */
export class JsonPartError extends SyntaxError {
  constructor(
    /** Line (from 1) where the failing part starts. */
    readonly line: number,
    /** JSON.parse's message on that part, without its position (which counts from the part, not the text). */
    readonly detail: string,
  ) {
    super(`${detail} (in the part from line ${line})`);
    this.name = 'JsonPartError';
  }
}

/**
 * The bytes are not valid JSON; the first error is in bytes `from`–`to` (where it was found), and `lead` is a text
 * that leaves JSON.parse where the text is at `from` (the container it is in, and a member before it if there is one).
 */
export class NotValid extends Error {
  constructor(
    readonly from: number,
    readonly to: number,
    readonly lead: string,
  ) {
    super('not valid JSON');
  }
}

/** Bytes after the place an error was found that its part includes (an error is often seen a token late). */
const PART_TAIL = 64;

/** JSON.parse's error on the part of a large text that fails, with the line it starts at (`start`: the text's first byte). */
export async function partError(bytes: Uint8Array, start: number, error: NotValid, slices: TimeSlices): Promise<JsonPartError> {
  const part = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(error.from, Math.min(bytes.length, error.to + PART_TAIL)));
  let detail = 'not valid JSON';
  try {
    JSON.parse(`${error.lead}${part}`);
  } catch (parseError) {
    detail = (parseError as Error).message.replace(/ in JSON at position \d+(?: \(line \d+ column \d+\))?/, '');
  }
  let line = 1;
  for (let i = start; i < error.from; i++) {
    if (bytes[i] === 0x0a) line++;
    if ((i & 0xfffff) === 0 && slices.due()) await slices.next();
  }
  return new JsonPartError(line, detail);
}
