/**
 * The jobs that read what comes in (src/model/jobs/), as the tests run them: on this thread in time slices
 * (InThreadJobs, as the browser build without a worker), or in a worker thread running src/worker.ts under tsx, as
 * the desktop runs dist/worker.js.
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ExportIntake } from '../../src/model/export/exportIntake';
import { InThreadJobs } from '../../src/model/jobs/inThreadJobs';
import type { JobRunner } from '../../src/model/jobs/jobTypes';
import type { JobCost } from '../../src/model/jobs/jobWire';
import { ExportFileReader, type ExportBudget } from '../../src/model/store/offlineFiles';
import { WorkerJobs } from '../../src/services/workerJobs';

const WORKER_SOURCE = path.join(__dirname, '..', '..', 'src', 'worker.ts');

/** What every worker of this process was told its jobs cost (the hostile-input bench prints it). */
export const workerCosts: JobCost[] = [];

/** Every local file a worker of this process was asked to read (by its path), in order. */
export const workerReads: string[] = [];

/** src/worker.ts in a worker thread, under tsx; `limits` as WorkerJobs takes them. */
export function sourceWorkerJobs(limits?: ConstructorParameters<typeof WorkerJobs>[1]): WorkerJobs {
  const jobs = new WorkerJobs(
    (resourceLimits) => new Worker(`require('tsx/cjs'); require(${JSON.stringify(WORKER_SOURCE)});`, { eval: true, resourceLimits, workerData: {} }),
    limits,
    (_name, cost) => workerCosts.push(cost),
  );
  const run = jobs.run.bind(jobs);
  jobs.run = (name, input) => {
    if ('file' in input) workerReads.push(input.file);
    return run(name, input);
  };
  return jobs;
}

/** Offline mode's reader of export files (and their segments files), by `jobs`. */
export function offlineReader(budget?: ExportBudget, jobs: JobRunner = new InThreadJobs()): ExportFileReader<ExportIntake> {
  return new ExportFileReader<ExportIntake>(
    { take: (input) => jobs.run('exportFile', input), segments: (input) => jobs.run('segmentsFile', input), byPath: jobs.readsLocalFiles },
    budget,
  );
}
