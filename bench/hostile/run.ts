/**
 * The hostile inputs of the reliability review, measured: each scenario's operation runs in a fresh Node with a
 * 256 MB heap (`--max-old-space-size=256`: needing more is a crash, reported as such).
 *
 *   npm run bench:hostile                 every scenario, a table of the figures
 *   npm run bench:hostile -- fatPage      scenarios whose file name contains "fatPage"
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HostileScenario } from './scenario';

export const HEAP_LIMIT_MB = 256;
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
  failure?: string;
}

export function scenarioFiles(filter = ''): string[] {
  return readdirSync(__dirname)
    .filter((name) => name.endsWith('.scenario.ts') && name.includes(filter))
    .sort()
    .map((name) => path.join(__dirname, name));
}

/** Prepares, runs (in a fresh, heap-capped process) and cleans up one scenario. */
export async function measure(file: string): Promise<Measured> {
  const scenario = ((await import(pathToFileURL(file).href)) as { scenario: HostileScenario }).scenario;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'unleash-hostile-'));
  const prepared = (await scenario.prepare?.(dir)) ?? {};
  try {
    const args = [`--max-old-space-size=${HEAP_LIMIT_MB}`, '--import', 'tsx', path.join(__dirname, 'measureOne.ts'), file, dir, JSON.stringify(prepared.context ?? null)];
    const { code, stdout, stderr, timedOut } = await runNode(args, RUN_TIMEOUT_MS);
    const name = path.basename(file);
    if (timedOut) return { file: name, scenario, failure: `did not finish within ${RUN_TIMEOUT_MS / 1000} s` };
    const line = stdout.trim().split('\n').pop() ?? '';
    if (code !== 0 || !line.startsWith('{')) {
      const oom = /heap out of memory|Allocation failed/.test(stderr);
      return { file: name, scenario, failure: oom ? `ran out of its ${HEAP_LIMIT_MB} MB heap` : `exited ${code}: ${stderr.trim().split('\n').slice(-3).join(' ')}` };
    }
    return { file: name, scenario, ...(JSON.parse(line) as Pick<Measured, 'seen' | 'ms' | 'peakHeapMb' | 'blockMs'>) };
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

async function main(): Promise<void> {
  const files = scenarioFiles(process.argv[2] ?? '');
  console.log(`Hostile inputs, ${new Date().toISOString().slice(0, 16)}Z, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load ${os.loadavg()[0]?.toFixed(1)}`);
  console.log('| Finding | Input | What the user sees | Time (ms) | Peak heap (MB) | Longest event-loop block (ms) |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const file of files) {
    const m = await measure(file);
    const seen = m.failure ? `FAILED: ${m.failure}` : m.seen ?? '';
    console.log(`| ${m.scenario.finding} | ${m.scenario.input} | ${seen.replace(/\|/g, '\\|')} | ${figure(m.ms)} | ${figure(m.peakHeapMb, 1)} | ${figure(m.blockMs)} |`);
  }
}

if (require.main === module) void main();
