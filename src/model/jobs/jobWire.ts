/**
 * How a job crosses between the extension host and its worker: a request with the input (its bytes transferred, not
 * copied), and a reply with the output as JSON bytes, which the host parses in time slices (slicedJson.ts), so that a
 * large output never blocks it; or the error, rebuilt on the host as the class it was. No job code here: the start-up
 * bundle holds this file.
 */
import * as l10n from '@vscode/l10n';
import { parseJsonSliced } from '../../base/slicedJson';
import { TimeSlices } from '../../base/timeSlices';
import { InvalidExportFileError } from '../export/invalidExportFileError';
import type { JobName } from './jobTypes';

export interface JobRequest {
  id: number;
  name: JobName;
  input: unknown;
}

export interface WireError {
  name: string;
  message: string;
  fieldPath?: string;
}

/** A job stopped past its budget of time or memory, or with its worker: why, as a sentence the view shows. */
export class JobFailedError extends Error {
  constructor(reason: 'time' | 'memory' | 'crashed', detail: string | number) {
    super(
      reason === 'time'
        ? l10n.t('Reading it took longer than {0} s, the most the extension gives one file.', detail)
        : reason === 'memory'
          ? l10n.t('Reading it needed more than {0} MB of memory, the most the extension gives one file.', detail)
          : l10n.t("The extension's reader stopped ({0}). Refresh to try again.", detail),
    );
    this.name = 'JobFailedError';
  }
}

/** What a job cost its worker: its time, and the worker's heap when it ended (before its output was written). */
export interface JobCost {
  ms: number;
  heapMb: number;
}

export type JobReply = { id: number; ok: true; json: Uint8Array; cost?: JobCost } | { id: number; ok: false; error: WireError; cost?: JobCost };

/** The message the worker's first message carries: the translations of the editor's language. */
export interface WorkerSetup {
  l10n?: Record<string, string>;
}

export function errorToWire(error: unknown): WireError {
  if (error instanceof InvalidExportFileError) return { name: error.name, message: error.message, fieldPath: error.fieldPath };
  return { name: 'Error', message: error instanceof Error ? error.message : String(error) };
}

function errorFromWire(error: WireError): Error {
  if (error.name === 'InvalidExportFileError') return new InvalidExportFileError(error.message, error.fieldPath ?? '');
  return new Error(error.message);
}

/** The bytes of a job's input as their own buffer, which the request transfers (a view into a larger one is copied). */
export function transferable(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer ? bytes : bytes.slice();
}

/** A reply's output, parsed on the host in slices; its error rebuilt. */
export async function decodeReply(reply: JobReply, slices = new TimeSlices()): Promise<unknown> {
  if (!reply.ok) throw errorFromWire(reply.error);
  return parseJsonSliced(reply.json, { slices });
}
