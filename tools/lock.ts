/** A lock folder under out/locks/, for work that two processes of one checkout must not do at once. */
import * as fs from 'node:fs';
import * as path from 'node:path';

const LOCK_DIR = path.resolve(__dirname, '..', 'out', 'locks');

/**
 * Runs `work` while holding a lock folder (other test files of the same run package or install at the same time
 * otherwise). A lock whose owner died is taken over.
 */
export async function withLock<T>(name: string, timeoutMs: number, work: () => Promise<T>): Promise<T> {
  fs.mkdirSync(LOCK_DIR, { recursive: true });
  const lock = path.join(LOCK_DIR, `${name}.lock`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(path.join(lock, 'pid'), { encoding: 'utf8', flag: 'a+' }) || 0);
      let alive = false;
      if (owner > 0) {
        try {
          process.kill(owner, 0);
          alive = true;
        } catch {
          alive = false;
        }
      }
      if (!alive && owner > 0) fs.rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      else await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
