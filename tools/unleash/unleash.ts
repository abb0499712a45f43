import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commandLine, isAlive, sleep, stopPid } from './procs';
import { SERVER_DIR } from './install';
import { DEFAULT_SERVER_VERSION, serverGeneration, type ServerVersion } from './versions';

interface UnleashProcessOptions {
  /** Which unleash-server (default 7.5.1): its folder and its Node (versions.ts). */
  version?: ServerVersion;
  db: { host: string; port: number; user: string; database: string };
  port: number;
  adminToken: string;
  adminPassword: string;
  /** Unleash's own log level (default warn). */
  logLevel?: 'debug' | 'info' | 'warn' | 'error' | 'fatal';
  /** Receives every line the server prints. */
  log?: (line: string) => void;
  /**
   * Detached: own process group, output to `logFile`, survives the parent (for local.ts).
   * Attached (default): output piped to `log`, and the server exits when its parent disappears.
   */
  detached?: boolean;
  logFile?: string;
  /** Health wait limit (default 90 s). */
  timeoutMs?: number;
  /** Extra environment for the server, e.g. `UNLEASH_FEATURE_FLAGS_LIMIT` (the bench raises it). */
  env?: Record<string, string>;
}

export interface RunningUnleashProcess {
  url: string;
  pid: number;
  /** Spawn → GET /health answered {"health":"GOOD"}, in ms. */
  startMs: number;
  /** SIGTERM, then SIGKILL after 10 s. Idempotent. */
  stop(): Promise<void>;
}

/** One start script for every generation: it loads the unleash-server of CONTRACT_SERVER_DIR. */
const START_SCRIPT = path.join(SERVER_DIR, 'start.mjs');

/** Environment for the server: a small allow-list, so a developer's DATABASE_URL etc. cannot leak in. */
function serverEnv(o: UnleashProcessOptions, serverDir: string): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'SystemRoot'];
  const env: NodeJS.ProcessEnv = {};
  for (const k of keep) if (process.env[k] !== undefined) env[k] = process.env[k];
  return {
    ...env,
    TZ: 'UTC',
    NODE_ENV: 'production',
    NODE_OPTIONS: '--no-deprecation',
    SEND_TELEMETRY: 'false',
    CHECK_VERSION: 'false',
    UNLEASH_EXPERIMENTAL_ENABLE_LEGACY_VARIANTS: 'true',
    CONTRACT_SERVER_DIR: serverDir,
    CONTRACT_DB_HOST: o.db.host,
    CONTRACT_DB_PORT: String(o.db.port),
    CONTRACT_DB_USER: o.db.user,
    CONTRACT_DB_NAME: o.db.database,
    CONTRACT_HTTP_PORT: String(o.port),
    CONTRACT_ADMIN_TOKEN: o.adminToken,
    CONTRACT_ADMIN_PASSWORD: o.adminPassword,
    CONTRACT_LOG_LEVEL: o.logLevel ?? 'warn',
    CONTRACT_WATCH_PARENT: o.detached ? '0' : '1',
    ...o.env,
  };
}

/** True when `pid` is our `node start.mjs` (guards against a recycled pid). */
export function isUnleashProcess(pid: number): boolean {
  if (!isAlive(pid)) return false;
  const cmd = commandLine(pid);
  return cmd === undefined || cmd.includes(START_SCRIPT);
}

export async function stopUnleashPid(pid: number): Promise<void> {
  if (!isUnleashProcess(pid)) return;
  await stopPid(pid, 'SIGTERM', 10_000);
}

/**
 * Spawns `node start.mjs` and polls GET /health until {"health":"GOOD"}.
 * If the server exits or the wait times out, it is stopped and the promise rejects with its output.
 */
export async function startUnleashProcess(o: UnleashProcessOptions): Promise<RunningUnleashProcess> {
  const url = `http://127.0.0.1:${o.port}`;
  const started = Date.now();
  const tail: string[] = [];
  const onLine = (line: string): void => {
    tail.push(line);
    if (tail.length > 60) tail.shift();
    o.log?.(line);
  };

  const generation = serverGeneration(o.version ?? DEFAULT_SERVER_VERSION);
  let outFd: number | undefined;
  if (o.detached) outFd = fs.openSync(o.logFile ?? path.join(generation.dir, 'unleash.log'), 'a');
  const child = spawn(generation.node, [START_SCRIPT], {
    cwd: generation.dir,
    env: serverEnv(o, generation.dir),
    detached: Boolean(o.detached),
    stdio: o.detached ? ['ignore', outFd, outFd] : ['ignore', 'pipe', 'pipe'],
  });
  if (outFd !== undefined) fs.closeSync(outFd);
  const pid = child.pid;
  if (pid === undefined) {
    await new Promise((r) => child.once('error', r));
    throw new Error(`could not spawn ${generation.node} ${START_SCRIPT}`);
  }
  let exited: string | undefined;
  child.once('exit', (code, sig) => (exited = `exited with ${sig ?? code}`));
  if (!o.detached) {
    for (const stream of [child.stdout, child.stderr]) {
      let buf = '';
      stream?.setEncoding('utf8').on('data', (d: string) => {
        buf += d;
        const lines = buf.split('\n');
        buf = lines.pop() ?? '';
        for (const l of lines) onLine(l);
      });
    }
  } else {
    child.unref();
  }

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopped ??= stopPid(pid, 'SIGTERM', 10_000));

  const deadline = started + (o.timeoutMs ?? 90_000);
  for (;;) {
    if (exited !== undefined || (o.detached && !isAlive(pid))) {
      const logText = o.detached && o.logFile ? readTail(o.logFile) : tail.join('\n');
      throw new Error(`Unleash ${exited ?? 'exited'} before becoming healthy.\n--- server output ---\n${logText}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Unleash did not report healthy within ${o.timeoutMs ?? 90_000} ms.\n${tail.join('\n')}`);
    }
    try {
      const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok && ((await res.json()) as { health?: string }).health === 'GOOD') break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  return { url, pid, startMs: Date.now() - started, stop };
}

function readTail(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-60).join('\n');
  } catch {
    return '';
  }
}
