/**
 * The jobs' code (jobTypes.ts says what each does), as the worker and the in-thread runner call it, with a file's
 * bytes: the worker reads a local file named by its path before (src/worker.ts).
 */
import type { TimeSlices } from '../../base/timeSlices';
import { takeExport, takeExportSnapshot } from '../export/exportIntake';
import { takeSegments } from '../export/exportSegmentsFile';
import type { JobName, Jobs } from './jobTypes';

type WithBytes<I> = Omit<I, 'file' | 'maxBytes'> & { bytes: Uint8Array };

export const JOBS: { [N in JobName]: (input: WithBytes<Jobs[N]['input']>, slices: TimeSlices) => Promise<Jobs[N]['output']> } = {
  exportFile: ({ bytes }, slices) => takeExport(bytes, slices),
  segmentsFile: ({ bytes }, slices) => takeSegments(bytes, slices),
  exportSnapshot: ({ bytes, fileName }, slices) => takeExportSnapshot(bytes, fileName, slices),
};
