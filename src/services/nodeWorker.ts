/**
 * The desktop's worker for the jobs (model/jobs/workerJobs.ts): a Node worker thread running dist/worker.js with the
 * editor's translations, its heap limited (`resourceLimits`), never keeping the editor's process alive.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { JobFailedError, type JobReply } from '../model/jobs/jobWire';
import { WorkerJobs, type StartWorker } from '../model/jobs/workerJobs';

/** Starts `new Worker(script, options)` (a file, or code with `eval`), its events told to the runner. */
export function nodeWorker(script: string, options: WorkerOptions = {}): StartWorker {
  return async (events, limits) => {
    const worker = new Worker(script, { ...options, resourceLimits: { maxOldGenerationSizeMb: limits.megabytes } });
    worker.on('message', (reply: JobReply) => events.reply(reply));
    worker.on('error', (error: Error & { code?: string }) =>
      events.failed(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new JobFailedError('memory', limits.megabytes) : new JobFailedError('crashed', error.message)),
    );
    worker.on('exit', () => events.failed(new JobFailedError('crashed', 'exit')));
    worker.unref();
    return { post: (request, transfer) => worker.postMessage(request, transfer), terminate: () => void worker.terminate() };
  };
}

/** The jobs in the extension's own worker, `dist/worker.js`, with the editor's translations. */
export function bundledWorkerJobs(extensionPath: string, l10n: Record<string, string> | undefined): WorkerJobs {
  return new WorkerJobs(nodeWorker(`${extensionPath}/dist/worker.js`, { workerData: { l10n } }), undefined, undefined, true);
}
