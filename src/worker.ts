/**
 * The desktop's worker thread (dist/worker.js): the jobs on what comes in (model/jobs/), away from the extension
 * host's thread. services/workerJobs.ts starts it with the translations as its workerData, one job at a time. A job
 * on a local file gets its path: the file is read here, a regular file only (no link), never past the size it was
 * listed with.
 */
import * as l10n from '@vscode/l10n';
import { parentPort, workerData } from 'node:worker_threads';
import { readRegularFile, UnsafeFileError } from './base/safeRead';
import { grewMessage } from './model/store/offlineFiles';
import { serveJob, setUpWorker } from './model/jobs/jobServer';
import type { JobRequest, WorkerSetup } from './model/jobs/jobWire';

setUpWorker(workerData as WorkerSetup | undefined);

/** A local file's bytes, within the size it was listed with. */
async function readLocal(file: string, maxBytes: number): Promise<Uint8Array> {
  try {
    const bytes = await readRegularFile(file, { maxBytes, followLinks: false });
    if (!bytes) throw new Error(l10n.t('The file is gone. Refresh to read the files again.'));
    return bytes;
  } catch (error) {
    if (error instanceof UnsafeFileError && error.code === 'EFBIG') throw new Error(grewMessage());
    throw error;
  }
}

parentPort?.on('message', (request: JobRequest) => {
  void serveJob(request, readLocal).then(({ reply, transfer }) => parentPort?.postMessage(reply, transfer));
});
