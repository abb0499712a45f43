/**
 * Starts a REAL open-source Unleash (unleash-server 7.5.1 from tools/unleash/server, or 8.2.0 from
 * tools/unleash/server-8: see versions.ts) on a throw-away PostgreSQL, both on 127.0.0.1, optionally
 * seeded with SEED. See test/contract/README.md.
 *
 *   const unleash = await startRealUnleash();
 *   ... fetch(`${unleash.url}/api/admin/...`, { headers: { Authorization: unleash.adminToken } }) ...
 *   await unleash.stop();
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureServerInstalled } from './install';
import { freePort, preferredOrFreePort } from './ports';
import {
  TEMP_PREFIX,
  isPostmasterOf,
  readPostmasterPid,
  removeDir,
  startPostgres,
  stopPostmaster,
  stopPostmasterSync,
  type RunningPostgres,
} from './postgres';
import { isAlive, signal } from './procs';
import { createApiTokens, seed as runSeed, type SeededIds } from './seed';
import { isUnleashProcess, startUnleashProcess, stopUnleashPid, type RunningUnleashProcess } from './unleash';
import { serverVersionFromEnv, type ServerVersion } from './versions';

export { SEED } from './seed-data';
export * from './seed-data';
export type { SeededIds } from './seed';
export { readSeededIds, verifySeed } from './verify';
export * from './versions';

export interface RealUnleash {
  /** The unleash-server generation running. */
  version: ServerVersion;
  /** http://127.0.0.1:<port>, no trailing slash. */
  url: string;
  /** `*:*.<hex>`: the init admin API token. Send as `Authorization: <token>`. */
  adminToken: string;
  /** A backend token (development, all projects), created through the Admin API. */
  backendToken: string;
  /** A frontend token (development, all projects), created through the Admin API. */
  frontendToken: string;
  /** Unleash process spawn → /health GOOD, in ms (migrations on an empty DB included). */
  startMs: number;
  /** The seed, in ms (0 without the seed). */
  seedMs: number;
  pids: { unleash: number; postgres: number };
  /** Server-generated ids of what the seed created (empty maps without the seed). */
  seeded: SeededIds;
  /** The web UI login (username admin). */
  admin: { username: string; password: string };
  timings: { installMs: number; installed: boolean; postgresMs: number; unleashMs: number; seedMs: number; totalMs: number };
  /** The temp folder (database, sockets, logs); removed by stop(). */
  dir: string;
  /** The database Unleash uses (bench: pg_dump it). */
  postgres: Pick<RunningPostgres, 'host' | 'port' | 'user' | 'database' | 'binDir' | 'psql'>;
  /** Stops Unleash, then PostgreSQL (both by pid), and removes the temp folder. Idempotent. */
  stop(): Promise<void>;
}

interface StartRealUnleashOptions {
  /** Which unleash-server (default: UNLEASH_CONTRACT_SERVER, else 7.5.1). */
  version?: ServerVersion;
  /** Create SEED (default true). The backend/frontend tokens are created either way. */
  seed?: boolean;
  /** Harness progress and the server's own output (default: discarded). */
  log?: (line: string) => void;
  /**
   * Searches a minute one client address may make (unleash-server 8's `SEARCH_FEATURES_RATE_LIMIT_PER_MINUTE`;
   * the server's own default is 15, and 7.x has no such limit). The test suites raise it (SUITE_SEARCH_RATE_LIMIT):
   * they list flags far more often than a person does. Left unset, the server's default applies.
   */
  searchRateLimit?: number;
}

/** What the test suites allow: enough for every listing of a whole contract or e2e run. */
export const SUITE_SEARCH_RATE_LIMIT = 100_000;

/** Extra knobs for tools/unleash/local.ts. */
interface LaunchOptions extends StartRealUnleashOptions {
  /** Leave the servers running when this process exits (no exit hooks, Unleash in its own process group). */
  detached?: boolean;
  preferredPorts?: { unleash?: number; postgres?: number };
  /** Unleash log level (default warn). */
  logLevel?: 'debug' | 'info' | 'warn' | 'error' | 'fatal';
  /** Extra environment for the Unleash process (bench: `UNLEASH_FEATURE_FLAGS_LIMIT`). */
  serverEnv?: Record<string, string>;
  /** How long Unleash may take to report healthy (default 90 s; the bench allows more on a busy machine). */
  startTimeoutMs?: number;
  /** Runs on the empty database before Unleash starts (bench: restore a cached dump). */
  beforeUnleash?: (postgres: RunningPostgres) => Promise<void>;
}

const OWNER_FILE = 'owner.json';

interface OwnerRecord {
  /** Pid of the test process that owns the servers; null for a detached (local) instance. */
  ownerPid: number | null;
  unleashPid?: number;
  postgresPid?: number;
  dataDir?: string;
  url?: string;
}

function writeOwner(dir: string, record: OwnerRecord): void {
  fs.writeFileSync(path.join(dir, OWNER_FILE), JSON.stringify(record, null, 2));
}

// ------------------------------------------------------------ cleanup on exit / signals

interface Live {
  dir: string;
  postgres?: { pid: number; dataDir: string };
  unleashPid?: number;
  stop(): Promise<void>;
}
const live = new Set<Live>();
let hooksInstalled = false;

function onExit(): void {
  // Synchronous only: the event loop is gone.
  for (const l of live) {
    if (l.unleashPid !== undefined && isUnleashProcess(l.unleashPid)) signal(l.unleashPid, 'SIGKILL');
    if (l.postgres) stopPostmasterSync(l.postgres.pid, l.postgres.dataDir);
    try {
      removeDir(l.dir);
    } catch {
      // best effort
    }
  }
  live.clear();
}

function onSignal(sig: NodeJS.Signals): void {
  void Promise.allSettled([...live].map((l) => l.stop())).then(() => {
    uninstallHooks();
    // Re-raise so the process ends the way it would have without us.
    process.kill(process.pid, sig);
  });
}
const onSigint = (): void => onSignal('SIGINT');
const onSigterm = (): void => onSignal('SIGTERM');
const onSighup = (): void => onSignal('SIGHUP');

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', onExit);
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  process.on('SIGHUP', onSighup);
}

function uninstallHooks(): void {
  if (!hooksInstalled) return;
  hooksInstalled = false;
  process.off('exit', onExit);
  process.off('SIGINT', onSigint);
  process.off('SIGTERM', onSigterm);
  process.off('SIGHUP', onSighup);
}

/**
 * Removes what an earlier test process left behind when it was killed with SIGKILL (the only
 * way past the exit hooks): temp folders whose owner pid is dead. Detached (local) instances
 * are left alone. Pids are only signalled after checking they still are our servers.
 */
async function sweepStale(log: (line: string) => void = () => undefined): Promise<void> {
  let entries: string[];
  try {
    entries = fs.readdirSync(os.tmpdir()).filter((e) => e.startsWith(TEMP_PREFIX) && !e.endsWith('.lock'));
  } catch {
    return;
  }
  for (const entry of entries) {
    const dir = path.join(os.tmpdir(), entry);
    let record: OwnerRecord | undefined;
    try {
      record = JSON.parse(fs.readFileSync(path.join(dir, OWNER_FILE), 'utf8')) as OwnerRecord;
    } catch {
      // No owner file: a start that died before writing it. Only clean it once it is old.
      try {
        if (Date.now() - fs.statSync(dir).mtimeMs < 10 * 60_000) continue;
      } catch {
        continue;
      }
    }
    if (record && (record.ownerPid === null || isAlive(record.ownerPid))) continue;
    const dataDir = record?.dataDir ?? path.join(dir, 'pgdata');
    log(`harness: removing leftovers of a dead test process in ${dir}`);
    if (record?.unleashPid !== undefined) await stopUnleashPid(record.unleashPid);
    const pgPid = record?.postgresPid ?? readPostmasterPid(dataDir);
    if (pgPid !== undefined && isPostmasterOf(pgPid, dataDir)) await stopPostmaster(pgPid, dataDir);
    removeDir(dir);
  }
}

// ------------------------------------------------------------ start

export function startRealUnleash(options: StartRealUnleashOptions = {}): Promise<RealUnleash> {
  return launch(options);
}

/** startRealUnleash with the extra knobs local.ts needs. */
export async function launch(options: LaunchOptions = {}): Promise<RealUnleash> {
  const t0 = Date.now();
  const log = options.log ?? (() => undefined);
  const detached = Boolean(options.detached);
  const version = options.version ?? serverVersionFromEnv();

  await sweepStale(log);
  const install = await ensureServerInstalled(version, log);

  const adminToken = `*:*.${crypto.randomBytes(16).toString('hex')}`;
  const admin = { username: 'admin', password: 'unleash4all' };

  let pg: RunningPostgres | undefined;
  let server: RunningUnleashProcess | undefined;
  let stopping: Promise<void> | undefined;
  const entry: Live = {
    dir: '',
    stop: () => {
      stopping ??= (async () => {
        try {
          if (server) await server.stop();
          else if (entry.unleashPid !== undefined) await stopUnleashPid(entry.unleashPid);
        } finally {
          if (pg) await pg.stop();
          live.delete(entry);
          if (live.size === 0) uninstallHooks();
        }
      })();
      return stopping;
    },
  };

  try {
    pg = await startPostgres({ preferredPort: options.preferredPorts?.postgres, log });
    entry.dir = pg.dir;
    entry.postgres = { pid: pg.pid, dataDir: pg.dataDir };
    if (!detached) {
      live.add(entry);
      installHooks();
    }
    const owner: OwnerRecord = { ownerPid: detached ? null : process.pid, postgresPid: pg.pid, dataDir: pg.dataDir };
    writeOwner(pg.dir, owner);
    await options.beforeUnleash?.(pg);

    for (let attempt = 1; ; attempt++) {
      const port = attempt === 1 ? await preferredOrFreePort(options.preferredPorts?.unleash) : await freePort();
      try {
        server = await startUnleashProcess({
          version,
          db: { host: pg.host, port: pg.port, user: pg.user, database: pg.database },
          port,
          adminToken,
          adminPassword: admin.password,
          logLevel: options.logLevel,
          log: (line) => log(`unleash: ${line}`),
          detached,
          logFile: path.join(pg.dir, 'unleash.log'),
          env: {
            ...(options.searchRateLimit === undefined ? {} : { SEARCH_FEATURES_RATE_LIMIT_PER_MINUTE: String(options.searchRateLimit) }),
            ...options.serverEnv,
          },
          timeoutMs: options.startTimeoutMs,
        });
        break;
      } catch (err) {
        if (attempt < 3 && /EADDRINUSE/.test(String(err))) {
          log(`unleash: port ${port} was taken, retrying`);
          continue;
        }
        throw err;
      }
    }
    entry.unleashPid = server.pid;
    writeOwner(pg.dir, { ...owner, unleashPid: server.pid, url: server.url });
    log(`unleash: pid ${server.pid} healthy at ${server.url} after ${server.startMs} ms`);

    let seeded: SeededIds = { strategyIds: {}, segmentIds: {} as SeededIds['segmentIds'], linkIds: {} };
    let seedMs = 0;
    const seedStarted = Date.now();
    if (options.seed !== false) {
      const result = await runSeed({ url: server.url, adminToken, psql: pg.psql, log });
      seeded = result.ids;
    }
    const tokens = await createApiTokens(server.url, adminToken);
    seedMs = Date.now() - seedStarted;

    const totalMs = Date.now() - t0;
    return {
      version,
      url: server.url,
      adminToken,
      backendToken: tokens.backendToken,
      frontendToken: tokens.frontendToken,
      startMs: server.startMs,
      seedMs,
      pids: { unleash: server.pid, postgres: pg.pid },
      seeded,
      admin,
      timings: {
        installMs: install.ms,
        installed: install.installed,
        postgresMs: pg.startMs,
        unleashMs: server.startMs,
        seedMs,
        totalMs,
      },
      dir: pg.dir,
      postgres: { host: pg.host, port: pg.port, user: pg.user, database: pg.database, binDir: pg.binDir, psql: pg.psql },
      stop: entry.stop,
    };
  } catch (err) {
    // Whatever was started is stopped before the error propagates.
    try {
      await entry.stop();
    } catch (stopErr) {
      log(`harness: cleanup after a failed start also failed: ${String(stopErr)}`);
    }
    throw err;
  }
}
