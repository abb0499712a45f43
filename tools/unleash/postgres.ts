import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { commandLine, isAlive, run, signal, waitForExit } from './procs';
import { freePort, preferredOrFreePort } from './ports';

/** Prefix of every temp folder the harness creates under os.tmpdir(). */
export const TEMP_PREFIX = 'unleash-contract-';

export interface RunningPostgres {
  host: '127.0.0.1';
  port: number;
  user: 'unleash';
  database: 'unleash';
  /** The temp folder holding everything (data dir, socket dir, logs). Removed by stop(). */
  dir: string;
  dataDir: string;
  socketDir: string;
  binDir: string;
  /** Postmaster pid, read from postmaster.pid. */
  pid: number;
  /** initdb + start + role/database creation, in ms. */
  startMs: number;
  /** Runs SQL (one or many statements, stops on the first error) as `unleash` in database `unleash`. */
  psql(sql: string): Promise<string>;
  /** Stops the postmaster by pid and removes `dir`. Idempotent. */
  stop(): Promise<void>;
}

interface StartPostgresOptions {
  /** Used when free; otherwise a free port is picked. */
  preferredPort?: number;
  log?: (line: string) => void;
}

/** The folder with initdb, pg_ctl, postgres and psql. `PG_BIN_DIR` wins; else the newest Debian install. */
function findPostgresBinDir(): string {
  const candidates: string[] = [];
  if (process.env.PG_BIN_DIR) candidates.push(process.env.PG_BIN_DIR);
  const debianRoot = '/usr/lib/postgresql';
  if (fs.existsSync(debianRoot)) {
    const versions = fs
      .readdirSync(debianRoot)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(path.join(debianRoot, v, 'bin'));
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) if (dir) candidates.push(dir);
  for (const dir of candidates) {
    if (['initdb', 'pg_ctl', 'postgres', 'psql'].every((b) => fs.existsSync(path.join(dir, b)))) return dir;
  }
  throw new Error(
    'PostgreSQL server binaries (initdb, pg_ctl, postgres, psql) not found. Install them ' +
      '(Debian: apt-get install -y postgresql) or set PG_BIN_DIR.',
  );
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

/** initdb refuses to run as root, so as root every server-side command runs as the `postgres` user. */
function asPostgresUser(binary: string, args: string[]): [string, string[]] {
  return isRoot() ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, args];
}

function postgresIds(): { uid: number; gid: number } {
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) {
    throw new Error('running as root but there is no `postgres` OS user (apt-get install -y postgresql creates it)');
  }
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

export function readPostmasterPid(dataDir: string): number | undefined {
  try {
    const first = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0];
    const pid = Number(first);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** True when `pid` is a postgres process serving `dataDir` (guards against a recycled pid). */
export function isPostmasterOf(pid: number, dataDir: string): boolean {
  if (!isAlive(pid)) return false;
  const cmd = commandLine(pid);
  return cmd === undefined || (cmd.includes('postgres') && cmd.includes(dataDir));
}

/**
 * Stops a postmaster by pid: SIGINT (fast shutdown: disconnect clients, no checkpoint wait),
 * then SIGQUIT (immediate), then SIGKILL. Resolves when it has exited.
 */
export async function stopPostmaster(pid: number, dataDir: string): Promise<void> {
  if (!isPostmasterOf(pid, dataDir)) return;
  signal(pid, 'SIGINT');
  if (await waitForExit(pid, 10_000)) return;
  signal(pid, 'SIGQUIT');
  if (await waitForExit(pid, 5_000)) return;
  signal(pid, 'SIGKILL');
  if (!(await waitForExit(pid, 5_000))) throw new Error(`postgres ${pid} did not exit`);
}

/** Synchronous last-resort variant for process 'exit' handlers: immediate shutdown, no waiting for long. */
export function stopPostmasterSync(pid: number, dataDir: string): void {
  if (!isPostmasterOf(pid, dataDir)) return;
  signal(pid, 'SIGQUIT');
  const deadline = Date.now() + 3000;
  while (isAlive(pid) && Date.now() < deadline) spawnSync('sleep', ['0.05']);
  if (isAlive(pid)) signal(pid, 'SIGKILL');
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
}

/**
 * initdb into a fresh folder under os.tmpdir(), start a postmaster on 127.0.0.1 (trust auth,
 * unix socket inside the folder, durability switched off for speed), create role+db `unleash`.
 * If anything fails, whatever was started is stopped and the folder removed before rejecting.
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<RunningPostgres> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const binDir = findPostgresBinDir();
  const bin = (name: string): string => path.join(binDir, name);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), TEMP_PREFIX));
  const dataDir = path.join(dir, 'pgdata');
  const socketDir = path.join(dir, 'sock');
  const logFile = path.join(dir, 'postgres.log');
  let pid: number | undefined;

  const cleanup = async (): Promise<void> => {
    const p = pid ?? readPostmasterPid(dataDir);
    if (p !== undefined) await stopPostmaster(p, dataDir);
    removeDir(dir);
  };

  try {
    fs.mkdirSync(socketDir);
    if (isRoot()) {
      const { uid, gid } = postgresIds();
      fs.chownSync(dir, uid, gid);
      fs.chownSync(socketDir, uid, gid);
    }
    const [initCmd, initArgs] = asPostgresUser(bin('initdb'), [
      '-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync', '--no-instructions',
    ]);
    await run(initCmd, initArgs, { env: { ...process.env, LC_ALL: 'C.UTF-8' } });

    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = attempt === 1 ? await preferredOrFreePort(options.preferredPort) : await freePort();
      // Settings go to postgresql.auto.conf (read after postgresql.conf), owned by postgres.
      fs.writeFileSync(path.join(dataDir, 'postgresql.auto.conf'), postgresSettings(port, socketDir));
      if (isRoot()) {
        const { uid, gid } = postgresIds();
        fs.chownSync(path.join(dataDir, 'postgresql.auto.conf'), uid, gid);
      }
      const [ctlCmd, ctlArgs] = asPostgresUser(bin('pg_ctl'), ['start', '-w', '-t', '60', '-D', dataDir, '-l', logFile]);
      const result = await run(ctlCmd, ctlArgs, { allowFailure: true });
      if (result.code === 0) break;
      const pgLog = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
      if (attempt < 3 && /could not bind|Address already in use/i.test(pgLog)) {
        log(`postgres: port ${port} was taken, retrying on another port`);
        continue;
      }
      throw new Error(`pg_ctl start failed (${result.code}):\n${result.stdout}${result.stderr}\n--- postgres.log ---\n${pgLog}`);
    }
    pid = readPostmasterPid(dataDir);
    if (pid === undefined) throw new Error(`postgres started but ${dataDir}/postmaster.pid is unreadable`);

    await run(bin('psql'), [
      '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres',
      '-c', 'CREATE ROLE unleash LOGIN',
      '-c', 'CREATE DATABASE unleash OWNER unleash',
    ]);
    const startMs = Date.now() - started;
    log(`postgres: pid ${pid} on 127.0.0.1:${port} ready in ${startMs} ms (${dir})`);

    let stopped: Promise<void> | undefined;
    const postmasterPid = pid;
    return {
      host: '127.0.0.1',
      port,
      user: 'unleash',
      database: 'unleash',
      dir,
      dataDir,
      socketDir,
      binDir,
      pid: postmasterPid,
      startMs,
      psql: async (sql: string) =>
        (
          await run(
            bin('psql'),
            ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port), '-U', 'unleash', '-d', 'unleash', '-f', '-'],
            { input: sql },
          )
        ).stdout,
      stop: () => {
        stopped ??= (async () => {
          await stopPostmaster(postmasterPid, dataDir);
          removeDir(dir);
        })();
        return stopped;
      },
    };
  } catch (err) {
    try {
      await cleanup();
    } catch (cleanupErr) {
      log(`postgres: cleanup after failed start also failed: ${String(cleanupErr)}`);
    }
    throw err;
  }
}

function postgresSettings(port: number, socketDir: string): string {
  return [
    '# written by tools/unleash/postgres.ts: a throw-away test database',
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${socketDir.replace(/'/g, "''")}'`,
    'fsync = off',
    'synchronous_commit = off',
    'full_page_writes = off',
    'max_connections = 50',
    "log_min_messages = 'warning'",
    '',
  ].join('\n');
}
