/**
 * A stable merge sort done in steps, for lists too long to sort at once: the generator pauses (yields) every
 * SORT_STEP elements it looks at, so its driver can yield to the event loop between steps (`sortInSlices` with time
 * slices, the details document between its pieces); it returns the sorted list. The runs already in order are found,
 * then merged two by two: a list that comes in order costs one pass.
 */

/** Elements looked at between two pauses. */
const SORT_STEP = 4096;

export function* sortSteps<T>(items: T[], compare: (a: T, b: T) => number): Generator<void, T[]> {
  let bounds = [0];
  for (let i = 1; i < items.length; i++) {
    if (i % SORT_STEP === 0) yield;
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
        if (out % SORT_STEP === 0) yield;
        to[out] = (right >= high || (left < middle && compare(from[left] as T, from[right] as T) <= 0) ? from[left++] : from[right++]) as T;
      }
      next.push(high);
    }
    [from, to] = [to, from];
    bounds = next;
  }
  return from;
}
