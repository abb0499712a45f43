/**
 * Jobs on the extension host's own thread, in slices of at most SLICE_MS with a bound on the total: where no worker
 * can be started (the browser build when its host gives it none), and in the tests of the jobs themselves.
 */
import * as l10n from '@vscode/l10n';
import { INTAKE_BUDGET } from '../../base/intakeBudget';
import { SLICE_MS, TimeSlices, WorkTooLongError } from '../../base/timeSlices';
import { JOBS } from './jobs';
import { JobFailedError } from './jobWire';
import type { JobName, JobRunner, Jobs } from './jobTypes';

export class InThreadJobs implements JobRunner {
  readonly readsLocalFiles = false;

  async run<N extends JobName>(name: N, input: Jobs[N]['input']): Promise<Jobs[N]['output']> {
    if (!('bytes' in input)) throw new Error(l10n.t('A job on this thread takes the bytes of a file, not its path.'));
    const job = JOBS[name] as (input: Jobs[N]['input'], slices: TimeSlices) => Promise<Jobs[N]['output']>;
    try {
      return await job(input, new TimeSlices(SLICE_MS, undefined, INTAKE_BUDGET.jobSeconds * 1000));
    } catch (error) {
      throw error instanceof WorkTooLongError ? new JobFailedError('time', INTAKE_BUDGET.jobSeconds) : error;
    }
  }
}
