/**
 * Crash-safe file writes: the data goes to a temporary file in the target's own folder, is flushed to disk and then
 * renamed over the target, so a reader (git, an editor, the offline mode) sees either the old file or the new one,
 * never half of one. Writes to the same path from this process are queued, never interleaved.
 */
import { randomBytes } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';

interface WriteFileAtomicOptions {
  /** Aborting before the rename leaves the target untouched and removes the temporary file. */
  signal?: AbortSignal;
}

/** The tail of each path's queue; a write starts once the previous write to the same path has settled. */
const queues = new Map<string, Promise<void>>();

/** Longest part of the target's name reused in the temporary file's name (keeps it under 255 bytes). */
const MAX_TEMP_STEM = 100;

/** Rename retries on Windows, where a scanner or watcher holding the target briefly makes rename fail. */
const RENAME_RETRIES = 5;

/** True when `error` carries one of `codes` (`ENOENT`, `EPERM`…), as Node's file errors do. */
export function hasCode(error: unknown, ...codes: string[]): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && codes.includes(code);
}

/** Resolves when `promise` settles, or rejects with the abort reason as soon as `signal` aborts. */
function waitTurn(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

/** A unique name in the same folder: `.<name>.<pid>.<random>.tmp`. */
export function tempPathFor(target: string): string {
  const stem = path.basename(target).slice(0, MAX_TEMP_STEM);
  return path.join(path.dirname(target), `.${stem}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/** The names `tempPathFor` gives, and only those: `.<name>.<pid>.<12 hex digits>.tmp`. */
const TEMP_NAME = /^\..+\.\d+\.[0-9a-f]{12}\.tmp$/;

/** Entries of a folder looked at for leftovers (a folder of more is looked at in part). */
const MAX_ENTRIES_LOOKED_AT = 10_000;

/**
 * Removes the temporary files a write killed part-way left in `folder` (a crash, a closed window): regular files
 * named as `tempPathFor` names them, last written more than `olderThanMs` ago, so that a write in progress (in this
 * window or another, which writes as it goes) is never touched. Only `folder` itself, never a link or a sub-folder.
 * Answers the names removed; a name that cannot be removed is left (it is looked at again next time).
 */
export async function removeLeftoverTemps(folder: string, olderThanMs: number, now = Date.now()): Promise<string[]> {
  let entries: Awaited<ReturnType<typeof fsp.opendir>>;
  try {
    entries = await fsp.opendir(folder);
  } catch (error) {
    if (hasCode(error, 'ENOENT', 'ENOTDIR')) return [];
    throw error;
  }
  const removed: string[] = [];
  let looked = 0;
  try {
    for await (const entry of entries) {
      if (++looked > MAX_ENTRIES_LOOKED_AT) break;
      if (!entry.isFile() || !TEMP_NAME.test(entry.name)) continue;
      const file = path.join(folder, entry.name);
      try {
        const stat = await fsp.lstat(file);
        if (!stat.isFile() || now - stat.mtimeMs <= olderThanMs) continue;
        await fsp.rm(file);
        removed.push(entry.name);
      } catch {
        // Gone meanwhile, or not ours to remove: left as it is.
      }
    }
  } finally {
    // Breaking out of the loop closes the folder; an error thrown by the listing leaves it to be closed here.
    await entries.close().catch(() => undefined);
  }
  return removed;
}

async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await fsp.rename(from, to);
      return;
    } catch (error) {
      const transient = process.platform === 'win32' && hasCode(error, 'EPERM', 'EACCES', 'EBUSY');
      if (!transient || attempt >= RENAME_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
    }
  }
}

/** Flushes a folder's entry list so the rename itself survives a crash; not possible everywhere, so best-effort. */
async function syncFolder(folder: string): Promise<void> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(folder, 'r');
    await handle.sync();
  } catch {
    // Windows cannot open a folder; some file systems refuse to fsync one. The data itself is already flushed.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

async function writeNow(target: string, data: string | Uint8Array, signal: AbortSignal | undefined): Promise<void> {
  signal?.throwIfAborted();
  const folder = path.dirname(target);
  await fsp.mkdir(folder, { recursive: true });
  signal?.throwIfAborted();

  // Keep the permissions of a file being replaced (e.g. one a user made read-only for the group).
  let mode: number | undefined;
  try {
    mode = (await fsp.stat(target)).mode & 0o7777;
  } catch (error) {
    if (!hasCode(error, 'ENOENT')) throw error;
  }

  const temp = tempPathFor(target);
  let handle: fsp.FileHandle | undefined;
  let created = false;
  try {
    handle = await fsp.open(temp, 'wx', mode ?? 0o666);
    created = true;
    if (mode !== undefined) await handle.chmod(mode).catch(() => undefined);
    await handle.writeFile(data, signal ? { signal } : {});
    await handle.sync();
    const closing = handle;
    handle = undefined;
    await closing.close();
    signal?.throwIfAborted();
    await renameWithRetry(temp, target);
    created = false;
  } catch (error) {
    await handle?.close().catch(() => undefined);
    if (created) await fsp.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncFolder(folder);
}

/**
 * Runs `work` once every earlier `withPathLock` on the same path in this process has settled, so that steps on one
 * file (read, compare, replace) never interleave. A caller cancelled while waiting for its turn rejects at once,
 * without letting the next one overtake the step still running before it.
 */
export async function withPathLock<T>(file: string, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
  signal?.throwIfAborted();
  const key = path.resolve(file);
  const previous = queues.get(key) ?? Promise.resolve();
  let release!: () => void;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => done);
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  try {
    await waitTurn(previous, signal);
    return await work();
  } finally {
    release();
  }
}

/**
 * Replaces `target` atomically, without taking the path's lock (for callers that hold it): creates the parent
 * folder, writes a temporary file beside the target (`.<name>.<pid>.<random>.tmp`), fsyncs it and renames it over
 * the target. On any failure, or when `signal` aborts before the rename, the temporary file is removed and an
 * existing target is left exactly as it was.
 */
export function replaceFileAtomic(target: string, data: string | Uint8Array, signal?: AbortSignal): Promise<void> {
  return writeNow(path.resolve(target), data, signal);
}

/**
 * Replaces `target` with `temp`, a complete file the caller wrote beside it (`tempPathFor`), without taking the
 * path's lock (for callers that hold it): flushes `temp` to disk, gives it the permissions of the file it replaces,
 * renames it over the target and flushes the folder. On failure the target is as it was; `temp` is the caller's to
 * remove.
 */
export async function replaceWithTemp(target: string, temp: string): Promise<void> {
  let mode: number | undefined;
  try {
    mode = (await fsp.stat(target)).mode & 0o7777;
  } catch (error) {
    if (!hasCode(error, 'ENOENT')) throw error;
  }
  const handle = await fsp.open(temp, 'r+');
  try {
    if (mode !== undefined) await handle.chmod(mode).catch(() => undefined);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await renameWithRetry(temp, target);
  await syncFolder(path.dirname(target));
}

/** `replaceFileAtomic` under the path's lock: writes to the same path run one after another, in call order. */
export function writeFileAtomic(target: string, data: string | Uint8Array, options?: WriteFileAtomicOptions): Promise<void> {
  return withPathLock(target, options?.signal, () => replaceFileAtomic(target, data, options?.signal));
}
