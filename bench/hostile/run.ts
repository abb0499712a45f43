/**
 * The hostile inputs of the reliability review, measured: each scenario's operation runs in a fresh Node with a
 * 256 MB heap (`--max-old-space-size=256`: needing more is a crash, reported as such).
 *
 *   npm run bench:hostile                 every scenario, a table of the figures
 *   npm run bench:hostile -- fatPage      scenarios whose file name contains "fatPage"
 *   npm run bench:hostile -- --write-docs also writes the table into docs/reliability.md ("Hostile inputs")
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HostileScenario } from './scenario';

export const HEAP_LIMIT_MB = 256;
/** The bounds of the section of docs/reliability.md this bench writes (the reliability test keeps it as it is). */
export const HOSTILE_START = '<!-- hostile inputs: written by `npm run bench:hostile -- --write-docs` -->';
export const HOSTILE_END = '<!-- end of hostile inputs -->';
const DOC = path.join(__dirname, '..', '..', 'docs', 'reliability.md');
/** One scenario's operation may take this long before it is killed and reported as hung. */
const RUN_TIMEOUT_MS = 120_000;

export interface Measured {
  file: string;
  scenario: HostileScenario;
  /** What the user saw; undefined when the process crashed or hung (`failure` says which). */
  seen?: string;
  ms?: number;
  peakHeapMb?: number;
  blockMs?: number;
  workerMs?: number;
  workerHeapMb?: number;
  failure?: string;
}

export function scenarioFiles(filter = ''): string[] {
  return readdirSync(__dirname)
    .filter((name) => name.endsWith('.scenario.ts') && name.includes(filter))
    .sort()
    .map((name) => path.join(__dirname, name));
}

/**
 * Prepares, runs (in a fresh, heap-capped process) and cleans up one scenario; the operation is killed and reported
 * as hung after `timeoutMs`.
 */
export async function measure(file: string, timeoutMs = RUN_TIMEOUT_MS): Promise<Measured> {
  const scenario = ((await import(pathToFileURL(file).href)) as { scenario: HostileScenario }).scenario;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'unleash-hostile-'));
  const prepared = (await scenario.prepare?.(dir)) ?? {};
  try {
    const args = [`--max-old-space-size=${HEAP_LIMIT_MB}`, '--import', 'tsx', path.join(__dirname, 'measureOne.ts'), file, dir, JSON.stringify(prepared.context ?? null)];
    const { code, stdout, stderr, timedOut } = await runNode(args, timeoutMs);
    const name = path.basename(file);
    if (timedOut) return { file: name, scenario, failure: `did not finish within ${timeoutMs / 1000} s` };
    const line = stdout.trim().split('\n').pop() ?? '';
    if (code !== 0 || !line.startsWith('{')) {
      const oom = /heap out of memory|Allocation failed/.test(stderr);
      return { file: name, scenario, failure: oom ? `ran out of its ${HEAP_LIMIT_MB} MB heap` : `exited ${code}: ${stderr.trim().split('\n').slice(-3).join(' ')}` };
    }
    return { file: name, scenario, ...(JSON.parse(line) as Pick<Measured, 'seen' | 'ms' | 'peakHeapMb' | 'blockMs' | 'workerMs' | 'workerHeapMb'>) };
  } finally {
    await prepared.stop?.();
    rmSync(dir, { recursive: true, force: true });
  }
}

function runNode(args: string[], timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout = (stdout + chunk.toString()).slice(-100_000)));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-100_000)));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

function figure(value: number | undefined, digits = 0): string {
  return value === undefined ? '—' : value.toFixed(digits);
}

function workerCell(m: Measured): string {
  return m.workerMs === undefined ? '—' : `${figure(m.workerMs)} ms, ${figure(m.workerHeapMb, 1)} MB`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function section(header: string, rows: Measured[]): string {
  return [
    HOSTILE_START,
    '## Hostile inputs (measured)',
    '',
    'Each row is a file in `bench/hostile/`: the input is built in one process, and the operation a user would trigger',
    `runs in a fresh Node with a ${HEAP_LIMIT_MB} MB heap (\`--max-old-space-size\`: needing more is a crash, not a figure).`,
    'Peak heap is sampled every 5 ms and at the end; the longest event-loop block is the longest gap between two ticks of `monitorEventLoopDelay` at a 1 ms resolution (a block of 30 ms reads as about 32).',
    'Where the operation reads files through the worker thread (src/worker.ts), the worker\'s time and its largest heap are',
    'given too: that memory is not the extension host\'s, and the worker is stopped past its own budget.',
    '`test/hostile/hostileInputs.test.ts` runs every row in the hostile layer and checks what the user sees; the figures are',
    'this bench\'s, from the run named below (`npm run bench:hostile -- --write-docs` writes this section).',
    '',
    header,
    '',
    '| Finding | Input | What the user sees | Time | Peak heap | Longest block | Worker |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((m) =>
      `| ${m.scenario.finding} | ${cell(m.scenario.input)} | ${cell(m.failure ? `FAILED: ${m.failure}` : m.seen ?? '')} | ${figure(m.ms)} ms | ${figure(m.peakHeapMb, 1)} MB | ${figure(m.blockMs)} ms | ${workerCell(m)} |`,
    ),
    HOSTILE_END,
  ].join('\n');
}

function writeDocs(text: string): void {
  const doc = readFileSync(DOC, 'utf8');
  const start = doc.indexOf(HOSTILE_START);
  const end = doc.indexOf(HOSTILE_END, start);
  const next = start >= 0 && end > start ? doc.slice(0, start) + text + doc.slice(end + HOSTILE_END.length) : `${doc.trimEnd()}\n\n${text}\n`;
  writeFileSync(DOC, next);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const files = scenarioFiles(args.find((arg) => !arg.startsWith('--')) ?? '');
  const header = `Measured ${new Date().toISOString().slice(0, 16)}Z on ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'}, Node ${process.version}, load ${os.loadavg()[0]?.toFixed(1)}.`;
  const rows: Measured[] = [];
  for (const file of files) {
    const m = await measure(file);
    rows.push(m);
    console.log(`${m.file}: ${m.failure ? `FAILED: ${m.failure}` : `${m.seen} | ${figure(m.ms)} ms, heap ${figure(m.peakHeapMb, 1)} MB, block ${figure(m.blockMs)} ms, worker ${workerCell(m)}`}`);
  }
  const text = section(header, rows);
  console.log(`\n${text}`);
  if (args.includes('--write-docs')) writeDocs(text);
}

if (require.main === module) void main();
