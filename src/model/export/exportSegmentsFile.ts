/**
 * Reading a segments file back (`<export file>.segments`, exportSegments.ts writes it) as it enters: parsed, held to
 * the intake budget and checked a definition at a time. Apart from the writing, which needs Node's file system, so
 * that the browser build reads it too.
 */
import * as l10n from '@vscode/l10n';
import type { SegmentDefinition } from '../../api/schemas';
import { segmentsFileSchema } from '../../api/exportSchemas';
import { parseJsonSliced } from '../../base/slicedJson';
import { JsonTooDeepError } from '../../base/jsonBytes';
import { JsonPartError } from '../../base/jsonPartError';
import { INTAKE_BUDGET } from '../../base/intakeBudget';
import { CutLog, cutList, cutNested, type IntakeCut } from '../../base/intakeCuts';
import { TimeSlices } from '../../base/timeSlices';
import { firstIssue, formatIssuePath, MAX_EXPORT_DEPTH } from './exportFile';
import { InvalidExportFileError } from './invalidExportFileError';

/** The definitions a segments file holds within the budget, and what was cut to keep them there. */
export interface SegmentsIntake {
  definitions: SegmentDefinition[];
  cuts: IntakeCut[];
  cutCount: number;
}

/** Reads a segments file's bytes; throws InvalidExportFileError (naming the first bad field) for anything else. */
export async function takeSegments(bytes: Uint8Array, slices: TimeSlices): Promise<SegmentsIntake> {
  let data: unknown;
  try {
    data = await parseJsonSliced(bytes, { slices, maxDepth: MAX_EXPORT_DEPTH });
  } catch (error) {
    const detail = error instanceof JsonTooDeepError ? error.message : error instanceof JsonPartError ? error.detail : (error as Error).message;
    throw new InvalidExportFileError(l10n.t('The segments file is not valid JSON: {0}', detail), '');
  }
  const log = new CutLog();
  const list = (data as { segmentDefinitions?: unknown } | null)?.segmentDefinitions;
  if (Array.isArray(list)) cutList(list, 'segmentDefinitions', INTAKE_BUDGET.rowsPerList, log);
  const issue = await firstIssue(data, slices, segmentsFileSchema);
  if (issue) {
    const fieldPath = formatIssuePath(issue.path);
    throw new InvalidExportFileError(l10n.t('The segments file is not valid: {0}: {1}', fieldPath || l10n.t('the top level'), issue.message), fieldPath);
  }
  await cutNested(data as Record<string, unknown>, slices, log);
  return { definitions: (data as { segmentDefinitions: SegmentDefinition[] }).segmentDefinitions, cuts: log.cuts, cutCount: log.count };
}
