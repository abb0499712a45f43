/** A stable merge sort that yields to the event loop between slices of work, for lists too long to sort at once. */
import { sortSteps } from './sortSteps';
import { stepsInSlices, type TimeSlices } from './timeSlices';

/**
 * `items` sorted by `compare`, stably, yielding whenever a slice is used up (a native sort of a large export's
 * strategies would block the editor). The sort itself is `sortSteps`, looked at the clock between its steps.
 */
export function sortInSlices<T>(items: T[], compare: (a: T, b: T) => number, slices: TimeSlices): Promise<T[]> {
  return stepsInSlices(sortSteps(items, compare), slices);
}
