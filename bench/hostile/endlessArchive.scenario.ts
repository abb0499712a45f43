/**
 * Finding 28: a name code reads that the listing lacks, on a server whose archive search matches without end (every
 * page 100 fat rows, none of them the name, `total` ten million). The lookup among archived flags runs through the
 * real client and store, as the hover and the diagnostics start it: it reads at most 5 pages, then says the name is
 * not known either way, and the Problems panel calls it unknown (never archived, never waiting for ever).
 */
import { UnleashClient } from '../../src/api/client';
import { FlagAnalyzer } from '../../src/model/code/flagDiagnostics';
import { FlagStore } from '../../src/model/store/flagStore';
import { ServerSource } from '../../src/services/serverSource';
import { routes, startFaultServer } from '../../test/support/faultServer';
import type { HostileScenario } from './scenario';

const TOKEN = '*:*.hostile0123456789abcdef0123456789';
const json = { 'content-type': 'application/json' };
/** Rows of a page, each about 30 KB (under the client's 32 KiB a row). */
const ROWS = 100;

export const scenario: HostileScenario = {
  finding: 'issue 28',
  input: 'an archive search matching without end: 100 rows of 30 KB a page, none the name, total 10,000,000',
  async prepare() {
    const description = 'x'.repeat(30_000);
    const rows = Array.from({ length: ROWS }, (_, i) => `{"name":"pay-${i}","project":"default","description":"${description}","archivedAt":"2026-11-02T10:00:00.000Z"}`);
    const archivePage = Buffer.from(`{"features":[${rows.join(',')}],"total":10000000}`);
    const server = await startFaultServer({
      handler: routes({
        'GET /api/admin/ui-config': { body: { version: '7.5.1', environment: 'Open Source' } },
        'GET /api/admin/projects/default/features': { body: { features: [{ name: 'checkout' }] } },
        'GET /api/admin/search/features': (request) =>
          request.query.get('archived') ? { body: archivePage, headers: json } : { body: { features: [], total: 0 } },
      }),
    });
    return { context: { url: server.url }, stop: () => server.close() };
  },
  async run(_dir, context) {
    const { url } = context as { url: string };
    let searches = 0;
    const client = new UnleashClient({
      baseUrl: url,
      getToken: () => TOKEN,
      onEvent: (event) => {
        if (event.kind === 'response' && event.request.includes('/search/')) searches++;
      },
    });
    const store = new FlagStore({ info() {}, error() {} });
    try {
      void store.load();
      await store.setSource(new ServerSource(client, [], ''), 'ready');
      const listing = searches;
      const found = await store.findArchived('pay').catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
      const [diagnostic] = await new FlagAnalyzer(store.catalog).analyse("isEnabled('pay')", {
        sourceLabel: 'unleash.example.com',
        sourceKind: 'server',
        archived: (name) => (store.archivedLookupFailed(name) ? null : store.peekArchived(name)),
      });
      return `${searches - listing} archive searches: ${String(found)} · ${diagnostic?.code}: ${diagnostic?.message}`;
    } finally {
      store.dispose();
      await client.close();
    }
  },
  expect: /^5 archive searches: more than 500 archived flags match "pay": not looked through · unknown-flag: No flag named "pay" on unleash\.example\.com\. Check the spelling; the flag may also be archived or in a project this workspace does not read\.$/,
};
