/**
 * Finding 2: a server answering every search page with 300,000 rows (100 asked). The Flags view's first load runs
 * through the real client, listing and store; the page is refused at its 101st row, counted as the bytes arrive
 * (nothing of it is parsed), and the view says which request failed.
 */
import { viewMessage } from '../../src/model/tree/commandData';
import { routes, startFaultServer } from '../../test/support/faultServer';
import type { HostileScenario } from './scenario';
import { loadedStore } from './serverStore';

const ROWS = 300_000;
const json = { 'content-type': 'application/json' };

export const scenario: HostileScenario = {
  finding: 2,
  input: `a server answering each search page with ${ROWS.toLocaleString('en-US')} rows (100 asked)`,
  async prepare() {
    const rows = Array.from({ length: ROWS }, (_, i) => `{"name":"f${String(i).padStart(6, '0')}","project":"p${i % 7}","environments":[]}`);
    const page = Buffer.from(`{"features":[${rows.join(',')}],"total":${ROWS}}`);
    const server = await startFaultServer({
      handler: routes({
        'GET /api/admin/ui-config': { body: { version: '7.5.1', environment: 'Open Source' } },
        'GET /api/admin/projects/default/features': { body: { features: [{ name: 'a' }, { name: 'b' }] } },
        'GET /api/admin/search/features': { body: page, headers: json },
      }),
    });
    return { context: { url: server.url }, stop: () => server.close() };
  },
  async run(_dir, context) {
    return loadedStore((context as { url: string }).url, async (store) => {
      return `${store.state}, ${store.catalog.size} flags: ${viewMessage(store) ?? ''}`;
    });
  },
  expect: /^error, 0 flags: Could not load the flags\. Unexpected answer from the server: the server answered more than the 100 rows asked\..*Failed request: GET \/api\/admin\/search\/features\.$/,
};
