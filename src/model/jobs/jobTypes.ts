/**
 * The heavy work the extension does on what comes in (docs/architecture.md, "Intake"): each job takes an input's bytes
 * and answers what it holds within the intake budget. On the desktop the jobs run in a worker thread
 * (services/workerJobs.ts), so that a hostile input costs the window nothing; where no worker can be started they run
 * on the extension host's thread in time slices (inThreadJobs.ts). Types only: the extension's start-up bundle
 * imports this file without the jobs' code.
 */
import type { ExportIntake, ExportSnapshotIntake } from '../export/exportIntake';
import type { SegmentsIntake } from '../export/exportSegmentsFile';
import type { FileInput } from '../store/offlineFiles';

/** Each job's input and output. A file comes as its bytes or its local path; outputs are plain JSON data. */
export interface Jobs {
  /** An export file (offline mode's source). */
  exportFile: { input: FileInput; output: ExportIntake };
  /** The segments file beside an export. */
  segmentsFile: { input: FileInput; output: SegmentsIntake };
  /** What the drift check keeps of an export file named `fileName`, with each flag's line in it. */
  exportSnapshot: { input: FileInput & { fileName: string }; output: ExportSnapshotIntake };
}

export type JobName = keyof Jobs;

/** Runs jobs, in a worker or in time slices; a job past its budget of time or memory fails with a named error. */
export interface JobRunner {
  /** Whether a job's input may name a local file by its path (a worker reads it; the host's thread never holds it). */
  readonly readsLocalFiles: boolean;
  run<N extends JobName>(name: N, input: Jobs[N]['input']): Promise<Jobs[N]['output']>;
}
