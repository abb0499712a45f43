/**
 * Runs one hostile scenario's operation in this (fresh) process and prints one JSON line: what the user sees, the
 * time it took, the peak heap sampled every 5 ms and at the end, the longest event-loop block, and what the worker
 * thread's jobs cost (their time and largest heap) when the operation read files through one. Started by
 * `run.ts` as `node --max-old-space-size=256 --import tsx measureOne.ts <scenario file> <dir> <context JSON>`.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { HostileScenario } from './scenario';
import { workerCosts } from '../../test/support/jobs';

async function main(): Promise<void> {
  const [file, dir, contextJson] = process.argv.slice(2) as [string, string, string];
  const scenario = ((await import(pathToFileURL(file).href)) as { scenario: HostileScenario }).scenario;
  const context: unknown = JSON.parse(contextJson);
  let peak = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  const ready = await scenario.setUp?.(dir, context);
  const delay = monitorEventLoopDelay({ resolution: 1 });
  // The monitor records the gap between two of its ticks, one due every millisecond: a block of 30 ms reads as about
  // 32 (at a 5 ms resolution, up to 35). It must have ticked once before the operation starts.
  delay.enable();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const started = performance.now();
  let seen: string;
  try {
    seen = await scenario.run(dir, context, ready);
  } catch (error) {
    seen = `threw: ${error instanceof Error ? error.message : String(error)}`;
  }
  const ms = performance.now() - started;
  // One more turn so a block at the very end is recorded.
  await new Promise((resolve) => setTimeout(resolve, 20));
  delay.disable();
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  const blockMs = delay.max / 1e6;
  // What the worker thread spent on the jobs (time in all, its largest heap), when the operation used one.
  const worker = workerCosts.length
    ? { workerMs: workerCosts.reduce((sum, cost) => sum + cost.ms, 0), workerHeapMb: Math.max(...workerCosts.map((cost) => cost.heapMb)) }
    : {};
  process.stdout.write(`${JSON.stringify({ seen, ms, peakHeapMb: peak / 2 ** 20, blockMs, ...worker })}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
