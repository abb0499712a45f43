/**
 * Runs one test layer many times in a row and prints how each run ended: the check that a suite neither hangs nor
 * flakes, on an idle machine and under load.
 *
 *   npm run test:soak -- --runs 20                 the unit layer 20 times
 *   npm run test:soak -- --runs 20 --load 2        the same, beside 2 CPU burners (busy loops, stopped at the end)
 *   npm run test:soak -- --runs 5 --layer hostile  another layer
 *
 * Each run is `tsx test/run.ts --only <layer>`, so the same per-file and per-layer bounds apply.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { LAYERS } from './runner/layers';

function option(name: string, fallback: string): string {
  const args = process.argv.slice(2);
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] ? (args[at + 1] as string) : fallback;
}

const runs = Number(option('runs', '20'));
const burners = Number(option('load', '0'));
const layer = option('layer', 'unit');
const root = path.join(__dirname, '..');
/** A run that outlives its layer's bound by 5 minutes is stopped (the runner itself stopped answering). */
const runTimeoutMs = (LAYERS.find((spec) => spec.name === layer)?.layerMs ?? 30 * 60_000) + 5 * 60_000;

const load: ChildProcess[] = Array.from({ length: burners }, () =>
  spawn(process.execPath, ['-e', 'const end = Date.now() + 3_600_000; while (Date.now() < end) {}'], { stdio: 'ignore' }),
);
const stopLoad = () => load.forEach((child) => child.kill('SIGKILL'));
process.on('exit', stopLoad);

let failed = 0;
const times: number[] = [];
for (let run = 1; run <= runs; run++) {
  const started = Date.now();
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'test', 'run.ts'), '--only', layer], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: runTimeoutMs,
  });
  const seconds = (Date.now() - started) / 1000;
  times.push(seconds);
  const summary = /^tests: .*$/m.exec(result.stdout ?? '')?.[0] ?? `no summary (exit ${result.status ?? result.signal})`;
  const ok = result.status === 0;
  if (!ok) failed++;
  // What failed, as the runner names it: the files, their failed tests and the test a killed file was in.
  const details = (result.stdout ?? '').split('\n').filter((line) => /^ {2,4}✖ /.test(line)).map((line) => line.trim());
  console.log(`run ${run}/${runs}: ${ok ? 'ok' : 'FAILED'} in ${seconds.toFixed(1)} s, ${summary}${details.length ? `\n  ${details.join('\n  ')}` : ''}`);
}
stopLoad();
times.sort((a, b) => a - b);
console.log(
  `${layer} layer, ${runs} runs${burners ? ` beside ${burners} CPU burner(s)` : ''}: ${runs - failed} passed, ${failed} failed; ` +
    `time min ${times[0]?.toFixed(1)} s, median ${times[Math.floor(times.length / 2)]?.toFixed(1)} s, max ${times.at(-1)?.toFixed(1)} s`,
);
process.exit(failed ? 1 : 0);
