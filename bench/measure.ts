/**
 * Timing and memory helpers shared by the benchmarks: a forced GC (without a node flag), paired runs of "ours" and
 * its baseline in alternating order, and robust statistics (median over repetitions after warm-up).
 */
import * as os from 'node:os';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

/** A full garbage collection. `--expose-gc` is set at run time, so `tsx bench/run.ts` needs no node flag. */
export const gc: () => void = (() => {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
})();

/** Heap in use after two full collections, in bytes. */
function settledHeap(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * Heap held by what `load` returns, after full GCs. Measured inside its own async frame, which is gone when it
 * returns: a suspended async function keeps the last awaited value alive, which would charge one measurement's
 * data to the next.
 */
export async function retainedBytes<T>(load: () => Promise<T>, release?: (value: T) => void): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve));
  const before = settledHeap();
  const value = await load();
  const after = settledHeap();
  release?.(value);
  return after - before;
}

export interface Stats {
  /** Milliseconds. */
  median: number;
  min: number;
  max: number;
  samples: number[];
}

export function stats(samples: readonly number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median: round(median), min: round(sorted[0]!), max: round(sorted[sorted.length - 1]!), samples: samples.map(round) };
}

export interface Pair {
  ours: Stats;
  baseline: Stats;
  /** median(ours) / median(baseline). */
  ratio: number;
  /** The median of the per-repetition ratios (less sensitive to a busy machine than the ratio of medians). */
  pairedRatio: number;
}

interface PairOptions {
  warmup: number;
  repetitions: number;
  /** Runs before each timed call, untimed (e.g. removing the file the previous call wrote). */
  prepare?: () => Promise<void> | void;
}

/**
 * Times `ours` and `baseline` in the same run: warm-up rounds, then repetitions that alternate which one goes
 * first (ABBA), each preceded by a full GC so neither pays for the other's garbage.
 */
export async function pair(ours: () => Promise<unknown>, baseline: () => Promise<unknown>, options: PairOptions): Promise<Pair> {
  const once = async (fn: () => Promise<unknown>): Promise<number> => {
    await options.prepare?.();
    gc();
    const started = performance.now();
    await fn();
    return performance.now() - started;
  };
  for (let i = 0; i < options.warmup; i++) {
    await once(ours);
    await once(baseline);
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < options.repetitions; i++) {
    if (i % 2 === 0) {
      a.push(await once(ours));
      b.push(await once(baseline));
    } else {
      b.push(await once(baseline));
      a.push(await once(ours));
    }
  }
  const oursStats = stats(a);
  const baseStats = stats(b);
  return {
    ours: oursStats,
    baseline: baseStats,
    ratio: round(oursStats.median / baseStats.median, 3),
    pairedRatio: round(stats(a.map((x, i) => x / b[i]!)).median, 3),
  };
}

/** Times one function alone: warm-up, then the median of the repetitions. */
export async function single(fn: () => Promise<unknown> | unknown, warmup: number, repetitions: number, prepare?: () => Promise<void> | void): Promise<Stats> {
  const samples: number[] = [];
  for (let i = 0; i < warmup + repetitions; i++) {
    await prepare?.();
    gc();
    const started = performance.now();
    await fn();
    if (i >= warmup) samples.push(performance.now() - started);
  }
  return stats(samples);
}

export function round(value: number, digits = 2): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  platform: string;
  /** 1-minute load average when the run started: above the core count, the figures are noisy. */
  loadAverage: number;
}

export function machine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: round(os.totalmem() / 1024 ** 3, 1),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    loadAverage: round(os.loadavg()[0] ?? 0, 2),
  };
}
