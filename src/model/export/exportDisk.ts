/**
 * An export's steps on disk, beside the target file: temporary files (the server's answer, the laid-out file) that
 * are always removed, bytes written in large blocks, and the comparison of a new file with the one there, a block at
 * a time, so that no step holds a whole export.
 */
import * as fsp from 'node:fs/promises';
import { tempPathFor } from '../../base/atomicWrite';
import { openRegularFile } from '../../base/safeRead';

/** Size of the blocks an export is read and written in. */
export const BLOCK_BYTES = 1 << 20;

/**
 * Temporary files beside `target` (`.<name>.<pid>.<random>.tmp`), each closed and removed by `removeAll` unless `keep`
 * took it.
 */
export class TempFiles {
  private readonly open = new Map<string, fsp.FileHandle>();

  constructor(private readonly target: string) {}

  /** A new empty file, open for writing and reading; `mode` before the umask (0o600: only its owner reads it). */
  async create(mode = 0o666): Promise<{ path: string; handle: fsp.FileHandle }> {
    const path = tempPathFor(this.target);
    const handle = await fsp.open(path, 'wx+', mode);
    this.open.set(path, handle);
    return { path, handle };
  }

  /** Closes `path` (it is complete); it is still removed at the end unless kept. */
  async close(path: string): Promise<void> {
    await this.open.get(path)?.close();
  }

  /** `path` was renamed into place: no longer removed. */
  keep(path: string): void {
    this.open.delete(path);
  }

  async remove(path: string): Promise<void> {
    const handle = this.open.get(path);
    this.open.delete(path);
    await handle?.close().catch(() => undefined);
    await fsp.rm(path, { force: true });
  }

  async removeAll(): Promise<void> {
    await Promise.all([...this.open.keys()].map((path) => this.remove(path).catch(() => undefined)));
  }
}

/** Bytes and text gathered into blocks that are written to a file as they fill. */
export class BlockOut {
  private readonly block = Buffer.allocUnsafe(BLOCK_BYTES);
  private used = 0;
  private writtenValue = 0;

  constructor(private readonly handle: fsp.FileHandle) {}

  /** Bytes written to the file so far. */
  get written(): number {
    return this.writtenValue;
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (bytes.length > BLOCK_BYTES - this.used) {
      await this.flush();
      if (bytes.length > BLOCK_BYTES) return this.writeAll(bytes);
    }
    this.block.set(bytes, this.used);
    this.used += bytes.length;
  }

  /** `text` in UTF-8, encoded straight into the block. */
  async writeText(text: string): Promise<void> {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    if (text.length * 3 > BLOCK_BYTES - this.used) {
      await this.flush();
      if (text.length * 3 > BLOCK_BYTES) return this.writeAll(Buffer.from(text, 'utf8'));
    }
    this.used += this.block.write(text, this.used, 'utf8');
  }

  async flush(): Promise<void> {
    if (this.used === 0) return;
    await this.writeAll(this.block.subarray(0, this.used));
    this.used = 0;
  }

  private async writeAll(data: Uint8Array): Promise<void> {
    for (let done = 0; done < data.length; ) done += (await this.handle.write(data, done, data.length - done)).bytesWritten;
    this.writtenValue += data.length;
  }
}

/** Reads up to `length` bytes at `position` into `buffer` (fewer at the end of the file). */
export async function readFully(handle: fsp.FileHandle, buffer: Buffer, position: number, length = buffer.length): Promise<Buffer> {
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/** Content to compare with the file there: its size, and a way to read it at a position. */
interface Candidate {
  size: number;
  read(buffer: Buffer, position: number): Promise<number>;
}

export function bufferCandidate(bytes: Buffer): Candidate {
  return { size: bytes.length, read: async (buffer, position) => bytes.copy(buffer, 0, position) };
}

export function fileCandidate(handle: fsp.FileHandle, size: number): Candidate {
  return { size, read: async (buffer, position) => (await handle.read(buffer, 0, buffer.length, position)).bytesRead };
}

interface Existing {
  /** A file was there. */
  existed: boolean;
  /** It holds exactly the candidate's bytes. */
  same: boolean;
  /** Its text, when it differs and is at most `maxPrevious` bytes (for a diff). */
  previous?: string;
}

/**
 * The file at `file` against `candidate`: only a regular file is read (never through a link, a FIFO or a device:
 * UnsafeFileError, or EISDIR), a block at a time, and only when the sizes are equal; its text is kept for a diff
 * when it differs and is small enough.
 */
export async function compareExisting(file: string, candidate: Candidate, maxPrevious: number, signal?: AbortSignal): Promise<Existing> {
  const handle = await openRegularFile(file, { maxBytes: Number.MAX_SAFE_INTEGER, followLinks: false, signal });
  if (!handle) return { existed: false, same: false };
  try {
    const { size } = await handle.stat();
    const same = size === candidate.size && (await sameBlocks(handle, candidate, signal));
    if (same || size > maxPrevious) return { existed: true, same };
    const previous = await readFully(handle, Buffer.allocUnsafe(size), 0);
    return { existed: true, same, previous: previous.toString('utf8') };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

async function sameBlocks(handle: fsp.FileHandle, candidate: Candidate, signal: AbortSignal | undefined): Promise<boolean> {
  const mine = Buffer.allocUnsafe(BLOCK_BYTES);
  const theirs = Buffer.allocUnsafe(BLOCK_BYTES);
  for (let position = 0; position < candidate.size; ) {
    signal?.throwIfAborted();
    const length = Math.min(BLOCK_BYTES, candidate.size - position);
    const [read, wanted] = await Promise.all([
      handle.read(mine, 0, length, position).then((result) => result.bytesRead),
      candidate.read(theirs.subarray(0, length), position),
    ]);
    if (read !== length || wanted !== length || !mine.subarray(0, length).equals(theirs.subarray(0, length))) return false;
    position += length;
  }
  return true;
}
