/**
 * What a test file leaves behind when it is killed: processes it started (its own process group is killed with it,
 * but servers started detached, such as PostgreSQL, are not) and its temporary folder. Each file runs with TMPDIR and
 * UNLEASH_TEST_TMP set to a folder of its own, so what it started is found by that mark: in a process's environment
 * (inherited by everything it starts) or on its command line (a PostgreSQL data folder under TMPDIR).
 */
import * as fs from 'node:fs';

/** The environment variable that marks every process a test file starts; its value is the file's temp folder. */
export const TEST_TMP_ENV = 'UNLEASH_TEST_TMP';

/** Processes (other than this one) whose environment carries the mark of `dir`, or whose command line names it. */
function processesMarkedWith(dir: string): number[] {
  const mark = `${TEST_TMP_ENV}=${dir}`;
  const pids: number[] = [];
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return pids; // not Linux: nothing to find this way
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const env = fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1');
      if (env.includes(mark) || cmdline.includes(`${dir}/`)) pids.push(pid);
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

/** Kills (SIGKILL) every process marked with `dir`, twice over for what they start meanwhile; answers how many. */
export function killMarked(dir: string): number {
  const killed = new Set<number>();
  for (let round = 0; round < 2; round++) {
    for (const pid of processesMarkedWith(dir)) {
      try {
        process.kill(pid, 'SIGKILL');
        killed.add(pid);
      } catch {
        // already gone
      }
    }
  }
  return killed.size;
}

/** Removes a temporary folder; a file a dying process still writes is retried a few times. */
export function removeFolder(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
