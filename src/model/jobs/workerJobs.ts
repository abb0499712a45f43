/**
 * The jobs on what comes in (model/jobs/), run in a worker: a hostile export file or answer costs the extension
 * host's thread only the slices in which it puts the budgeted answer together. One worker, started on the first job
 * (a Node worker thread on the desktop, a web worker in the browser build: `StartWorker`), one job at a time; a job
 * past its time is stopped with the worker, and a worker that runs out of memory or stops fails its job; either way
 * the next job starts a new worker. An idle worker is stopped, so that it holds no memory between readings.
 */
import * as l10n from '@vscode/l10n';
import { INTAKE_BUDGET } from '../../base/intakeBudget';
import type { JobName, JobRunner, Jobs } from './jobTypes';
import { decodeReply, JobFailedError, transferable, type JobCost, type JobReply, type JobRequest } from './jobWire';

/** How long a worker with nothing to do is kept. */
const IDLE_MS = 30_000;

/** A started worker, as the runner uses it. */
export interface WorkerPort {
  post(request: JobRequest, transfer: ArrayBuffer[]): void;
  terminate(): void;
}

/** What a worker tells its runner: a reply, or that it failed (out of memory, stopped, an error of its own). */
export interface WorkerEvents {
  reply(reply: JobReply): void;
  failed(error: JobFailedError): void;
}

/** Starts a worker running the jobs (src/worker.ts, src/worker.browser.ts) within `megabytes` where the platform can. */
export type StartWorker = (events: WorkerEvents, limits: { megabytes: number }) => Promise<WorkerPort>;

interface Queued {
  request: JobRequest;
  transfer: ArrayBuffer[];
  resolve: (reply: JobReply) => void;
  reject: (error: Error) => void;
}

export class WorkerJobs implements JobRunner {
  readonly readsLocalFiles: boolean;
  private worker: { port: Promise<WorkerPort> } | undefined;
  private readonly queue: Queued[] = [];
  private running: { job: Queued; timer: ReturnType<typeof setTimeout> } | undefined;
  private idle: ReturnType<typeof setTimeout> | undefined;
  private nextId = 1;
  private disposed = false;

  constructor(
    private readonly start: StartWorker,
    private readonly limits: { ms: number; megabytes: number } = { ms: INTAKE_BUDGET.jobSeconds * 1000, megabytes: INTAKE_BUDGET.workerMegabytes },
    /** Told what each job cost the worker (the hostile-input bench reports it). */
    private readonly onCost?: (name: JobName, cost: JobCost) => void,
    /** The worker reads local files (a Node worker thread; a web worker cannot). */
    readsLocalFiles = false,
  ) {
    this.readsLocalFiles = readsLocalFiles;
  }

  async run<N extends JobName>(name: N, input: Jobs[N]['input']): Promise<Jobs[N]['output']> {
    if (this.disposed) throw new Error(l10n.t('The extension is shutting down.'));
    const bytes = 'bytes' in input ? input.bytes : undefined;
    const sent = bytes ? { ...input, bytes: transferable(bytes) } : input;
    const transfer = bytes ? [(sent as { bytes: Uint8Array }).bytes.buffer as ArrayBuffer] : [];
    const reply = await new Promise<JobReply>((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, name, input: sent }, transfer, resolve, reject });
      this.pump();
    });
    return (await decodeReply(reply)) as Jobs[N]['output'];
  }

  private pump(): void {
    if (this.running || this.queue.length === 0) return;
    clearTimeout(this.idle);
    const job = this.queue.shift() as Queued;
    const worker = this.ensureWorker();
    const timer = setTimeout(() => this.fail(worker, new JobFailedError('time', Math.round(this.limits.ms / 1000))), this.limits.ms);
    this.running = { job, timer };
    worker.port.then(
      (port) => {
        if (this.running?.job === job) port.post(job.request, job.transfer);
      },
      (error: unknown) => this.fail(worker, error instanceof JobFailedError ? error : new JobFailedError('crashed', String(error))),
    );
  }

  private ensureWorker(): { port: Promise<WorkerPort> } {
    if (this.worker) return this.worker;
    const worker: { port: Promise<WorkerPort> } = { port: Promise.resolve() as unknown as Promise<WorkerPort> };
    // A stopped worker's last events are not the current job's.
    worker.port = this.start(
      {
        reply: (reply) => {
          const running = this.running;
          if (this.worker !== worker || !running || running.job.request.id !== reply.id) return;
          clearTimeout(running.timer);
          this.running = undefined;
          if (reply.cost) this.onCost?.(running.job.request.name, reply.cost);
          running.job.resolve(reply);
          this.next();
        },
        failed: (error) => {
          if (this.worker === worker) this.fail(worker, error);
        },
      },
      { megabytes: this.limits.megabytes },
    );
    this.worker = worker;
    return worker;
  }

  /** The running job fails with `error`; its worker is stopped (the next job starts another). */
  private fail(worker: { port: Promise<WorkerPort> }, error: Error): void {
    if (this.worker !== worker) return;
    const running = this.running;
    this.running = undefined;
    if (running) {
      clearTimeout(running.timer);
      running.job.reject(error);
    }
    this.stopWorker();
    this.next();
  }

  private next(): void {
    if (this.queue.length > 0) this.pump();
    else if (this.worker && !this.disposed) this.idle = setTimeout(() => this.stopWorker(), IDLE_MS);
  }

  private stopWorker(): void {
    clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = undefined;
    void worker?.port.then((port) => port.terminate(), () => undefined);
  }

  dispose(): void {
    this.disposed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error(l10n.t('The extension is shutting down.')));
    if (this.running) {
      clearTimeout(this.running.timer);
      this.running.job.reject(new Error(l10n.t('The extension is shutting down.')));
      this.running = undefined;
    }
    this.stopWorker();
  }
}
