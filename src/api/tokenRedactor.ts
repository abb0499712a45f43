/**
 * Removes the API token from an answer read in chunks, as `redact` (http.ts) does on a whole text: the token and its
 * secret part become `«token»`, also where a chunk boundary cuts one in two. The token is printable ASCII, whose bytes
 * never occur inside a multi-byte UTF-8 character, so replacing bytes is replacing text. Imports nothing from 'vscode'.
 */
const REPLACEMENT = Buffer.from('«token»', 'utf8');

export class TokenRedactor {
  private readonly secrets: Buffer[];
  /** Bytes held back at the end of each chunk: the longest secret but one, which the next chunk may complete. */
  private readonly holdBack: number;
  private tail: Buffer = Buffer.alloc(0);

  /** `secrets`: what to remove, in order (see `secretsOf` in http.ts); none leaves the answer as it is. */
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
