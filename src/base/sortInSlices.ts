/** A stable merge sort that yields to the event loop between slices of work, for lists too long to sort at once. */
import type { TimeSlices } from './timeSlices';

/** Elements between two looks at the clock in the sort. */
const SORT_CHECK = 4096;

/**
 * `items` sorted by `compare`, stably, yielding whenever a slice is used up (a native sort of a large export's
 * strategies would block the editor): the runs already in order are found, then merged two by two. A list that comes
 * in order (a server sends flags, environments and tags by name) costs one pass.
 */
export async function sortInSlices<T>(items: T[], compare: (a: T, b: T) => number, slices: TimeSlices): Promise<T[]> {
  let bounds = [0];
  for (let i = 1; i < items.length; i++) {
    if (i % SORT_CHECK === 0 && slices.due()) await slices.next();
    if (compare(items[i - 1] as T, items[i] as T) > 0) bounds.push(i);
  }
  bounds.push(items.length);
  let from = items;
  let to = new Array<T>(items.length);
  while (bounds.length > 2) {
    const next = [0];
    for (let run = 0; run + 1 < bounds.length; run += 2) {
      const low = bounds[run] as number;
      const middle = bounds[run + 1] as number;
      const high = bounds[run + 2] ?? middle;
      let left = low;
      let right = middle;
      for (let out = low; out < high; out++) {
        if (out % SORT_CHECK === 0 && slices.due()) await slices.next();
        to[out] = (right >= high || (left < middle && compare(from[left] as T, from[right] as T) <= 0) ? from[left++] : from[right++]) as T;
      }
      next.push(high);
    }
    [from, to] = [to, from];
    bounds = next;
  }
  return from;
}
