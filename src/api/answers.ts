/** An answer checked against its zod schema (validate.ts): the typed value, or a SchemaError naming the first field that did not match. */
import * as l10n from '@vscode/l10n';
import type { z } from 'zod';
import { ANSWER_SCHEMAS } from './answerSchemas';
import { SchemaError } from './errors';
import type { JsonResponse } from './httpOptions';
import { validate } from './validate';

/** The answer's body as `schema` types it; a mismatch is a SchemaError. */
export function parseAnswer<S extends z.ZodType>(schema: S, response: JsonResponse, request: string): z.infer<S> {
  const checked = response.checked;
  // A large answer was checked where it was parsed (a worker): its verdict stands.
  if (checked && (ANSWER_SCHEMAS[checked.schema] as z.ZodType) === schema) {
    if (checked.issue) throw schemaIssueError(request, checked.issue as z.core.$ZodIssue);
    return response.body as z.infer<S>;
  }
  const result = validate(schema, response.body);
  if (result.success) return result.data;
  throw schemaIssueError(request, result.error.issues[0]);
}

/** The SchemaError for zod's first issue with an answer (`prefix`: where the value checked sits in the answer). */
export function schemaIssueError(request: string, issue: z.core.$ZodIssue | undefined, prefix: readonly PropertyKey[] = []): SchemaError {
  const path = [...prefix, ...(issue?.path ?? [])].map(String).join('.');
  return new SchemaError(request, issue ? issue.message.replace(/^Invalid input: /, '') : l10n.t('does not match'), path || '(root)');
}

/** How many rows an answer's `features` holds, before any of them is checked. */
export function rowCount(body: unknown): number {
  const features = typeof body === 'object' && body !== null ? (body as { features?: unknown }).features : undefined;
  return Array.isArray(features) ? features.length : 0;
}
