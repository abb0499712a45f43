/**
 * The jobs on what comes in (model/jobs/), run in a worker thread: a hostile export file costs the extension host's
 * thread only the slices in which it reads the budgeted answer. One worker, started on the first job, one job at a
 * time; a job past its time is stopped with the worker, and a worker past its memory fails its job; either way the
 * next job starts a new worker. An idle worker is stopped, so that it holds no memory between readings.
 */
import { Worker } from 'node:worker_threads';
import { INTAKE_BUDGET } from '../base/intakeBudget';
import type { JobName, JobRunner, Jobs } from '../model/jobs/jobTypes';
import { decodeReply, JobFailedError, transferable, type JobCost, type JobReply, type JobRequest } from '../model/jobs/jobWire';

/** How long a worker with nothing to do is kept. */
const IDLE_MS = 30_000;

interface Queued {
  request: JobRequest;
  transfer: ArrayBuffer[];
  resolve: (reply: JobReply) => void;
  reject: (error: Error) => void;
}

export class WorkerJobs implements JobRunner {
  readonly readsLocalFiles = true;
  private worker: Worker | undefined;
  private readonly queue: Queued[] = [];
  private running: { job: Queued; timer: ReturnType<typeof setTimeout> } | undefined;
  private idle: ReturnType<typeof setTimeout> | undefined;
  private nextId = 1;
  private disposed = false;

  /** `start` makes a worker running src/worker.ts (dist/worker.js in the extension), with the resource limits given. */
  constructor(
    private readonly start: (resourceLimits: { maxOldGenerationSizeMb: number }) => Worker,
    private readonly limits: { ms: number; megabytes: number } = { ms: INTAKE_BUDGET.jobSeconds * 1000, megabytes: INTAKE_BUDGET.workerMegabytes },
    /** Told what each job cost the worker (the hostile-input bench reports it). */
    private readonly onCost?: (name: JobName, cost: JobCost) => void,
  ) {}

  async run<N extends JobName>(name: N, input: Jobs[N]['input']): Promise<Jobs[N]['output']> {
    if (this.disposed) throw new Error('The extension is shutting down.');
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
    const timer = setTimeout(() => this.fail(new JobFailedError('time', Math.round(this.limits.ms / 1000))), this.limits.ms);
    this.running = { job, timer };
    worker.postMessage(job.request, job.transfer);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = this.start({ maxOldGenerationSizeMb: this.limits.megabytes });
    // A stopped worker's last events are not the current job's.
    worker.on('message', (reply: JobReply) => {
      if (this.worker !== worker) return;
      const running = this.running;
      if (!running || running.job.request.id !== reply.id) return;
      clearTimeout(running.timer);
      this.running = undefined;
      if (reply.cost) this.onCost?.(running.job.request.name, reply.cost);
      running.job.resolve(reply);
      this.next();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (this.worker !== worker) return;
      const memory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.fail(memory ? new JobFailedError('memory', this.limits.megabytes) : new JobFailedError('crashed', error.message));
    });
    worker.on('exit', () => {
      if (this.worker === worker && this.running) this.fail(new JobFailedError('crashed', 'exit'));
    });
    // The worker never keeps the editor's process alive.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** The running job fails with `error`; its worker is stopped (the next job starts another). */
  private fail(error: Error): void {
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
    void worker?.terminate();
  }

  dispose(): void {
    this.disposed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('The extension is shutting down.'));
    if (this.running) {
      clearTimeout(this.running.timer);
      this.running.job.reject(new Error('The extension is shutting down.'));
      this.running = undefined;
    }
    this.stopWorker();
  }
}

/** The jobs in the extension's own worker, `dist/worker.js`, with the editor's translations. */
export function bundledWorkerJobs(extensionPath: string, l10n: Record<string, string> | undefined): WorkerJobs {
  const script = `${extensionPath}/dist/worker.js`;
  return new WorkerJobs((resourceLimits) => new Worker(script, { workerData: { l10n }, resourceLimits }));
}
