/** The bytes of a token (a key, a value) that a stream cut across chunks: its earlier pieces are kept until it ends. */

export class ChunkPieces {
  private pieces: Uint8Array[] = [];
  private size = 0;

  /** Keeps the part of a token that goes on in the next chunk (a copy: the chunk may be reused). */
  keep(part: Uint8Array): void {
    if (part.length === 0) return;
    this.pieces.push(part.slice());
    this.size += part.length;
  }

  /** The whole token: the pieces kept, then `last` (returned as it is when nothing was kept); forgets the pieces. */
  join(last: Uint8Array): Uint8Array {
    if (this.pieces.length === 0) return last;
    const bytes = new Uint8Array(this.size + last.length);
    let at = 0;
    for (const piece of this.pieces) {
      bytes.set(piece, at);
      at += piece.length;
    }
    bytes.set(last, at);
    this.pieces = [];
    this.size = 0;
    return bytes;
  }
}
