/**
 * Removes the API token from what a server sends back, from a whole text (`redact`) or an answer read in chunks
 * (TokenRedactor): the token and its secret part become `«token»`, also where a chunk boundary cuts one in two.
 */

const MARK = '«token»';
const REPLACEMENT = Buffer.from(MARK, 'utf8');
/** A token this short is no real token (the server refuses it), and replacing it would mangle the answer. */
const MIN_REDACTED_LENGTH = 6;

/**
 * Removes every occurrence of the token, and of its secret part, from text the server sent back. The secret part is
 * what follows the last `.`, `:` or space (`*:*.<secret>`, `user:<secret>`, `Bearer <secret>`): a server may echo it
 * alone, or percent-encode the rest.
 */
export function redact(text: string, token: string): string {
  let result = text;
  for (const secret of secretsOf(token)) result = result.split(secret).join(MARK);
  return result;
}

/** What `redact` removes, in order: the token, and its secret part when that is long enough to be one. */
export function secretsOf(token: string): string[] {
  if (token.length < MIN_REDACTED_LENGTH) return [];
  const secrets = [token];
  const secretPart = token.slice(Math.max(token.lastIndexOf('.'), token.lastIndexOf(':'), token.lastIndexOf(' ')) + 1);
  if (secretPart.length >= 8 && secretPart !== token) secrets.push(secretPart);
  return secrets;
}

export class TokenRedactor {
  private readonly secrets: Buffer[];
  /** Bytes held back at the end of each chunk: the longest secret but one, which the next chunk may complete. */
  private readonly holdBack: number;
  private tail: Buffer = Buffer.alloc(0);

  /**
   * `secrets`: what to remove, in order (`secretsOf`); none leaves the answer as it is. The token is printable ASCII,
   * whose bytes never occur inside a multi-byte UTF-8 character, so replacing bytes is replacing text.
   */
  constructor(secrets: readonly string[]) {
    this.secrets = secrets.map((secret) => Buffer.from(secret, 'utf8'));
    this.holdBack = Math.max(0, ...this.secrets.map((secret) => secret.length - 1));
  }

  /** The bytes of `chunk` (and of the last one's held-back end) that can be passed on. */
  push(chunk: Buffer): Buffer {
    if (this.secrets.length === 0) return chunk;
    let data = this.tail.length ? Buffer.concat([this.tail, chunk]) : chunk;
    for (const secret of this.secrets) data = replaceAll(data, secret);
    const cut = Math.max(0, data.length - this.holdBack);
    this.tail = Buffer.from(data.subarray(cut));
    return data.subarray(0, cut);
  }

  /** What was held back, at the end of the answer. */
  end(): Buffer {
    const rest = this.tail;
    this.tail = Buffer.alloc(0);
    return rest;
  }
}

function replaceAll(data: Buffer, secret: Buffer): Buffer {
  let at = data.indexOf(secret);
  if (at < 0) return data;
  const parts: Buffer[] = [];
  let from = 0;
  while (at >= 0) {
    parts.push(data.subarray(from, at), REPLACEMENT);
    from = at + secret.length;
    at = data.indexOf(secret, from);
  }
  parts.push(data.subarray(from));
  return Buffer.concat(parts);
}
