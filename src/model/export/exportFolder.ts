/**
 * An export stays inside its workspace folder on disk, not only as text (a repository can ship `.unleash` as a link
 * to `../outside`), a failed export leaves no folder it made behind, and a file-system failure says so as an
 * ExportWriteError.
 */
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { hasCode } from '../../base/atomicWrite';
import { displayPath } from './exportPath';
import { ExportWriteError } from './exportWriteError';

/** Throws ExportWriteError unless the target's nearest existing ancestor, resolved with realpath, is inside `folder`. */
export async function checkRealPath(file: string, folder: string): Promise<void> {
  let realFolder: string;
  try {
    realFolder = await fsp.realpath(folder);
  } catch (error) {
    throw new ExportWriteError(file, displayPath(file, folder), error);
  }
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    let real: string;
    try {
      real = await fsp.realpath(dir);
    } catch (error) {
      if (hasCode(error, 'ENOENT', 'ENOTDIR') && path.dirname(dir) !== dir) continue;
      throw new ExportWriteError(file, displayPath(file, folder), error);
    }
    const relative = path.relative(realFolder, real);
    if (relative === '' || (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative))) return;
    throw new ExportWriteError(file, displayPath(file, folder), Object.assign(new Error(`${dir} leads to ${real}`), { code: 'ESCAPE' }));
  }
}

/** Removes `from` and its parents up to `upTo` (included) while they are empty. */
export async function removeEmptyFolders(from: string, upTo: string): Promise<void> {
  for (let dir = from; dir.startsWith(upTo); dir = path.dirname(dir)) {
    if (!(await fsp.rmdir(dir).then(() => true, () => false))) return;
    if (dir === upTo) return;
  }
}

/** Runs a step on disk, turning a file-system failure into ExportWriteError (the previous file is left as it was). */
export async function onDisk<T>(file: string, folder: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ExportWriteError || !hasFsCode(error)) throw error;
    throw new ExportWriteError(file, displayPath(file, folder), error);
  }
}

/** An error of the file system (it carries a code such as ENOSPC, EACCES, ELOOP), not of the export itself. */
function hasFsCode(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code);
}
