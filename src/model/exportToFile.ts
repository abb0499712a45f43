/**
 * Exports one environment into a file of the workspace: resolve the path (never outside the folder), ask the server,
 * lay the result out canonically, and replace the file atomically only when its bytes change.
 *
 * Data safety: nothing touches the disk before the whole answer has arrived and parsed; the file is replaced by a
 * rename of a complete temporary file, so a failure or a cancellation at any point leaves the previous file
 * byte-identical; an unchanged export does not write at all. Exports to the same file from this process compare and
 * write one after another, so each sees the file the previous one left and `changed` is accurate.
 *
 * The token never reaches the file: the HTTP layer redacts it from every answer (see src/api/http.ts).
 *
 * Nothing here imports 'vscode'.
 */
import * as l10n from '@vscode/l10n';
import { pluralForm } from './intl';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import type { ExportScope, UnleashClient } from '../api/client';
import type { ExportResult } from '../api/schemas';
import { CancelledError } from '../api/errors';
import { hasCode, replaceFileAtomic, withPathLock } from '../base/atomicWrite';
import { readRegularFile } from '../base/safeRead';
import { exportSummary, serializeExportBytes } from './exportLayout';
import { resolveExportPath } from './exportPath';
import { inertText } from './markdown';
import { formatTag } from './tagInput';

export interface ExportToFileOptions {
  /**
   * Anything that can export (the live client, or a test double). With `listSegments`, the definitions of the
   * segments the export uses are added to the file (`segmentDefinitions`).
   */
  client: Pick<UnleashClient, 'exportFeatures'> & Partial<Pick<UnleashClient, 'listSegments'>>;
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
  /** False when the file already held exactly these bytes (it was not written). */
  changed: boolean;
  /** True when a file was there before. */
  existed: boolean;
  /** The previous content, when the file existed and changed (for a diff). */
  previous?: string;
}

/** The file could not be written (a read-only folder, a full disk, a parent that is a file…). */
export class ExportWriteError extends Error {
  readonly path: string;
  readonly code?: string;
  constructor(file: string, folder: string, cause: unknown) {
    const code = (cause as { code?: unknown } | null)?.code;
    const codeText = typeof code === 'string' ? code : undefined;
    super(l10n.t('Could not write {0}: {1}. The previous file, if any, was left as it was.', displayPath(file, folder), reasonFor(codeText, cause)));
    this.name = 'ExportWriteError';
    this.path = file;
    this.code = codeText;
  }
}

/** What `${project}` and `${scope}` become in the path template for a scope. */
export function scopeNames(scope: ExportScope): { project?: string; scope: string } {
  switch (scope.kind) {
    case 'all':
      return { scope: 'all' };
    case 'project':
      return { project: scope.project, scope: scope.project };
    case 'tag':
      return { scope: formatTag(scope) };
    case 'features':
      return { scope: scope.names.length === 1 ? (scope.names[0] ?? 'selected') : 'selected' };
  }
}

/**
 * The export with the definitions of the segments it uses (name, description, project, constraints) in its own
 * section, `segmentDefinitions`: a server's export names segments but leaves their constraints out, so offline mode
 * could not show them. One request to the segment listing, made only when the export uses segments.
 */
export async function withSegmentDefinitions(
  result: ExportResult,
  client: Partial<Pick<UnleashClient, 'listSegments'>>,
  signal?: AbortSignal,
): Promise<ExportResult> {
  const used = new Set((result.segments ?? []).map((segment) => segment.id));
  for (const strategy of result.featureStrategies) for (const id of strategy.segments ?? []) used.add(id);
  if (used.size === 0 || !client.listSegments) return result;
  const all = await client.listSegments({ signal });
  const definitions = all
    .filter((segment) => used.has(segment.id))
    .map(({ id, name, description, project, constraints }) => ({ id, name, description, project, constraints }));
  return { ...result, segmentDefinitions: definitions };
}

/**
 * An export as a file holds it: the server's answer with the definitions of its segments, laid out canonically
 * (exportLayout.ts). What Export Environment writes, and what Compare Export with Server shows as the server's side.
 */
export async function exportContent(
  client: ExportToFileOptions['client'],
  environment: string,
  scope: ExportScope,
  signal?: AbortSignal,
): Promise<{ result: ExportResult; data: Buffer }> {
  const exported = await client.exportFeatures({ environment, scope }, { signal });
  throwIfCancelled(signal);
  const result = await withSegmentDefinitions(exported, client, signal);
  throwIfCancelled(signal);
  return { result, data: serializeExportBytes(result) };
}

/** Exports `environment` (narrowed by `scope`) into the file the template names inside `folder`. */
export async function exportToFile(options: ExportToFileOptions): Promise<ExportToFileResult> {
  const { client, environment, scope, folder, signal } = options;
  const names = scopeNames(scope);
  // A bad template is refused before the server is asked (and before an audit event is stored there).
  const file = resolveExportPath({ template: options.template ?? '', folder, environment, project: names.project, scope: names.scope });
  throwIfCancelled(signal);

  options.onStep?.('request');
  const { result, data } = await exportContent(client, environment, scope, signal);
  const summary = exportSummary(result);

  options.onStep?.('write');
  // Read, compare and replace under the file's lock, so concurrent exports to one file never interleave.
  const written = withPathLock(file, signal, async () => {
    await checkRealPath(file, folder);
    const before = await read(file, folder, signal);
    const changed = !before || !before.equals(data);
    if (changed) {
      try {
        await replaceFileAtomic(file, data, signal);
      } catch (error) {
        if (signal?.aborted) throw new CancelledError();
        throw new ExportWriteError(file, folder, error);
      }
    }
    return {
      path: file,
      bytes: data.length,
      flags: summary.flags,
      strategies: summary.strategies,
      changed,
      existed: Boolean(before),
      ...(before && changed ? { previous: before.toString('utf8') } : {}),
    };
  });
  return written.catch((error: unknown) => {
    throw signal?.aborted ? new CancelledError() : error;
  });
}

/** `812 B`, `12.4 KB`, `3.1 MB` (binary units, one decimal). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return l10n.t('{0} B', bytes);
  if (bytes < 1024 * 1024) return l10n.t('{0} KB', (bytes / 1024).toFixed(1));
  return l10n.t('{0} MB', (bytes / 1024 / 1024).toFixed(1));
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

/** Largest existing file an export reads to compare and diff (an export of 10,000 flags is about 23 MB). */
export const MAX_EXISTING_EXPORT_BYTES = 128 * 1024 * 1024;

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

/** The file there now: only a regular file is read (never through a link, a FIFO or a device), capped, cancellable. */
async function read(file: string, folder: string, signal: AbortSignal | undefined): Promise<Buffer | undefined> {
  try {
    return await readRegularFile(file, { maxBytes: MAX_EXISTING_EXPORT_BYTES, followLinks: false, signal });
  } catch (error) {
    if (signal?.aborted) throw new CancelledError();
    // EISDIR (the path is a folder), EACCES…: nothing can be written there either.
    throw new ExportWriteError(file, folder, error);
  }
}

function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}


/** The path as the user knows it: relative to the folder, with `/`. */
function displayPath(file: string, folder: string): string {
  const relative = path.relative(folder, file);
  return relative && !relative.startsWith('..') ? relative.split(path.sep).join('/') : file;
}

function reasonFor(code: string | undefined, cause: unknown): string {
  switch (code) {
    case 'ESCAPE':
      return l10n.t('its folder is a link that leads outside the workspace folder; exports stay inside it');
    case 'ELOOP':
      return l10n.t('a symbolic link is there; an export replaces only a regular file (remove the link, or change unleash.export.path)');
    case 'ENOTREG':
      return l10n.t('something other than a regular file is there (a device, a pipe or a socket); remove it, or change unleash.export.path');
    case 'EFBIG':
      return l10n.t('the file there is larger than {0} MB; move it away first', MAX_EXISTING_EXPORT_BYTES / 1024 / 1024);
    case 'ENOTDIR':
    case 'EEXIST':
      return l10n.t('a part of its folder path is a file, not a folder');
    case 'EISDIR':
      return l10n.t('a folder has that name');
    case 'EACCES':
    case 'EPERM':
      return l10n.t('permission denied (is the folder read-only?)');
    case 'EROFS':
      return l10n.t('the file system is read-only');
    case 'ENOSPC':
      return l10n.t('the disk is full');
    case 'EDQUOT':
      return l10n.t('the disk quota is used up');
    case 'ENAMETOOLONG':
      return l10n.t('the path is too long');
    default: {
      const message = cause instanceof Error ? cause.message : String(cause);
      return code ? `${code}: ${message}` : message;
    }
  }
}
