/**
 * Exports one environment into a file of the workspace: resolve the path (never outside the folder), stream the
 * server's answer into a temporary file beside the target (checked as it arrives, within the export budget), lay it
 * out canonically from there, and replace the file atomically only when its bytes change. The definitions of the
 * segments the export uses go to a file beside it (exportSegments.ts). No step holds the whole export: memory grows
 * with the number of rows (their place and sort keys), not with their size (exportStream.ts).
 *
 * Data safety: the previous file is only ever replaced by a rename of a complete, flushed temporary file, so a failure
 * or a cancellation at any point (an answer over the budget, a broken connection, a full disk) leaves it
 * byte-identical, and every temporary file is removed; an unchanged export does not write at all. Exports to the
 * same file from this process compare and write one after another, so each sees the file the previous one left and
 * `changed` is accurate. The segments file is replaced just before the export (each atomically).
 *
 * The token never reaches the file: the HTTP layer removes it from the answer as it streams (src/api/http.ts).
 *
 * Nothing here imports 'vscode'.
 */
import * as l10n from '@vscode/l10n';
import { pluralForm } from '../text/intl';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { type UnleashClient } from '../../api/client';
import { onlyTagged, type ExportQuery, type ExportScope } from '../../api/exportQuery';
import type { ExportResult } from '../../api/exportSchemas';
import { AnswerTooLargeError, CancelledError } from '../../api/errors';
import { hasCode, replaceFileAtomic, replaceWithTemp, withPathLock } from '../../base/atomicWrite';
import { DEFAULT_EXPORT_MAX_BYTES, EXPORT_MEASURE_BYTES, exportTooLarge, exportTooManyRows, formatSize, maxExportRows, type ListedFlag } from './exportBudget';
import { BlockOut, bufferCandidate, compareExisting, fileCandidate, TempFiles } from './exportDisk';
import { serializeExportBytes } from './exportLayout';
import { ExportPathError, resolveExportPath, scopeNames } from './exportPath';
import { displayPath, ExportWriteError } from './exportWriteError';
import { segmentDefinitionsFor, serializeSegments } from './exportSegments';
import { segmentsPathFor, SEGMENTS_SUFFIX } from './exportSegmentsPath';
import { EXPORT_REQUEST, ExportIndex, TooManyRowsError, writeLaidOut } from './exportStream';
import { inertText } from '../text/markdown';
import { formatTag } from '../tags/tagInput';

export { formatSize } from './exportBudget';

/** What can export: the live client (streams the answer), or anything that answers an export whole (tests). */
export type ExportClient = (Pick<UnleashClient, 'streamExport'> | Pick<UnleashClient, 'exportFeatures'>) & Partial<Pick<UnleashClient, 'listSegments'>>;

export interface ExportToFileOptions {
  /**
   * Anything that can export (the live client, or a test double). With `listSegments`, the definitions of the
   * segments the export uses are written beside the file (`<file>.segments`).
   */
  client: ExportClient;
  environment: string;
  scope: ExportScope;
  /** Absolute path of the folder the file must stay inside (a workspace folder). */
  folder: string;
  /** The `unleash.export.path` value; empty or absent means `.unleash/${environment}.json`. */
  template?: string;
  /** Aborting stops the request or the write; the previous file stays as it was. */
  signal?: AbortSignal;
  /** Told when the request starts and when the answer is being written, for a progress notification. */
  onStep?: (step: 'request' | 'write') => void;
  /** Most bytes of the server's answer (`unleash.export.maxMegabytes`; default DEFAULT_EXPORT_MAX_BYTES). */
  maxBytes?: number;
  /** The flags the Flags view lists: what an answer over the budget is measured against to name the scopes that fit. */
  flags?: readonly ListedFlag[];
}

export interface ExportToFileResult {
  /** Absolute path of the file. */
  path: string;
  /** Size of the file's content, in bytes (UTF-8). */
  bytes: number;
  /** Flags in the export (`features`). */
  flags: number;
  /** Strategies in the export (`featureStrategies`). */
  strategies: number;
  /** False when the file (and its segments file) already held exactly these bytes (nothing was written). */
  changed: boolean;
  /** True when a file was there before. */
  existed: boolean;
  /** The previous content, when the file existed and changed and is at most MAX_DIFF_BYTES (for a diff). */
  previous?: string;
  /** Absolute path of the segments file, when the export uses segments (and the client could list them). */
  segmentsPath?: string;
}


/**
 * An export as the file holds it, in memory: the server's answer laid out canonically (exportLayout.ts), without the
 * segment definitions (they go to the segments file beside it). What Compare Export with Server shows as the server's
 * side; Export Environment streams the same bytes to the file.
 */
export async function exportContent(
  client: Pick<UnleashClient, 'exportFeatures'>,
  environment: string,
  scope: ExportScope,
  signal?: AbortSignal,
): Promise<{ result: ExportResult; data: Buffer }> {
  const result = await client.exportFeatures({ environment, scope }, { signal });
  throwIfCancelled(signal);
  return { result, data: serializeExportBytes(result) };
}

/** Exports `environment` (narrowed by `scope`) into the file the template names inside `folder`. */
export async function exportToFile(options: ExportToFileOptions): Promise<ExportToFileResult> {
  const { client, environment, scope, folder, signal } = options;
  const names = scopeNames(scope);
  // A bad template is refused before the server is asked (and before an audit event is stored there).
  const file = resolveExportPath({ template: options.template ?? '', folder, environment, project: names.project, scope: names.scope });
  if (file.endsWith(SEGMENTS_SUFFIX)) {
    throw new ExportPathError(l10n.t('The export path {0} ends in {1}, the name of the segments file beside an export. Choose a path ending in .json.', displayPath(file, folder), SEGMENTS_SUFFIX));
  }
  throwIfCancelled(signal);
  // The temporary files go beside the target: its folder must be inside `folder` on disk before anything is made there.
  await checkRealPath(file, folder);
  const created = await onDisk(file, folder, () => fsp.mkdir(path.dirname(file), { recursive: true }));
  const temps = new TempFiles(file);
  const maxBytes = options.maxBytes ?? DEFAULT_EXPORT_MAX_BYTES;
  try {
    await checkRealPath(file, folder);
    options.onStep?.('request');
    const answer = await download(options, { environment, scope }, temps, file, maxBytes);
    const definitions = await segmentDefinitionsFor(answer.index.segmentIds, client, signal);
    throwIfCancelled(signal);

    options.onStep?.('write');
    const laidOut = await onDisk(file, folder, () => temps.create());
    const bytes = await onDisk(file, folder, () => writeLaidOut(answer.index, answer.handle, laidOut.handle, { signal }));
    await temps.remove(answer.path);
    const segments = definitions ? serializeSegments(definitions) : undefined;
    const segmentsPath = segmentsPathFor(file);

    // Compare and replace under the file's lock, so concurrent exports to one file never interleave.
    return await withPathLock(file, signal, async () => {
      await checkRealPath(file, folder);
      const before = await onDisk(file, folder, () => compareExisting(file, fileCandidate(laidOut.handle, bytes), MAX_DIFF_BYTES, signal));
      await onDisk(file, folder, () => temps.close(laidOut.path));
      const segmentsChanged = await onDisk(segmentsPath, folder, () => updateSegmentsFile(segmentsPath, segments, signal));
      if (!before.same) {
        throwIfCancelled(signal);
        await onDisk(file, folder, () => replaceWithTemp(file, laidOut.path));
        temps.keep(laidOut.path);
      }
      return {
        path: file,
        bytes,
        flags: answer.index.count('features'),
        strategies: answer.index.count('featureStrategies'),
        changed: !before.same || segmentsChanged,
        existed: before.existed,
        ...(before.previous !== undefined ? { previous: before.previous } : {}),
        ...(segments ? { segmentsPath } : {}),
      };
    });
  } catch (error) {
    if (signal?.aborted) throw new CancelledError();
    if (error instanceof AnswerTooLargeError) throw exportTooLarge(error, { environment, scope, flags: options.flags });
    if (error instanceof TooManyRowsError) throw exportTooManyRows(error.maxRows, { environment, scope, flags: options.flags });
    throw error;
  } finally {
    await temps.removeAll();
    // A failed export leaves no trace: the folders it made for the file go again (when nothing else was put there).
    if (created) await removeEmptyFolders(path.dirname(file), created);
  }
}

/** Removes `from` and its parents up to `upTo` (included) while they are empty. */
async function removeEmptyFolders(from: string, upTo: string): Promise<void> {
  for (let dir = from; dir.startsWith(upTo); dir = path.dirname(dir)) {
    if (!(await fsp.rmdir(dir).then(() => true, () => false))) return;
    if (dir === upTo) return;
  }
}

/** Largest previous file whose text the result carries for a diff (larger ones are compared, not held). */
export const MAX_DIFF_BYTES = 32 * 1024 * 1024;

/** The server's answer in a temporary file, and what it holds (checked as it arrived). */
interface Answer {
  path: string;
  handle: fsp.FileHandle;
  index: ExportIndex;
}

/**
 * Streams the export of `query` into a temporary file, indexing it as it arrives. For a tag scope, when the server
 * brought in flags carrying the tag's value under another type, asks again for exactly the flags carrying it.
 */
async function download(options: ExportToFileOptions, query: ExportQuery, temps: TempFiles, file: string, maxBytes: number): Promise<Answer> {
  const { signal } = options;
  const answer = await streamOnce(options, query, temps, file, maxBytes);
  if (query.scope.kind !== 'tag' || !('streamExport' in options.client)) return answer;
  const features = answer.index.sortKeys('features').map((keys) => String(keys[0]));
  const rows = answer.index.sortKeys('featureTags').map((keys) => ({ featureName: String(keys[0]), type: keys[1] as string | undefined, value: String(keys[2]) }));
  const names = onlyTagged(query.scope, features, rows);
  if (!names) return answer;
  await temps.remove(answer.path);
  throwIfCancelled(signal);
  return streamOnce(options, { environment: query.environment, scope: { kind: 'features', names } }, temps, file, maxBytes);
}

async function streamOnce(options: ExportToFileOptions, query: ExportQuery, temps: TempFiles, file: string, maxBytes: number): Promise<Answer> {
  const { client, signal, folder } = options;
  // The answer as it came: only its owner may read it (it is removed at the end either way).
  const temp = await onDisk(file, folder, () => temps.create(0o600));
  const index = new ExportIndex(maxExportRows(maxBytes));
  const out = new BlockOut(temp.handle);
  const onBytes = async (bytes: Buffer): Promise<void> => {
    index.push(bytes);
    await onDisk(file, folder, () => out.write(bytes));
  };
  const call = { signal, maxBytes, measureUpTo: EXPORT_MEASURE_BYTES };
  if ('streamExport' in client) {
    await client.streamExport(query, onBytes, call);
  } else {
    // A client that answers whole (a test double): the same checks and layout, from its answer as JSON.
    const whole = Buffer.from(JSON.stringify(await client.exportFeatures(query, { signal })), 'utf8');
    if (whole.length > maxBytes) throw new AnswerTooLargeError(EXPORT_REQUEST, whole.length, true, maxBytes);
    await onBytes(whole);
  }
  await onDisk(file, folder, () => out.flush());
  index.finish();
  throwIfCancelled(signal);
  return { path: temp.path, handle: temp.handle, index };
}

/**
 * Writes the segments file (`bytes`), or removes the one there when the export uses no segment (only a regular
 * file: a link or a folder there is an error, as for the export). True when it changed.
 */
async function updateSegmentsFile(file: string, bytes: Buffer | undefined, signal: AbortSignal | undefined): Promise<boolean> {
  const before = await compareExisting(file, bufferCandidate(bytes ?? Buffer.alloc(0)), 0, signal);
  if (bytes) {
    if (before.same) return false;
    await replaceFileAtomic(file, bytes, signal);
    return true;
  }
  if (!before.existed) return false;
  await fsp.rm(file);
  return true;
}

/** Runs a step on disk, turning a file-system failure into ExportWriteError (the previous file is left as it was). */
async function onDisk<T>(file: string, folder: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ExportWriteError || !hasFsCode(error)) throw error;
    throw new ExportWriteError(file, folder, error);
  }
}

/** An error of the file system (it carries a code such as ENOSPC, EACCES, ELOOP), not of the export itself. */
function hasFsCode(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code);
}

/** `Exported 7 flags of project checkout (12.4 KB) from development to .unleash/development.checkout.json`. */
function exportedHead(flags: string, scope: ExportScope, size: string, environment: string, shownPath: string): string {
  switch (scope.kind) {
    case 'project':
      return l10n.t('Exported {0} of project {1} ({2}) from {3} to {4}', flags, scope.project, size, environment, shownPath);
    case 'tag':
      return l10n.t('Exported {0} tagged {1} ({2}) from {3} to {4}', flags, formatTag(scope), size, environment, shownPath);
    case 'all':
    case 'features':
      return l10n.t('Exported {0} ({1}) from {2} to {3}', flags, size, environment, shownPath);
  }
}

/**
 * The result message, e.g. `Exported 7 flags (12.4 KB) from development to .unleash/development.json.`, saying
 * plainly whether the file is new, changed or unchanged. `shownPath` is the path as the user knows it. Names from the
 * server (environment, project, tag) cannot form a link in the notification (see `inertText`).
 */
export function exportMessage(result: ExportToFileResult, environment: string, scope: ExportScope, shownPath: string): string {
  const n = result.flags;
  const flags =
    scope.kind === 'features'
      ? pluralForm(n, { one: l10n.t('{0} chosen flag', n), other: l10n.t('{0} chosen flags', n) })
      : pluralForm(n, { one: l10n.t('{0} flag', n), other: l10n.t('{0} flags', n) });
  const head = inertText(exportedHead(flags, scope, formatSize(result.bytes), environment, shownPath));
  if (!result.changed) return l10n.t('{0}: unchanged since the last export.', head);
  if (result.existed) return l10n.t('{0}; it changed since the last export.', head);
  return l10n.t('{0}.', head);
}

/**
 * The target's folder must be inside `folder` on disk, not only as text: a repository can ship `.unleash` as a link
 * to `../outside`. The nearest existing ancestor of the target is resolved with realpath and compared.
 */
async function checkRealPath(file: string, folder: string): Promise<void> {
  let realFolder: string;
  try {
    realFolder = await fsp.realpath(folder);
  } catch (error) {
    throw new ExportWriteError(file, folder, error);
  }
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    let real: string;
    try {
      real = await fsp.realpath(dir);
    } catch (error) {
      if (hasCode(error, 'ENOENT', 'ENOTDIR') && path.dirname(dir) !== dir) continue;
      throw new ExportWriteError(file, folder, error);
    }
    const relative = path.relative(realFolder, real);
    if (relative === '' || (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative))) return;
    throw new ExportWriteError(file, folder, Object.assign(new Error(`${dir} leads to ${real}`), { code: 'ESCAPE' }));
  }
}

function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}


/** The path as the user knows it: relative to the folder, with `/`. */
