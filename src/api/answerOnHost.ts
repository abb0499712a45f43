/**
 * A large answer taken on the extension host's thread when its bytes show the worker would change nothing: the scan
 * made as they arrived (base/jsonScan.ts) finds them within the intake's budget, so nothing in them would be cut,
 * and few enough values to hold here; they are then parsed natively in batches (base/batchedJson.ts), between which
 * the thread is free, and checked against their schema at once. Anything else is left to the worker, whose cuts,
 * verdicts and errors are the ones reported: an answer past a budget or these bounds, one that is not valid JSON, or
 * one the schema's check does not accept as it is. The worker's parse, check and reply took three times the time of
 * a native parse (bench/README.md, "This round (2026-11-28)").
 */
import { parseInBatches } from '../base/batchedJson';
import { INTAKE_BUDGET } from '../base/intakeBudget';
import type { JsonShape } from '../base/jsonScan';
import type { TimeSlices } from '../base/timeSlices';
import { ANSWER_SCHEMAS, type AnswerSchemaName } from './answerSchemas';
import { acceptsAsIs, listEntrySchema } from './validate';

/**
 * What an answer taken here may hold: bytes, values (what its objects, lists and strings cost the host's heap: about
 * 100 MB at most), and the most bytes of one piece parsed whole (about 5 ms on a 2-core machine).
 */
export const HOST_ANSWER = { bytes: 16 * 1024 * 1024, values: 2_500_000, pieceBytes: 1024 * 1024 } as const;

/** Whether nothing in the shape is past the intake's budget (the worker would cut nothing) or the bounds above. */
export function fitsHost(shape: JsonShape, byteLength: number): boolean {
  return (
    byteLength <= HOST_ANSWER.bytes &&
    shape.values <= HOST_ANSWER.values &&
    shape.widestPiece <= HOST_ANSWER.pieceBytes &&
    shape.depth <= INTAKE_BUDGET.depth &&
    shape.largestList <= INTAKE_BUDGET.rowsPerList &&
    shape.largestObject <= INTAKE_BUDGET.entriesPerObject &&
    shape.longestText <= INTAKE_BUDGET.textChars
  );
}

/**
 * The answer, parsed and checked here; undefined when the worker is to take it. A large list member's entries are
 * checked a batch at a time as they are parsed (at once, the check of 2.5 million values would hold the thread for
 * 65 ms), the rest of the answer once they are; a large member that is not a plain list of its schema is the worker's.
 */
export async function takeOnHost(bytes: Uint8Array, shape: JsonShape, schema: AnswerSchemaName | undefined, slices: TimeSlices): Promise<{ body: unknown } | undefined> {
  if (!fitsHost(shape, bytes.length)) return undefined;
  const root = schema ? ANSWER_SCHEMAS[schema] : undefined;
  const checked = new Set<string>();
  let accepted = true;
  const eachBatch = (key: string, entries: unknown[] | undefined) => {
    const entry = root && listEntrySchema(root, key);
    checked.add(key);
    if (root) accepted &&= entry !== undefined && entries !== undefined && entries.every((value) => acceptsAsIs(entry, value));
  };
  let body: Record<string, unknown>;
  try {
    body = await parseInBatches(bytes, shape.bounds, slices, { eachBatch });
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
  if (!root) return { body };
  // The lists checked entry by entry stand empty for the check of the rest.
  const rest = { ...body };
  for (const key of checked) rest[key] = [];
  return accepted && acceptsAsIs(root, rest) ? { body } : undefined;
}
