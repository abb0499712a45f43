/**
 * Reads a file that settings or a workspace named, without trusting it: only a regular file is read (never a FIFO,
 * a device such as `/dev/zero`, or a folder), never more than `maxBytes`, asynchronously, and an abort stops the
 * read between chunks.
 */
import { constants } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { hasCode } from './atomicWrite';

/** Why a file was not read: `ELOOP` a symbolic link (when links are refused), `ENOTREG` not a file, `EFBIG` too large. */
export class UnsafeFileError extends Error {
  constructor(
    readonly code: 'ELOOP' | 'ENOTREG' | 'EFBIG',
    readonly path: string,
    readonly maxBytes: number,
  ) {
    super(
      code === 'ELOOP'
        ? `${path} is a symbolic link`
        : code === 'ENOTREG'
          ? `${path} is not a regular file (a folder, a device, a pipe or a socket)`
          : `${path} is larger than ${Math.round(maxBytes / 1024)} KB`,
    );
    this.name = 'UnsafeFileError';
  }
}

interface SafeReadOptions {
  maxBytes: number;
  /** False: a symbolic link is refused (ELOOP) rather than followed. */
  followLinks: boolean;
  signal?: AbortSignal;
}

const CHUNK = 1024 * 1024;

/** The file's bytes, or undefined when it does not exist. Throws UnsafeFileError for anything but a small regular file. */
export async function readRegularFile(file: string, options: SafeReadOptions): Promise<Buffer | undefined> {
  const { maxBytes, signal } = options;
  const handle = await openRegularFile(file, options);
  if (!handle) return undefined;
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      signal?.throwIfAborted();
      const chunk = Buffer.alloc(CHUNK);
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) throw new UnsafeFileError('EFBIG', file, maxBytes);
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks, total);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * The file opened for reading when it is a regular file of at most `maxBytes` (checked before and after opening, so
 * that nothing swapped in between is read), or undefined when it does not exist. The caller closes it.
 */
export async function openRegularFile(file: string, options: SafeReadOptions): Promise<fsp.FileHandle | undefined> {
  const { maxBytes, followLinks, signal } = options;
  signal?.throwIfAborted();
  try {
    const entry = followLinks ? await fsp.stat(file) : await fsp.lstat(file);
    if (entry.isSymbolicLink()) throw new UnsafeFileError('ELOOP', file, maxBytes);
    if (entry.isDirectory()) throw Object.assign(new Error(`EISDIR: ${file} is a folder`), { code: 'EISDIR' });
    if (!entry.isFile()) throw new UnsafeFileError('ENOTREG', file, maxBytes);
    if (entry.size > maxBytes) throw new UnsafeFileError('EFBIG', file, maxBytes);
  } catch (error) {
    if (hasCode(error, 'ENOENT', 'ENOTDIR')) return undefined;
    throw error;
  }
  // O_NONBLOCK: if the path was swapped for a FIFO since the check, opening it does not wait for a writer.
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (followLinks ? 0 : (constants.O_NOFOLLOW ?? 0));
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, flags);
  } catch (error) {
    if (hasCode(error, 'ENOENT', 'ENOTDIR')) return undefined;
    if (hasCode(error, 'ELOOP')) throw new UnsafeFileError('ELOOP', file, maxBytes);
    throw error;
  }
  try {
    if (!(await handle.stat()).isFile()) throw new UnsafeFileError('ENOTREG', file, maxBytes);
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
  return handle;
}
