/** Work done in time slices, so that a long task (parsing, sorting a large export) never blocks the event loop for long. */

/** Work done in slices: `due()` says when the current one is used up, `next()` yields and starts another. */
export class TimeSlices {
  private deadline: number;

  constructor(
    private readonly sliceMs: number = 20,
    private readonly pause: () => Promise<void> = () => new Promise((resolve) => setTimeout(resolve, 0)),
  ) {
    this.deadline = performance.now() + sliceMs;
  }

  due(): boolean {
    return performance.now() > this.deadline;
  }

  async next(): Promise<void> {
    await this.pause();
    this.deadline = performance.now() + this.sliceMs;
  }
}
