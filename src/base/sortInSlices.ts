/** A stable merge sort that yields to the event loop between slices of work, for lists too long to sort at once. */
import { sortSteps } from './sortSteps';
import type { TimeSlices } from './timeSlices';

/**
 * `items` sorted by `compare`, stably, yielding whenever a slice is used up (a native sort of a large export's
 * strategies would block the editor). The sort itself is `sortSteps`, looked at the clock between its steps.
 */
export async function sortInSlices<T>(items: T[], compare: (a: T, b: T) => number, slices: TimeSlices): Promise<T[]> {
  const sort = sortSteps(items, compare);
  for (let step = sort.next(); ; step = sort.next()) {
    if (step.done === true) return step.value;
    if (slices.due()) await slices.next();
  }
}
