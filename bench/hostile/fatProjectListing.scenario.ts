/**
 * Finding 2: one project listing of 150,000 rows, one batch (a spread of 130,000+ rows overflowed the call stack in
 * the store). The Flags view's first load runs through the real client, listing and store: the listing is refused at
 * its 100,001st row, counted as the bytes arrive (nothing of it is parsed), with a message naming `unleash.projects`.
 */
import { viewMessage } from '../../src/model/tree/commandData';
import { routes, startFaultServer } from '../../test/support/faultServer';
import type { HostileScenario } from './scenario';
import { loadedStore } from './serverStore';

const ROWS = 150_000;
const json = { 'content-type': 'application/json' };

export const scenario: HostileScenario = {
  finding: 2,
  input: `one project listing of ${ROWS.toLocaleString('en-US')} rows (one batch)`,
  async prepare() {
    const rows = Array.from({ length: ROWS }, (_, i) => `{"name":"f${String(i).padStart(6, '0')}","type":"release","environments":[]}`);
    const listing = Buffer.from(`{"features":[${rows.join(',')}]}`);
    const server = await startFaultServer({
      handler: routes({
        'GET /api/admin/ui-config': { body: { version: '7.5.1', environment: 'Open Source' } },
        'GET /api/admin/projects/default/features': { body: listing, headers: json },
        'GET /api/admin/search/features': { body: { features: [], total: 0 } },
      }),
    });
    return { context: { url: server.url }, stop: () => server.close() };
  },
  async run(_dir, context) {
    return loadedStore((context as { url: string }).url, async (store) => {
      return `${store.state}, ${store.catalog.size} flags: ${viewMessage(store) ?? ''}`;
    });
  },
  expect: /^error, 0 flags: Could not load the flags\. The setting `unleash\.projects` takes in more than 100,000 flags, more than the extension lists\. Name fewer projects to show\.$/,
};
