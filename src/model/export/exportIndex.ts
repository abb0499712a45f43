/**
 * What an export's answer holds, read as its bytes arrive (base/jsonMembers.ts finds each top-level value): each value
 * parsed and checked on its own (the export schema checks a list element at a time), and of each list element only
 * what the canonical layout needs: where it lies in the answer file and what it is sorted by.
 */
import * as l10n from '@vscode/l10n';
import type { z } from 'zod';
import { schemaIssueError } from '../../api/answers';
import { SchemaError } from '../../api/errors';
import { exportResultSchema } from '../../api/exportSchemas';
import { validate } from '../../api/validate';
import { JsonShapeError, TopLevelMembers, type MemberSink } from '../../base/jsonMembers';
import { JsonTooDeepError } from '../../base/jsonBytes';
import { listElement, MAX_EXPORT_DEPTH } from './exportFile';
import { isSortedList, memberOrder, sortKeysOf } from './exportLayout';

/** The request an answer comes from, as the client names it in errors. */
export const EXPORT_REQUEST = 'POST /api/admin/features-batch/export';

/** A top-level list: where each element lies in the answer, and (for a sorted list) what it is sorted by. */
export interface ListMember {
  readonly kind: 'list';
  readonly starts: number[];
  readonly ends: number[];
  readonly keys: Array<readonly unknown[]> | undefined;
  /** The export schema of one element, for a list the schema knows. */
  readonly element: z.ZodType | undefined;
}

/** A top-level member that is not a list: its value, parsed and kept. */
interface ValueMember {
  readonly kind: 'value';
  value: unknown;
}

const SHAPE = exportResultSchema.shape as Record<string, z.ZodType>;

/** The answer holds more list elements than one export may (see `maxRows`). */
export class TooManyRowsError extends Error {
  constructor(readonly maxRows: number) {
    super(l10n.t('The answer holds more than {0} rows.', maxRows));
    this.name = 'TooManyRowsError';
  }
}

/**
 * What an export's answer holds, read as its bytes arrive: each value checked, each list element's place and sort
 * keys kept. `push` the bytes in order, then `finish`. Throws the client's SchemaError for an answer that is not an
 * export (naming the first bad field, as the client does), TooManyRowsError past `maxRows` elements.
 */
export class ExportIndex implements MemberSink {
  private readonly members = new Map<string, ListMember | ValueMember>();
  private readonly scanner = new TopLevelMembers(this, MAX_EXPORT_DEPTH);
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private current: { key: string; member: ListMember | ValueMember } | undefined;
  private rows = 0;
  /** The ids of the segments the export names or its strategies use. */
  readonly segmentIds = new Set<number>();

  constructor(private readonly maxRows: number) {}

  push(bytes: Uint8Array): void {
    try {
      this.scanner.push(bytes);
    } catch (error) {
      throw asAnswerError(error);
    }
  }

  /** The answer ended: throws when it is incomplete or lacks what an export must hold. */
  finish(): void {
    try {
      this.scanner.end();
    } catch (error) {
      throw asAnswerError(error);
    }
    // The members the schema checks whole: those absent, and those that are not lists.
    for (const [key, schema] of Object.entries(SHAPE)) {
      const member = this.members.get(key);
      if (member?.kind === 'list') continue;
      const parsed = validate(schema, member?.value);
      if (!parsed.success) throw schemaIssueError(EXPORT_REQUEST, parsed.error.issues[0], [key]);
    }
  }

  member(key: string, array: boolean): void {
    const schema = Object.prototype.hasOwnProperty.call(SHAPE, key) ? SHAPE[key] : undefined;
    // A key given twice: the last value counts, as with JSON.parse.
    const member: ListMember | ValueMember =
      array && (schema === undefined || listElement(schema) !== undefined)
        ? { kind: 'list', starts: [], ends: [], keys: isSortedList(key) ? [] : undefined, element: schema && listElement(schema) }
        : { kind: 'value', value: array ? [] : undefined };
    this.members.set(key, member);
    this.current = { key, member };
  }

  value(bytes: Uint8Array, offset: number): void {
    const { key, member } = this.current as { key: string; member: ListMember | ValueMember };
    let value: unknown;
    try {
      value = JSON.parse(this.decoder.decode(bytes));
    } catch (error) {
      throw new SchemaError(EXPORT_REQUEST, l10n.t('the answer is not valid JSON ({0})', (error as Error).message));
    }
    if (member.kind === 'value') {
      // An array the schema checks whole: its elements are gathered (no export list is one today).
      if (Array.isArray(member.value)) (member.value as unknown[]).push(value);
      else member.value = value;
      return;
    }
    const index = member.starts.length;
    if (++this.rows > this.maxRows) throw new TooManyRowsError(this.maxRows);
    if (member.element) {
      const parsed = validate(member.element, value);
      if (!parsed.success) throw schemaIssueError(EXPORT_REQUEST, parsed.error.issues[0], [key, index]);
    }
    member.starts.push(offset);
    member.ends.push(offset + bytes.length);
    member.keys?.push(sortKeysOf(key, value));
    this.noteSegments(key, value);
  }

  /** How many elements the list under `key` holds (0 when it is absent or not a list). */
  count(key: string): number {
    const member = this.members.get(key);
    return member?.kind === 'list' ? member.starts.length : 0;
  }

  /** The sort keys of the elements of the sorted list under `key`, in the order they came. */
  sortKeys(key: string): ReadonlyArray<readonly unknown[]> {
    const member = this.members.get(key);
    return member?.kind === 'list' ? (member.keys ?? []) : [];
  }

  /** The top-level keys, in the order the file lists them. */
  keys(): string[] {
    return memberOrder([...this.members.keys()]);
  }

  /** @internal The member under `key`, for the layout. */
  memberOf(key: string): ListMember | ValueMember | undefined {
    return this.members.get(key);
  }

  private noteSegments(key: string, value: unknown): void {
    if (key === 'segments') {
      const id = (value as { id?: unknown }).id;
      if (typeof id === 'number') this.segmentIds.add(id);
    } else if (key === 'featureStrategies') {
      for (const id of (value as { segments?: unknown[] }).segments ?? []) if (typeof id === 'number') this.segmentIds.add(id);
    }
  }
}

/** A scan failure as the client reports an answer that is not JSON. */
function asAnswerError(error: unknown): unknown {
  if (error instanceof JsonShapeError) return new SchemaError(EXPORT_REQUEST, l10n.t('the answer is not valid JSON ({0})', error.message));
  if (error instanceof JsonTooDeepError) return new SchemaError(EXPORT_REQUEST, l10n.t('the answer nests lists and objects more than {0} levels deep', MAX_EXPORT_DEPTH));
  return error;
}
