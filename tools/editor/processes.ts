// Process trees of a run: everything the host starts is killed by pid, even on failure or process exit.
//
// Processes are started in their own process groups and stopped by pid/pgid, plus a sweep for any process that
// still carries the run's marker env var (a child that left the group). An exit hook kills what is still running
// and removes the run folders registered with removeAtExit().
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Env var set on every process a run starts; its value is the run's temp folder. */
const RUN_MARKER_ENV = 'UNLEASH_E2E_HOST_RUN';

export interface Tracked {
  pid: number;
  marker: string;
}
const live = new Set<Tracked>();
const liveTmps = new Set<string>();
let hooksInstalled = false;

function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', () => {
    for (const t of live) killTreeSync(t, 'SIGKILL');
    for (const dir of liveTmps) fs.rmSync(dir, { recursive: true, force: true });
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const handler = (): void => {
      // Only intervene while something is running; otherwise keep Node's default behaviour.
      if (live.size === 0 && liveTmps.size === 0) {
        process.removeListener(sig, handler);
        process.kill(process.pid, sig);
        return;
      }
      process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1));
    };
    process.on(sig, handler);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Pids of processes whose environment carries RUN_MARKER_ENV=<marker> (children that left the group). */
function pidsWithMarker(marker: string): number[] {
  const needle = Buffer.from(`${RUN_MARKER_ENV}=${marker}\0`);
  const out: number[] = [];
  let entries: string[] = [];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return out;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    try {
      const env = fs.readFileSync(`/proc/${name}/environ`);
      if (env.includes(needle)) out.push(pid);
    } catch {
      // gone or not ours
    }
  }
  return out;
}

/** Live processes started for the run whose temp folder is `tmp` (empty after stop()). */
export function processesOfRun(tmp: string): number[] {
  return pidsWithMarker(tmp).filter((pid) => {
    try {
      // field 3 of /proc/<pid>/stat is the state; Z = zombie waiting for init to reap it
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
    } catch {
      return false;
    }
  });
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

function killTreeSync(t: Tracked, sig: NodeJS.Signals): void {
  signal(-t.pid, sig); // the process group (spawned detached => pgid == pid)
  signal(t.pid, sig);
  for (const pid of pidsWithMarker(t.marker)) signal(pid, sig);
}


export async function killTree(t: Tracked, graceMs = 3000): Promise<void> {
  killTreeSync(t, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!alive(t.pid) && pidsWithMarker(t.marker).length === 0) break;
    await sleep(50);
  }
  killTreeSync(t, 'SIGKILL');
  const hard = Date.now() + 2000;
  while (Date.now() < hard && pidsWithMarker(t.marker).length > 0) await sleep(50);
  live.delete(t);
}

export function spawnTracked(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  marker: string,
  onLine: (line: string) => void,
): { child: ChildProcess; tracked: Tracked } {
  installExitHooks();
  const child = spawn(cmd, args, {
    env: { ...env, [RUN_MARKER_ENV]: marker },
    detached: true, // own process group, so the whole tree can be signalled by pgid
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`failed to start ${cmd}`);
  const tracked: Tracked = { pid: child.pid, marker };
  live.add(tracked);
  for (const stream of [child.stdout, child.stderr]) {
    let buf = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      buf += chunk;
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        onLine(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    });
    stream?.on('end', () => {
      if (buf) onLine(buf);
      buf = '';
    });
  }
  return { child, tracked };
}

/** Removes `dir` (a run's temp folder) when the process exits, unless forgetAtExit(dir) is called first. */
export function removeAtExit(dir: string): void {
  liveTmps.add(dir);
  installExitHooks();
}

/** Undoes removeAtExit(dir): the run has removed the folder itself (or keeps it on purpose). */
export function forgetAtExit(dir: string): void {
  liveTmps.delete(dir);
}
