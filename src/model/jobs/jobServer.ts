/** The worker's side of a job (jobWire.ts): runs it with nobody to yield to, and answers its output as JSON bytes. */
import * as l10n from '@vscode/l10n';
import { TimeSlices } from '../../base/timeSlices';
import { JOBS } from './jobs';
import { errorToWire, type JobCost, type JobReply, type JobRequest, type WorkerSetup } from './jobWire';

/** The worker's heap (Node's workers say; a browser worker reports 0). */
function heapUsed(): number {
  const node = (globalThis as { process?: { memoryUsage?: () => { heapUsed: number } } }).process;
  return node?.memoryUsage?.().heapUsed ?? 0;
}

/** Applies the host's set-up (the translations), sent with the worker's start. */
export function setUpWorker(setup: WorkerSetup | undefined): void {
  if (setup?.l10n) l10n.config({ contents: setup.l10n });
}

/**
 * The reply to one request, and the buffers it transfers. An input that names a local file (`file`, `maxBytes`) is
 * read with `readLocal` first (a browser worker gets bytes only).
 */
export async function serveJob(
  request: JobRequest,
  readLocal?: (file: string, maxBytes: number) => Promise<Uint8Array>,
): Promise<{ reply: JobReply; transfer: ArrayBuffer[] }> {
  const started = performance.now();
  const cost = (): JobCost => ({ ms: performance.now() - started, heapMb: heapUsed() / 2 ** 20 });
  try {
    const job = JOBS[request.name] as (input: unknown, slices: TimeSlices) => Promise<unknown>;
    const input = request.input as { file?: string; maxBytes?: number };
    if (input.file !== undefined) {
      if (!readLocal) throw new Error(l10n.t('This worker reads no local files.'));
      const { file, maxBytes, ...rest } = input;
      request.input = { ...rest, bytes: await readLocal(file, maxBytes ?? 0) };
    }
    const output = await job(request.input, TimeSlices.unsliced());
    const spent = cost();
    const json = new TextEncoder().encode(JSON.stringify(output));
    return { reply: { id: request.id, ok: true, json, cost: spent }, transfer: [json.buffer as ArrayBuffer] };
  } catch (error) {
    return { reply: { id: request.id, ok: false, error: errorToWire(error), cost: cost() }, transfer: [] };
  }
}
