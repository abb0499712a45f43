/**
 * One window of bench/activation.bench.ts, in a process of its own (bundled by it, run with plain `node`):
 *   node activation.child.js <dist folder> <workspace folder> <server|offline|web>
 * Loads dist/extension.js over the 'vscode' stand-in (`web`: dist/web/extension.js, the browser build, in a context
 * with only a web worker's globals), activates it, waits for the connection's first evaluation, then needs the flags
 * once (`store.load()`, what the Flags view does) and prints one JSON line: activation, whether core.js was loaded
 * before the need, and the times from the need to the first listing request and to the flags.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ExtensionApi } from '../src/extension';
import type { BrowserExtensionApi } from '../src/extension.browser';
import { startFaultServer } from '../test/support/faultServer';
import { installFakeVscode } from '../test/support/fakeVscode';
import { runInWorkerContext } from '../test/support/webWorker';

export interface WindowResult {
  mode: 'server' | 'offline' | 'web';
  /** Loading the bundle and activate() (ExtensionApi.activationMs). */
  activationMs: number;
  bundleLoadMs: number;
  /** Whether dist/core.js was in the module cache once the connection had evaluated, before any need. */
  coreLoadedBeforeNeed: boolean;
  /** From `store.load()` to the first listing request the server received (server mode). */
  needToRequestMs?: number;
  /** Of that, reading the operating system's certificates (`http.systemCertificates`), as the extension logs it. */
  systemCertificatesMs?: number;
  /** From `store.load()` to the flags in the store. */
  needToFlagsMs: number;
  flags: number;
}

const FLAGS = Array.from({ length: 1_000 }, (_, i) => ({
  name: `bench-flag-${String(i).padStart(4, '0')}`,
  project: 'default',
  type: 'release',
  environments: [{ name: 'development', enabled: i % 2 === 0, type: 'development', sortOrder: 1 }],
}));

/** What reading the system's certificates took, from the log line of the connection. */
function systemCertificates(lines: readonly string[]): { systemCertificatesMs?: number } {
  const logged = lines.map((line) => /System certificates: .*\(([\d.]+) ms\)/.exec(line)?.[1]).find((ms) => ms !== undefined);
  return logged === undefined ? {} : { systemCertificatesMs: Number(logged) };
}

async function main(): Promise<void> {
  const [dist = '', folder = '', mode = 'server'] = process.argv.slice(2);
  // What an extension host has loaded before any extension: Node's own modules the bundles need at start-up.
  for (const builtin of ['node:crypto', 'node:fs', 'node:fs/promises', 'node:net', 'node:path']) require(builtin);
  const fake = installFakeVscode(folder);
  let firstRequest: number | undefined;
  const server = await startFaultServer({
    handler: (request) => {
      firstRequest ??= performance.now();
      if (request.path === '/api/admin/search/features') {
        const offset = Number(request.query.get('offset') ?? 0);
        const limit = Number(request.query.get('limit') ?? 100);
        return { body: { features: FLAGS.slice(offset, offset + limit), total: FLAGS.length } };
      }
      if (request.path === '/api/admin/projects') return { body: { version: 1, projects: [{ id: 'default' }] } };
      if (request.path === '/api/admin/projects/default/features') return { body: { version: 2, features: FLAGS.map(({ project: _, ...row }) => row) } };
      return { status: 404, body: { message: `not here: ${request.path}` } };
    },
  });
  if (mode === 'server') {
    fake.set('user', 'unleash.serverUrl', server.url);
    process.env.UNLEASH_API_TOKEN = '*:*.bench-admin-token';
  }
  const core = path.join(dist, 'core.js');
  type Activate = { activate(context: unknown): Pick<ExtensionApi & BrowserExtensionApi, 'store' | 'activationMs' | 'bundleLoadMs'> };
  const web = path.join(dist, 'web', 'extension.js');
  const extension =
    mode === 'web'
      ? runInWorkerContext<Activate>(fs.readFileSync(web, 'utf8'), web, fake.vscode)
      : // eslint-disable-next-line @typescript-eslint/no-require-imports
        (require(path.join(dist, 'extension.js')) as Activate);
  const context = { subscriptions: [] as Array<{ dispose(): unknown }>, secrets: fake.secretStorage, globalState: fake.globalState };
  const api = extension.activate(context);
  for (let waited = 0; api.store.currentSource === undefined && waited < 10_000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
  const coreLoadedBeforeNeed = core in require.cache;
  firstRequest = undefined;
  const need = performance.now();
  await api.store.load();
  const listed = performance.now();
  if (api.store.state !== 'ready') throw new Error(`the store is ${api.store.state}, not ready: ${String(api.store.error)}`);
  const result: WindowResult = {
    mode: mode === 'server' || mode === 'web' ? mode : 'offline',
    activationMs: api.activationMs,
    bundleLoadMs: api.bundleLoadMs,
    coreLoadedBeforeNeed,
    ...(mode === 'server' && firstRequest !== undefined ? { needToRequestMs: firstRequest - need } : {}),
    ...systemCertificates(fake.logLines),
    needToFlagsMs: listed - need,
    flags: api.store.catalog.size,
  };
  console.log(JSON.stringify(result));
  for (const disposable of context.subscriptions) disposable.dispose();
  await server.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
