/**
 * A real, seeded Unleash for a person to point the extension at.
 *
 *   npx tsx tools/unleash/local.ts start    (npm run unleash:local)  starts it, prints URL and tokens, returns
 *   npx tsx tools/unleash/local.ts start --server 8.2.0              the same with unleash-server 8.2.0 (default
 *                                                                    UNLEASH_CONTRACT_SERVER, else 7.5.1)
 *   npx tsx tools/unleash/local.ts status                            prints what is running
 *   npx tsx tools/unleash/local.ts stop     (npm run unleash:stop)   stops both servers by pid, removes the temp folder
 *
 * Same server and seed as the contract tests (tools/unleash). Ports 4242 (Unleash) and
 * 55432 (PostgreSQL) are used when free, otherwise free ones. State: <os.tmpdir()>/unleash-local.json.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { launch, parseServerVersion, serverVersionFromEnv, type ServerVersion } from './index';
import { isPostmasterOf, removeDir, stopPostmaster } from './postgres';
import { isAlive } from './procs';
import { isUnleashProcess, stopUnleashPid } from './unleash';

const STATE_FILE = path.join(os.tmpdir(), 'unleash-local.json');
/** This checkout's contract folder: the state file is shared by every checkout on the machine, its servers are not. */
const CHECKOUT = __dirname;

interface LocalState {
  /** The contract folder of the checkout that started it (absent in states written before it was recorded). */
  checkout?: string;
  version: ServerVersion;
  url: string;
  adminToken: string;
  backendToken: string;
  frontendToken: string;
  admin: { username: string; password: string };
  pids: { unleash: number; postgres: number };
  dir: string;
  dataDir: string;
  unleashLog: string;
  startedAt: string;
}

function readState(): LocalState | undefined {
  let state: LocalState;
  try {
    state = JSON.parse(fs.readFileSync(STATE_FILE, 'utf8')) as LocalState;
  } catch {
    return undefined;
  }
  // Another checkout's servers are not this one's to reuse, judge or stop (its start.mjs has another path).
  if (state.checkout !== CHECKOUT) {
    throw new Error(
      `${STATE_FILE} describes a local Unleash started from ${state.checkout ?? 'another checkout'} (pids unleash ` +
        `${state.pids.unleash}, postgres ${state.pids.postgres}): stop it from there, or remove the file if neither runs.`,
    );
  }
  return state;
}

function describe(s: LocalState): string {
  return [
    `Unleash (real, open source ${s.version}) is running at ${s.url}`,
    `  web UI login:   ${s.admin.username} / ${s.admin.password}`,
    `  admin token:    ${s.adminToken}`,
    `  backend token:  ${s.backendToken}`,
    `  frontend token: ${s.frontendToken}`,
    `  pids:           unleash ${s.pids.unleash}, postgres ${s.pids.postgres}`,
    `  server log:     ${s.unleashLog}`,
    `Stop it with:     npm run unleash:stop   (or: npx tsx tools/unleash/local.ts stop)`,
  ].join('\n');
}

/** `--server <version>` or `--server=<version>` after the command, else UNLEASH_CONTRACT_SERVER, else 7.5.1. */
function requestedVersion(args: string[]): ServerVersion {
  const at = args.findIndex((arg) => arg === '--server' || arg.startsWith('--server='));
  if (at < 0) return serverVersionFromEnv();
  const value = args[at] === '--server' ? (args[at + 1] ?? '') : args[at].slice('--server='.length);
  return parseServerVersion(value, '--server');
}

async function start(): Promise<void> {
  const existing = readState();
  if (existing && (isUnleashProcess(existing.pids.unleash) || isPostmasterOf(existing.pids.postgres, existing.dataDir))) {
    console.log(`Already running (state in ${STATE_FILE}).\n${describe(existing)}`);
    return;
  }
  if (existing) fs.rmSync(STATE_FILE, { force: true });
  const u = await launch({
    version: requestedVersion(process.argv.slice(3)),
    detached: true,
    seed: true,
    preferredPorts: { unleash: 4242, postgres: 55432 },
    log: (line) => {
      if (!line.startsWith('unleash: ')) console.log(line);
    },
  });
  const state: LocalState = {
    checkout: CHECKOUT,
    version: u.version,
    url: u.url,
    adminToken: u.adminToken,
    backendToken: u.backendToken,
    frontendToken: u.frontendToken,
    admin: u.admin,
    pids: u.pids,
    dir: u.dir,
    dataDir: path.join(u.dir, 'pgdata'),
    unleashLog: path.join(u.dir, 'unleash.log'),
    startedAt: new Date().toISOString(),
  };
  fs.writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
  console.log(
    `Started in ${(u.timings.totalMs / 1000).toFixed(1)} s (postgres ${u.timings.postgresMs} ms, unleash ${u.startMs} ms, seed ${u.seedMs} ms).\n${describe(state)}`,
  );
}

async function stop(): Promise<void> {
  const s = readState();
  if (!s) {
    console.log(`Nothing to stop (no ${STATE_FILE}).`);
    return;
  }
  if (isUnleashProcess(s.pids.unleash)) {
    await stopUnleashPid(s.pids.unleash);
    console.log(`Stopped Unleash (pid ${s.pids.unleash}).`);
  }
  if (isPostmasterOf(s.pids.postgres, s.dataDir)) {
    await stopPostmaster(s.pids.postgres, s.dataDir);
    console.log(`Stopped PostgreSQL (pid ${s.pids.postgres}).`);
  }
  if (isAlive(s.pids.unleash) && isUnleashProcess(s.pids.unleash)) throw new Error(`Unleash ${s.pids.unleash} is still running`);
  removeDir(s.dir);
  fs.rmSync(STATE_FILE, { force: true });
  console.log(`Removed ${s.dir}.`);
}

function status(): void {
  const s = readState();
  if (!s) {
    console.log('Not running.');
    return;
  }
  const up = isUnleashProcess(s.pids.unleash);
  const pgUp = isPostmasterOf(s.pids.postgres, s.dataDir);
  console.log(up && pgUp ? describe(s) : `Partly or not running (unleash ${up ? 'up' : 'down'}, postgres ${pgUp ? 'up' : 'down'}); run stop to clean up.`);
}

const command = process.argv[2];
const commands: Record<string, () => Promise<void> | void> = { start, stop, status };
const fn = command ? commands[command] : undefined;
if (!fn) {
  console.error('usage: tsx tools/unleash/local.ts start [--server 7.5.1|8.2.0] | stop | status');
  process.exit(2);
}
Promise.resolve(fn()).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
