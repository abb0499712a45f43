/**
 * The segments file beside an export (`<export file>.segments`): the definitions of the segments its strategies use,
 * which a server's export names but leaves out. Not in the export itself: Unleash's import refuses a key it did not
 * write. Written as an export is (canonical, atomic, inside the workspace folder); read back by exportSegmentsFile.ts.
 */
import * as fsp from 'node:fs/promises';
import type { UnleashClient } from '../../api/client';
import type { SegmentDefinition } from '../../api/schemas';
import { replaceFileAtomic } from '../../base/atomicWrite';
import { serializeExportBytes } from './exportBytes';
import { bufferCandidate, compareExisting } from './exportDisk';

/**
 * The definitions of the segments `ids` (name, description, project, constraints), from the server's segment listing
 * (one request); undefined when no segment is used or the client cannot list them.
 */
export async function segmentDefinitionsFor(
  ids: ReadonlySet<number>,
  client: Partial<Pick<UnleashClient, 'listSegments'>>,
  signal?: AbortSignal,
): Promise<SegmentDefinition[] | undefined> {
  if (ids.size === 0 || !client.listSegments) return undefined;
  const all = await client.listSegments({ signal });
  return all.filter((segment) => ids.has(segment.id)).map(({ id, name, description, project, constraints }) => ({ id, name, description, project, constraints }));
}

/** The segments file's bytes: `{ "segmentDefinitions": [...] }`, laid out as an export is (exportLayout.ts). */
export function serializeSegments(definitions: readonly SegmentDefinition[]): Buffer {
  return serializeExportBytes({ segmentDefinitions: definitions });
}

/**
 * Writes the segments file (`bytes`), or removes the one there when the export uses no segment (only a regular
 * file: a link or a folder there is an error, as for the export). True when it changed.
 */
export async function updateSegmentsFile(file: string, bytes: Buffer | undefined, signal: AbortSignal | undefined): Promise<boolean> {
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
