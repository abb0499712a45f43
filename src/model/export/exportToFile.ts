/**
 * Exports one environment into a file of the workspace: the server's answer streams into a temporary file beside the
 * target (checked as it arrives, within the export budget), is laid out canonically from there, and replaces the file
 * atomically only when its bytes change. No step holds the whole export, so a failure or a cancellation at any point
 * leaves the previous file byte-identical; exports to one file from this process run one after another.
 */
import * as l10n from '@vscode/l10n';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import type { UnleashClient } from '../../api/client';
import { onlyTagged, type ExportQuery, type ExportScope } from '../../api/exportQuery';
import type { ExportResult } from '../../api/exportSchemas';
import { AnswerTooLargeError, CancelledError } from '../../api/errors';
import { removeLeftoverTemps, replaceWithTemp, withPathLock } from '../../base/atomicWrite';
import { TimeSlices } from '../../base/timeSlices';
import { DEFAULT_EXPORT_MAX_BYTES, EXPORT_MEASURE_BYTES, exportTooLarge, exportTooManyRows, maxExportRows, type ListedFlag } from './exportBudget';
import { serializeExportBytes } from './exportBytes';
import { BlockOut, compareExisting, fileCandidate, TempFiles } from './exportDisk';
import { checkRealPath, onDisk, removeEmptyFolders } from './exportFolder';
import { EXPORT_REQUEST, ExportIndex, TooManyRowsError } from './exportIndex';
import { displayPath, resolveExportPath, scopeNames } from './exportPath';
import { ExportPathError } from './exportPathError';
import { segmentDefinitionsFor, serializeSegments, updateSegmentsFile } from './exportSegments';
import { segmentsPathFor, SEGMENTS_SUFFIX } from './exportSegmentsPath';
import { writeLaidOut } from './exportStream';

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
  /** Temporary files that earlier exports killed part-way had left beside the file, removed by this one. */
  leftoversRemoved: number;
}

/**
 * How old a temporary file of the extension's own naming must be before an export removes it as a leftover: an
 * export in progress (in this window or another) has its answer within INTAKE_BUDGET.exportMs (ten minutes) and
 * writes its files as it goes, so an hour without a write is one that will never finish.
 */
const LEFTOVER_AGE_MS = 60 * 60_000;

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
    // What an earlier export killed part-way left here goes now; failing to remove it never fails this one.
    const leftovers = await removeLeftoverTemps(path.dirname(file), LEFTOVER_AGE_MS).catch(() => []);
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
      // The segments file is replaced just before the export (each atomically).
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
        leftoversRemoved: leftovers.length,
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

/** Largest previous file whose text the result carries for a diff (larger ones are compared, not held). */
const MAX_DIFF_BYTES = 32 * 1024 * 1024;

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

/** One answer into a temporary file. The token never reaches it: the HTTP layer removes it as the answer streams. */
async function streamOnce(options: ExportToFileOptions, query: ExportQuery, temps: TempFiles, file: string, maxBytes: number): Promise<Answer> {
  const { client, signal, folder } = options;
  // The answer as it came: only its owner may read it (it is removed at the end either way).
  const temp = await onDisk(file, folder, () => temps.create(0o600));
  const index = new ExportIndex(maxExportRows(maxBytes));
  const out = new BlockOut(temp.handle);
  // Pieces already received follow one another without a turn of the event loop: it gets one between slices.
  const slices = new TimeSlices();
  const onBytes = async (bytes: Buffer): Promise<void> => {
    if (slices.due()) await slices.next();
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

function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}
