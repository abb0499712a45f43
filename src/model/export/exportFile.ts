/**
 * Reading an export file back (offline mode reads the workspace's, from a cloned repository: hostile input), parsed
 * and checked against the export schema in time slices so that a large file never blocks the editor. The verdict
 * and its message are those of JSON.parse and zod on the whole file.
 */
import * as l10n from '@vscode/l10n';
import type { z } from 'zod';
import { exportResultSchema, type ExportResult } from '../../api/exportSchemas';
import { validate } from '../../api/validate';
import { JsonTooDeepError } from '../../base/jsonBytes';
import { JsonPartError } from '../../base/jsonPartError';
import { parseJsonSliced } from '../../base/slicedJson';
import { TimeSlices } from '../../base/timeSlices';
import { INTAKE_BUDGET } from '../../base/intakeBudget';
import { InvalidExportFileError } from './invalidExportFileError';

/** Levels of nested arrays and objects a file may hold: an export needs about ten. */
export const MAX_EXPORT_DEPTH = INTAKE_BUDGET.depth;

/** `featureStrategies[3].name`: a zod issue's path as messages name fields. */
export function formatIssuePath(issuePath: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of issuePath) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/**
 * Parses an export file written by `serializeExport` (or any export result, as UTF-8 bytes or text), validating it
 * with the export schema. Throws `InvalidExportFileError` naming the first bad field path, e.g.
 * `featureStrategies[3].name`.
 */
export async function parseExportFile(content: Uint8Array | string, slices = new TimeSlices()): Promise<ExportResult> {
  const data = await parseExportJson(content, slices);
  await checkExport(data, slices);
  return data as ExportResult;
}

/** An export file's JSON, depth-bounded; throws `InvalidExportFileError` for anything that is not JSON. */
export async function parseExportJson(content: Uint8Array | string, slices: TimeSlices): Promise<unknown> {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  try {
    return await parseJsonSliced(bytes, { slices, maxDepth: MAX_EXPORT_DEPTH });
  } catch (error) {
    if (error instanceof JsonTooDeepError) {
      throw new InvalidExportFileError(
        l10n.t('The export file nests lists and objects more than {0} levels deep, which no export does. Export the environment again.', MAX_EXPORT_DEPTH),
        '',
      );
    }
    // A syntax error in a large file: JSON.parse's message on the part that fails (parsing it whole would hold it twice).
    if (error instanceof JsonPartError) {
      throw new InvalidExportFileError(l10n.t('The export file is not valid JSON from line {0} on: {1}', error.line, error.detail), '');
    }
    const detail = error instanceof Error ? error.message : String(error);
    throw new InvalidExportFileError(l10n.t('The export file is not valid JSON: {0}', detail), '');
  }
}

/** Checks parsed JSON against the export schema; throws `InvalidExportFileError` naming the first bad field. */
export async function checkExport(data: unknown, slices: TimeSlices): Promise<void> {
  const issue = await firstIssue(data, slices);
  if (issue) {
    const fieldPath = formatIssuePath(issue.path);
    const where = fieldPath === '' ? l10n.t('the top level') : `"${fieldPath}"`;
    throw new InvalidExportFileError(l10n.t('The export file is not a valid Unleash export: {0}: {1}', where, issue.message), fieldPath);
  }
}

/** The schema of one element of a top-level list (`z.array(x)` or `z.array(x).optional()` with no checks), if it is one. */
export function listElement(schema: z.ZodType): z.ZodType | undefined {
  let def = schema.def as { type: string; innerType?: z.ZodType; element?: z.ZodType; checks?: unknown[] };
  if (def.type === 'optional' && def.innerType) def = def.innerType.def as typeof def;
  return def.type === 'array' && !def.checks?.length ? def.element : undefined;
}

/**
 * zod's first issue for the export (or another object `schema`; undefined when valid), found a top-level list element at a time with a yield
 * when a slice is used up. zod checks an object's declared keys in order and a list's elements in order, so the first
 * failing element's first issue is the first issue of the whole. An element zod answered with its copy is replaced.
 */
export async function firstIssue(data: unknown, slices: TimeSlices, schema: z.ZodObject = exportResultSchema): Promise<z.core.$ZodIssue | undefined> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    const parsed = validate(schema, data);
    return parsed.success ? undefined : parsed.error.issues[0];
  }
  const record = data as Record<string, unknown>;
  for (const [key, member] of Object.entries(schema.shape) as Array<[string, z.ZodType]>) {
    const value = record[key];
    const element = listElement(member);
    if (element === undefined || !Array.isArray(value)) {
      const parsed = validate(member, value);
      if (!parsed.success) return at([key], parsed.error.issues[0]);
      continue;
    }
    for (let i = 0; i < value.length; i++) {
      if (slices.due()) await slices.next();
      const parsed = validate(element, value[i]);
      if (!parsed.success) return at([key, i], parsed.error.issues[0]);
      value[i] = parsed.data;
    }
  }
  return undefined;
}

function at(prefix: PropertyKey[], issue: z.core.$ZodIssue | undefined): z.core.$ZodIssue {
  return issue ? { ...issue, path: [...prefix, ...issue.path] } : ({ code: 'custom', message: l10n.t('invalid'), path: prefix } as z.core.$ZodIssue);
}
