/**
 * The largest project listing the extension host parses itself rather than in the worker (src/api/answerOnHost.ts):
 * within every budget, just under its bounds of bytes and values, its rows as full of what the schema checks as a
 * listing row gets (ten environments each). The Flags view's first load runs through the real client, listing and
 * store. `prepare` checks the answer is one the host takes, so that the row measures that path.
 */
import { fitsHost, HOST_ANSWER } from '../../src/api/answerOnHost';
import { JsonScan } from '../../src/base/jsonScan';
import { routes, startFaultServer } from '../../test/support/faultServer';
import type { HostileScenario } from './scenario';
import { loadedStore } from './serverStore';

const ROWS = 36_000;
const json = { 'content-type': 'application/json' };

export const scenario: HostileScenario = {
  finding: '39: the largest listing the host parses',
  input: `a project listing of ${ROWS.toLocaleString('en-US')} flags of ten environments each, just within what the host parses itself (${HOST_ANSWER.values.toLocaleString('en-US')} values)`,
  async prepare() {
    const environments = Array.from({ length: 10 }, (_, i) => `{"name":"env-${i}","enabled":${i % 2 === 0}}`).join(',');
    const rows = Array.from({ length: ROWS }, (_, i) => `{"name":"f${String(i).padStart(6, '0')}","type":"release","environments":[${environments}]}`);
    const listing = Buffer.from(`{"features":[${rows.join(',')}]}`);
    const scan = new JsonScan();
    scan.feed(listing);
    const shape = scan.finish();
    if (!shape || !fitsHost(shape, listing.length)) throw new Error(`the listing (${listing.length} bytes, ${shape?.values ?? '?'} values) is not one the host takes`);
    const server = await startFaultServer({
      handler: routes({
        'GET /api/admin/ui-config': { body: { version: '7.5.1', environment: 'Open Source' } },
        'GET /api/admin/projects/default/features': { body: listing, headers: json },
        'GET /api/admin/search/features': { body: { features: [], total: ROWS } },
      }),
    });
    return { context: { url: server.url }, stop: () => server.close() };
  },
  async run(_dir, context) {
    return loadedStore((context as { url: string }).url, (store) => `${store.state}, ${store.catalog.size} flags`);
  },
  expect: /^ready, 36000 flags$/,
};
