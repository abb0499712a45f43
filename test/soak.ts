/**
 * Runs one test layer many times in a row and prints how each run ended: the check that a suite neither hangs nor
 * flakes, on an idle machine and under load.
 *
 *   npm run test:soak -- --runs 20                 the unit layer 20 times
 *   npm run test:soak -- --runs 20 --load 2        the same, beside 2 CPU burners (busy loops, stopped at the end)
 *
 * Each run is `tsx test/run.ts --only <layer>`, so the same per-file and per-layer timeouts apply.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

function option(name: string, fallback: string): string {
  const args = process.argv.slice(2);
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] ? (args[at + 1] as string) : fallback;
}

const runs = Number(option('runs', '20'));
const burners = Number(option('load', '0'));
const layer = option('layer', 'unit');
const root = path.join(__dirname, '..');

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
    timeout: 15 * 60_000,
  });
  const seconds = (Date.now() - started) / 1000;
  times.push(seconds);
  const summary = /^tests: .*$/m.exec(result.stdout ?? '')?.[0] ?? `no summary (exit ${result.status ?? result.signal})`;
  const ok = result.status === 0;
  if (!ok) failed++;
  const hung = (result.stderr ?? '').split('\n').filter((line) => line.includes('timed out'));
  // The failing tests by name (TAP `not ok N - name` lines of tests, not of the suites around them), with the error.
  const failures = [...(result.stdout ?? '').matchAll(/^ *not ok \d+ - (.+)\n(?:.*\n){0,12}? *error: (?:\|-\n *)?(.*)$/gm)]
    .filter((match) => !/subtests? failed|test failed/.test(match[2] ?? ''))
    .map((match) => `✖ ${match[1]}: ${(match[2] ?? '').slice(0, 300)}`);
  const details = [...hung, ...failures];
  console.log(`run ${run}/${runs}: ${ok ? 'ok' : 'FAILED'} in ${seconds.toFixed(1)} s, ${summary}${details.length ? `\n  ${details.join('\n  ')}` : ''}`);
}
stopLoad();
times.sort((a, b) => a - b);
console.log(
  `${layer} layer, ${runs} runs${burners ? ` beside ${burners} CPU burner(s)` : ''}: ${runs - failed} passed, ${failed} failed; ` +
    `time min ${times[0]?.toFixed(1)} s, median ${times[Math.floor(times.length / 2)]?.toFixed(1)} s, max ${times.at(-1)?.toFixed(1)} s`,
);
process.exit(failed ? 1 : 0);
