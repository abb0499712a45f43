/**
 * Work done in time slices, so that a long task (parsing, sorting, indexing a large input) never blocks the event loop
 * for long: at most `SLICE_MS` at a time on the extension host's thread, and, when a total is given, at most that in all.
 */

import { nextTurn } from './nextTurn';

/**
 * The longest the extension host's thread runs one slice of work before it lets others run: 8 ms, so that a slice, the
 * item it ends on and a collector pause stay under the 50 ms the thread may be held (bench/hostile measures it).
 */
export const SLICE_MS = 8;

/** Work that ran past its total budget: `what` says which, for the message. */
export class WorkTooLongError extends Error {
  constructor(readonly totalMs: number) {
    super(`took longer than ${Math.round(totalMs / 1000)} s`);
    this.name = 'WorkTooLongError';
  }
}

/** Work done in slices: `due()` says when the current one is used up, `next()` yields and starts another. */
export class TimeSlices {
  private deadline: number;
  private readonly end: number;

  constructor(
    private readonly sliceMs: number = SLICE_MS,
    private readonly pause: () => Promise<void> = nextTurn,
    /** The whole work's budget (ms); past it, `next()` throws WorkTooLongError. */
    private readonly totalMs = Number.POSITIVE_INFINITY,
  ) {
    const now = performance.now();
    this.deadline = now + sliceMs;
    this.end = now + totalMs;
  }

  /** Slices that are never due: for work off the extension host's thread (a worker has nobody to yield to). */
  static unsliced(): TimeSlices {
    return new TimeSlices(Number.POSITIVE_INFINITY);
  }

  due(): boolean {
    return performance.now() > this.deadline;
  }

  async next(): Promise<void> {
    await this.pause();
    const now = performance.now();
    if (now > this.end) throw new WorkTooLongError(this.totalMs);
    this.deadline = now + this.sliceMs;
  }
}

/** Calls `fn` on each item, yielding to the event loop whenever a slice is used up. */
export async function eachInSlices<T>(items: Iterable<T>, slices: TimeSlices, fn: (item: T) => void): Promise<void> {
  for (const item of items) {
    if (slices.due()) await slices.next();
    fn(item);
  }
}

/**
 * Runs work written as steps (a generator that yields where it may pause) to its end, yielding to the event loop
 * whenever a slice is used up.
 */
export async function stepsInSlices<T>(steps: Generator<void, T>, slices: TimeSlices): Promise<T> {
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done === true) return step.value;
    if (slices.due()) await slices.next();
  }
}

/** The same steps at once: for small inputs, or off the extension host's thread. */
export function stepsAtOnce<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}
