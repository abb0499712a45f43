/**
 * How long a Refresh takes to say "out of date" when the server has stopped (nothing listens on its port any more,
 * every connection refused), by how many projects the last listing found (each listed with a request of its own):
 * the store, its server source and the client as the extension builds them (default retries: 2, backing off from
 * 400 ms), a first load from a local stand-in, which then closes. Also how many attempts were retried. Asserts nothing.
 *
 *   npx tsx bench/refusedRefresh.bench.ts [--runs 3]
 */
import { UnleashClient } from '../src/api/client';
import { FlagStore } from '../src/model/store/flagStore';
import { ServerSource } from '../src/services/serverSource';
import { startFaultServer } from '../test/support/faultServer';

const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;

/** One Refresh against a closed port after a first load that found `projects` projects: ms, and retries. */
async function refreshRefused(projects: number): Promise<{ ms: number; retries: number; outOfDate: boolean }> {
  const ids = Array.from({ length: projects }, (_, i) => (i === 0 ? 'default' : `project-${i}`));
  const server = await startFaultServer({
    handler: (request) => {
      if (request.path === '/api/admin/ui-config') return { body: { version: '7.5.1', environment: 'Enterprise' } };
      if (request.path === '/api/admin/projects') return { body: { projects: ids.map((id) => ({ id })) } };
      const listing = /^\/api\/admin\/projects\/([^/]+)\/features$/.exec(request.path);
      if (listing) return { body: { version: 2, features: [{ name: `${listing[1]}-flag`, type: 'release', environments: [] }] } };
      if (request.path === '/api/admin/search/features') return { body: { features: [], total: 0 } };
      return { status: 404, body: { message: 'not here' } };
    },
  });
  let retries = 0;
  const client = new UnleashClient({ baseUrl: server.url, getToken: () => 'bench-token-0123456789abcdef', onEvent: (event) => void (event.kind === 'retry' && retries++) });
  const store = new FlagStore({ info() {}, error() {} });
  try {
    void store.load();
    await store.setSource(new ServerSource(client, [], ''), 'ready');
    if (store.catalog.size !== projects) throw new Error(`the first load listed ${store.catalog.size} flags, not ${projects}`);
    await server.close();
    retries = 0;
    const started = performance.now();
    await store.refresh();
    return { ms: performance.now() - started, retries, outOfDate: store.outOfDate !== undefined };
  } finally {
    store.dispose();
    await client.close();
  }
}

async function main(): Promise<void> {
  for (const projects of [2, 12, 40]) {
    const results = [];
    for (let run = 0; run < runs; run++) results.push(await refreshRefused(projects));
    const ms = results.map((result) => result.ms).sort((a, b) => a - b);
    const median = ms[Math.floor(ms.length / 2)] ?? 0;
    const said = results.every((result) => result.outOfDate) ? 'out of date' : 'NOT out of date';
    console.log(`${projects} projects: ${median.toFixed(0)} ms (median of ${runs}; ${ms.map((m) => m.toFixed(0)).join(', ')}), ${results[0]?.retries} retries, then ${said}`);
  }
}

void main();
