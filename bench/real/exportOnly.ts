/**
 * The 10,000-flag export alone against a real server, for comparing two builds of the code in one run:
 *   npx tsx bench/real/exportOnly.ts [--reps 7] [--flags 10000] [--before <dir with an older src/ and bench/subject.ts>]
 * Each repetition times, in rotating order, a bare request streamed to a file and `exportToFile()` of each build
 * (bundled as shipped, the file removed first, a GC before each), and prints the medians and ratios to the bare
 * request measured in the same run, then each build's file size and the peak heap one of its exports adds. The server
 * is the cached database of bench/real/server.ts, stopped by pid.
 */
import { createWriteStream } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { gc, machine, stats } from '../measure';
import { bundleSubject, type Subject } from '../subject-build';
import { bareExport, benchPool } from './bare';
import { peakDuring } from './export';
import { newClient } from './listing';
import { startFilled } from './server';

const RESULTS = path.join(__dirname, '..', 'results');

/** bench/subject.ts of the checkout at `root`, bundled as shipped. */
const bundle = (root: string, name: string): Promise<Subject> =>
  bundleSubject(path.join(RESULTS, '.build', `export-only-${name}.js`), { minified: true, root });

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const arg = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const reps = Number(arg('--reps') ?? 7);
  const flags = Number(arg('--flags') ?? 10_000);
  const before = arg('--before');
  const subjects: Array<[string, Subject]> = [['after', await bundle(path.join(__dirname, '..', '..'), 'after')]];
  if (before) subjects.unshift(['before', await bundle(path.resolve(before), 'before')]);
  const host = machine();
  console.log(`${new Date().toISOString()} ${host.cpu}, ${host.cores} cores, node ${host.node}, load average ${host.loadAverage}`);
  const running = await startFilled(flags, (line) => console.log(`  ${line}`));
  const folder = await fsp.mkdtemp(path.join(RESULTS, '.export-only-'));
  const pool = benchPool(running.unleash.url);
  try {
    const { url, adminToken: token } = running.unleash;
    const bareFile = path.join(folder, 'bare.json');
    const bare = async (): Promise<void> => pipeline((await bareExport(url, token, pool)).body, createWriteStream(bareFile));
    const candidates: Array<[string, () => Promise<unknown>]> = [['bare request → file', bare]];
    for (const [name, S] of subjects) {
      const client = newClient(S, url, token);
      const dir = path.join(folder, name);
      candidates.push([`exportToFile (${name})`, async () => {
        await fsp.rm(path.join(dir, '.unleash'), { recursive: true, force: true });
        const result = await S.exportToFile({ client, environment: 'development', scope: { kind: 'all' }, folder: dir });
        if (result.flags !== flags) throw new Error(`${name}: ${result.flags} flags`);
      }]);
      await fsp.mkdir(dir, { recursive: true });
    }
    for (const [, run] of candidates) await run(); // warm-up
    const samples = candidates.map(() => [] as number[]);
    for (let i = 0; i < reps; i++) {
      for (let k = 0; k < candidates.length; k++) {
        const index = (k + i) % candidates.length;
        gc();
        const started = performance.now();
        await candidates[index]![1]();
        samples[index]!.push(performance.now() - started);
      }
    }
    const bareMedian = stats(samples[0]!).median;
    candidates.forEach(([name], k) => {
      const s = stats(samples[k]!);
      console.log(`${name}: median ${s.median.toFixed(0)} ms (${samples[k]!.map((t) => t.toFixed(0)).join(', ')}); ratio to bare ${(s.median / bareMedian).toFixed(2)}×`);
    });
    const files = subjects.map(([name]) => path.join(folder, name, '.unleash', 'development.json'));
    const wire = (await fsp.stat(bareFile)).size;
    for (const [k, [name]] of subjects.entries()) {
      const run = candidates[k + 1]![1];
      const peak = await peakDuring(async () => void (await run()));
      console.log(`exportToFile (${name}): ${((await fsp.stat(files[k]!)).size / 2 ** 20).toFixed(1)} MB written from ${(wire / 2 ** 20).toFixed(1)} MB on the wire; peak heap (+ array buffers) during one export +${(peak / 2 ** 20).toFixed(1)} MB`);
    }
    if (files.length === 2) {
      const [a, b] = await Promise.all(files.map((file) => fsp.readFile(file)));
      console.log(`files of the two builds byte-identical: ${a!.equals(b!)} (${b!.length} bytes)`);
    }
    console.log(`load average after: ${machine().loadAverage}`);
  } finally {
    await pool.close();
    await running.unleash.stop();
    await fsp.rm(folder, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
