/**
 * Array helpers for data of any size. `target.push(...items)` passes every item as an argument, and a call takes
 * at most some 100,000 of them before it throws "Maximum call stack size exceeded": unbounded lists are appended here.
 */

/** Appends every item to `target`, one by one; answers `target`. */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
