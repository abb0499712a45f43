/**
 * A hostile input and the user-facing operation it hits: each `bench/hostile/*.scenario.ts` exports one. The runner
 * (`run.ts`) prepares the input in its own process, then runs the operation in a fresh Node with a 256 MB heap and
 * measures time, peak heap and the longest event-loop block; `test/hostile/hostileInputs.test.ts` runs every scenario
 * the same way and checks what the user sees.
 */
export interface HostileScenario {
  /** The finding of the reliability review it answers (docs/reliability.md, "Hostile inputs"). */
  finding: number | string;
  /** The hostile input, one line: "a server answering each search page with 300,000 rows (100 asked)". */
  input: string;
  /**
   * Builds the input (files under `dir`, a fake server on 127.0.0.1) outside the measured process; answers what
   * `run` needs (JSON) and how to stop what it started.
   */
  prepare?(dir: string): Promise<{ context?: unknown; stop?: () => Promise<void> }>;
  /**
   * Builds what must be in memory before the operation (an answer the store already read), in the measured process
   * but before the measurement starts; its result is `run`'s third argument. Its heap counts, its time does not.
   */
  setUp?(dir: string, context: unknown): Promise<unknown>;
  /** The operation a user would trigger on that input, measured; answers what the user sees, in one line. */
  run(dir: string, context: unknown, setUp?: unknown): Promise<string>;
  /** What the user must see (checked by the unit test). */
  expect: RegExp;
}
