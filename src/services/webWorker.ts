/**
 * The browser build's worker for the jobs (model/jobs/workerJobs.ts): a web worker started from the text of
 * dist/web/worker.js (read through the editor's file system: a web worker extension host may start a worker from a
 * blob, where an extension's own address may be out of its reach). Where none can be started, the jobs run on the
 * extension host's thread in time slices (InThreadJobs), and the log says why.
 */
import * as vscode from 'vscode';
import type { Logger } from '../base/logger';
import type { JobName, JobRunner, Jobs } from '../model/jobs/jobTypes';
import { JobFailedError, type JobReply } from '../model/jobs/jobWire';
import { WorkerJobs, type StartWorker } from '../model/jobs/workerJobs';

/** A web worker, as much of it as the jobs use. */
interface WebWorker {
  postMessage(message: unknown, transfer?: ArrayBuffer[]): void;
  terminate(): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: { message?: string }) => void) | null;
}

/** How long a new worker may take to say it is ready before the jobs run without one. */
const READY_MS = 10_000;

/** Starts a web worker from `url` and waits for it to say it is ready; rejects when it cannot. */
function startWebWorker(url: string, l10n: Record<string, string> | undefined, events?: Parameters<StartWorker>[0]): Promise<WebWorker> {
  const constructor = (globalThis as { Worker?: new (url: string) => WebWorker }).Worker;
  if (!constructor) return Promise.reject(new Error('this extension host offers no Worker'));
  return new Promise((resolve, reject) => {
    const worker = new constructor(url);
    const timer = setTimeout(() => {
      worker.terminate();
      reject(new Error(`the worker did not start within ${READY_MS / 1000} s`));
    }, READY_MS);
    worker.onerror = (event) => {
      clearTimeout(timer);
      reject(new Error(event.message ?? 'the worker failed to load'));
      events?.failed(new JobFailedError('crashed', event.message ?? 'error'));
    };
    worker.onmessage = (event) => {
      if ((event.data as { ready?: boolean }).ready) {
        clearTimeout(timer);
        worker.postMessage({ setup: { l10n } });
        resolve(worker);
      } else events?.reply(event.data as JobReply);
    };
  });
}

/** The jobs in a web worker where one starts, else on this thread (`inThread`, loaded on first need). */
export class BrowserJobs implements JobRunner {
  /** No local files in the browser build: nothing is handed over by path. */
  readonly readsLocalFiles = false;
  private chosen: Promise<JobRunner> | undefined;

  constructor(
    private readonly script: vscode.Uri,
    private readonly logger: Logger,
    private readonly inThread: () => Promise<JobRunner>,
  ) {}

  async run<N extends JobName>(name: N, input: Jobs[N]['input']): Promise<Jobs[N]['output']> {
    return (await (this.chosen ??= this.choose())).run(name, input);
  }

  private async choose(): Promise<JobRunner> {
    const l10n = vscode.l10n.bundle;
    try {
      if (!('Worker' in globalThis)) throw new Error('this extension host offers no Worker');
      const text = await vscode.workspace.fs.readFile(this.script);
      const url = URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
      (await startWebWorker(url, l10n)).terminate();
      this.logger.info('Export files are read in a web worker.');
      return new WorkerJobs(async (events) => {
        const worker = await startWebWorker(url, l10n, events);
        return { post: (request, transfer) => worker.postMessage(request, transfer), terminate: () => worker.terminate() };
      });
    } catch (error) {
      this.logger.info(`Export files are read on the extension host's thread, in time slices: no web worker (${error instanceof Error ? error.message : String(error)}).`);
      return this.inThread();
    }
  }
}
