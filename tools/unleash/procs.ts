import { spawn, type SpawnOptions } from 'node:child_process';
import * as fs from 'node:fs';

/**
 * True while `pid` names a live process. A zombie (exited, not yet reaped) counts as dead:
 * on this kind of machine PID 1 does not reap orphans promptly, and the postmaster started
 * by `pg_ctl` is such an orphan.
 */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM means "exists, but not ours".
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    // No /proc (not Linux) or the process vanished between the two checks.
    return isAliveWithoutProc(pid);
  }
}

function isAliveWithoutProc(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The command line of `pid` (NUL separators turned into spaces), or undefined. */
export function commandLine(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return undefined;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until `pid` is gone; resolves to false on timeout. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
  return true;
}

/** Sends `signal` to `pid`, ignoring "no such process". */
export function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

/**
 * Stops one process by pid: `first` signal, then SIGKILL after `graceMs`.
 * Resolves once the process is gone.
 */
export async function stopPid(pid: number, first: NodeJS.Signals, graceMs: number): Promise<void> {
  if (!isAlive(pid)) return;
  signal(pid, first);
  if (await waitForExit(pid, graceMs)) return;
  signal(pid, 'SIGKILL');
  if (!(await waitForExit(pid, 5000))) throw new Error(`process ${pid} did not exit after SIGKILL`);
}

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to completion and rejects (with its output in the message) when it fails, or when it has not
 * finished within `timeoutMs` (default 10 minutes; it is killed then).
 */
export function run(
  command: string,
  args: readonly string[],
  options: SpawnOptions & { input?: string; allowFailure?: boolean; timeoutMs?: number } = {},
): Promise<RunResult> {
  const { input, allowFailure, timeoutMs = 10 * 60_000, ...spawnOptions } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...spawnOptions, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const output = () => `\n--- stdout ---\n${stdout.slice(-4000)}\n--- stderr ---\n${stderr.slice(-4000)}`;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish within ${timeoutMs / 1000} s (killed)${output()}`));
    }, timeoutMs);
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      const result = { code, stdout, stderr };
      if (code === 0 || allowFailure) resolve(result);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}${output()}`));
    });
    child.stdin?.end(input ?? '');
  });
}
