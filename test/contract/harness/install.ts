import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as crypto from 'node:crypto';
import { isAlive, run, sleep } from './procs';

/** test/contract/server: its own package.json / package-lock.json pin unleash-server. */
export const SERVER_DIR = path.resolve(__dirname, '..', 'server');

export interface InstallResult {
  /** True when this call ran `npm ci`. */
  installed: boolean;
  /** Time spent installing or waiting for another process's install, in ms. */
  ms: number;
}

function wantedVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(SERVER_DIR, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  return pkg.dependencies['unleash-server'];
}

/** The marker `npm ci` completion leaves behind: unleash-server installed at the pinned version. */
export function isInstalled(): boolean {
  try {
    const installed = JSON.parse(
      fs.readFileSync(path.join(SERVER_DIR, 'node_modules', 'unleash-server', 'package.json'), 'utf8'),
    ) as { version: string };
    return (
      installed.version === wantedVersion() &&
      fs.existsSync(path.join(SERVER_DIR, 'node_modules', '.contract-install-complete'))
    );
  } catch {
    return false;
  }
}

function lockPath(): string {
  const key = crypto.createHash('sha1').update(SERVER_DIR).digest('hex').slice(0, 12);
  return path.join(os.tmpdir(), `unleash-contract-install-${key}.lock`);
}

/** Takes the lock file (O_EXCL); a lock left by a dead process is taken over. */
function tryLock(file: string): boolean {
  try {
    const fd = fs.openSync(file, 'wx');
    fs.writeSync(fd, String(process.pid));
    fs.closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    let owner = NaN;
    try {
      owner = Number(fs.readFileSync(file, 'utf8').trim());
    } catch {
      return false; // being written or removed right now; try again later
    }
    if (Number.isInteger(owner) && owner > 0 && !isAlive(owner)) {
      fs.rmSync(file, { force: true });
      return tryLock(file);
    }
    return false;
  }
}

/**
 * Makes sure test/contract/server/node_modules holds the pinned unleash-server: runs
 * `npm ci --no-audit --no-fund` there the first time (about 40 s, 190 MB). A lock file under
 * os.tmpdir() keeps two test processes from installing at once; the second one waits.
 */
export async function ensureServerInstalled(log: (line: string) => void = () => undefined): Promise<InstallResult> {
  const started = Date.now();
  if (isInstalled()) return { installed: false, ms: 0 };
  const file = lockPath();
  const deadline = Date.now() + 10 * 60_000;
  while (!tryLock(file)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for the install lock ${file}`);
    await sleep(500);
  }
  try {
    if (isInstalled()) return { installed: false, ms: Date.now() - started };
    log(`install: npm ci in ${SERVER_DIR} (first run only, about 40 s)`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    // The lock file pins everything; install scripts stay blocked (package.json `allowScripts`:
    // none of unleash-server's dependencies needs one).
    await run(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: SERVER_DIR });
    fs.writeFileSync(path.join(SERVER_DIR, 'node_modules', '.contract-install-complete'), new Date().toISOString());
    const ms = Date.now() - started;
    log(`install: done in ${ms} ms`);
    return { installed: true, ms };
  } finally {
    fs.rmSync(file, { force: true });
  }
}
