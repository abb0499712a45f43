/**
 * A server's large answer as it enters, in the worker: parsed natively within the intake's depth, held to the
 * intake's budget of entries and text (an answer of 64 MB may hold one flag of 200,000 variants), and checked
 * against its schema, so that the host only puts the checked value together (jsonParts.ts).
 */
import * as l10n from '@vscode/l10n';
import { ANSWER_SCHEMAS, type AnswerSchemaName, type LargeAnswer } from '../../api/answerSchemas';

import { validate } from '../../api/validate';
import { INTAKE_BUDGET } from '../../base/intakeBudget';
import { CutLog, cutNested } from '../../base/intakeCuts';
import { parseJsonWithin } from '../../base/jsonWithin';
import { TimeSlices } from '../../base/timeSlices';

export async function takeAnswer(bytes: Uint8Array, schema: AnswerSchemaName | undefined): Promise<LargeAnswer> {
  const body = parseJsonWithin(bytes, INTAKE_BUDGET.depth);
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) await cutNested(body as Record<string, unknown>, TimeSlices.unsliced(), new CutLog());
  if (!schema) return { body };
  const checked = validate(ANSWER_SCHEMAS[schema], body);
  if (checked.success) return { body: checked.data };
  const issue = checked.error.issues[0];
  return { body: null, issue: { path: issue?.path ?? [], message: issue?.message ?? l10n.t('does not match') } };
}
