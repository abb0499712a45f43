/**
 * Reading a segments file back (`<export file>.segments`, exportSegments.ts writes it), within the offline budget:
 * parsed in time slices and checked. Apart from the writing, which needs Node's file system, so that the browser
 * build reads it too.
 */
import * as l10n from '@vscode/l10n';
import type { SegmentDefinition } from '../../api/schemas';
import { segmentsFileSchema } from '../../api/exportSchemas';
import { validate } from '../../api/validate';
import { parseJsonSliced } from '../../base/slicedJson';
import { JsonTooDeepError } from '../../base/jsonBytes';
import { JsonPartError } from '../../base/jsonPartError';
import { TimeSlices } from '../../base/timeSlices';
import { formatIssuePath, InvalidExportFileError, MAX_EXPORT_DEPTH } from './exportFile';

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
