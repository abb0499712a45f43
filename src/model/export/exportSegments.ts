/**
 * The segments file beside an export: what offline mode needs beyond the export itself, the definitions of the
 * segments its strategies use (a server's export names segments but leaves their constraints out). They used to be a
 * `segmentDefinitions` section of the export, which Unleash's import refuses (it allows no key it did not write), so
 * the export stays exactly what Unleash's validate and import endpoints accept, and the definitions go beside it.
 *
 * Named `<export file>.segments` (`.unleash/development.json.segments`): it does not end in `.json`, so offline
 * mode's discovery (`.unleash/*.json`) never takes it for an export, whatever the export is named; and each export
 * has exactly one, whose name no export path can be (an export path ending in `.segments` is refused).
 * Written as an export is (canonical, atomic, inside the workspace folder), read within the offline budget.
 *
 * Nothing here imports 'vscode'.
 */
import * as l10n from '@vscode/l10n';
import type { UnleashClient } from '../../api/client';
import { type SegmentDefinition } from '../../api/schemas';
import { segmentsFileSchema } from '../../api/exportSchemas';
import { validate } from '../../api/validate';
import { JsonTooDeepError } from '../../base/jsonBytes';
import { JsonPartError } from '../../base/jsonPartError';
import { parseJsonSliced } from '../../base/slicedJson';
import { TimeSlices } from '../../base/timeSlices';
import { serializeExportBytes } from './exportLayout';
import { formatIssuePath, InvalidExportFileError, MAX_EXPORT_DEPTH } from './exportFile';

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

/** The definitions a segments file holds; throws InvalidExportFileError (naming the first bad field) for anything else. */
export async function parseSegmentsFile(bytes: Uint8Array, slices = new TimeSlices()): Promise<SegmentDefinition[]> {
  let data: unknown;
  try {
    data = await parseJsonSliced(bytes, { slices, maxDepth: MAX_EXPORT_DEPTH });
  } catch (error) {
    const detail = error instanceof JsonTooDeepError ? error.message : error instanceof JsonPartError ? error.detail : (error as Error).message;
    throw new InvalidExportFileError(l10n.t('The segments file is not valid JSON: {0}', detail), '');
  }
  const parsed = validate(segmentsFileSchema, data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const fieldPath = formatIssuePath(issue?.path ?? []);
    throw new InvalidExportFileError(l10n.t('The segments file is not valid: {0}: {1}', fieldPath || l10n.t('the top level'), issue?.message ?? l10n.t('invalid')), fieldPath);
  }
  return parsed.data.segmentDefinitions;
}
