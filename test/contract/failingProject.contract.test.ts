/**
 * A project the real server cannot list: `GET /api/admin/projects/:id/features` answers 500 ("Cannot read properties
 * of undefined (reading 'some')") when the project holds a flag named like an `Object.prototype` key (`constructor`,
 * `toString`), while the search lists the same flags. Against a server of the run's generation (7.5.1 or 8.2.0)
 * started for this file alone and not seeded: the odd flags would change what every other file counts. Shown the
 * way the extension builds it (client, ServerSource, FlagStore, the tree): every flag lists, first load and refresh;
 * a project whose listing and search both fail (a proxy fails its search) is one row naming the server's error
 * beside the other projects; a refresh that fails keeps the rows, out of date.
 *   node --import tsx --test test/contract/failingProject.contract.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UnleashClient } from '../../src/api/client';
import { HttpError } from '../../src/api/errors';
import type { HttpEvent } from '../../src/api/httpOptions';
import { FlagStore } from '../../src/model/store/flagStore';
import { childrenOf } from '../../src/model/tree/children';
import { viewDescription, viewMessage } from '../../src/model/tree/commandData';
import type { TreeNode } from '../../src/model/tree/node';
import { rootNodes } from '../../src/model/tree/root';
import { ServerSource } from '../../src/services/serverSource';
import { startForwardingProxy, type ForwardingProxy, type ProxyRule } from '../support/forwardingProxy';
import { startRealUnleash, SUITE_SEARCH_RATE_LIMIT, type RealUnleash } from '../../tools/unleash';
import { createOddNames, ODD_NAMES } from '../../tools/unleash/oddNames';

const DEFAULT_FLAGS: readonly string[] = ODD_NAMES.defaultFlags;
const ODD_FLAGS: readonly string[] = ODD_NAMES.oddFlags;
const EVERY_FLAG = [...DEFAULT_FLAGS.map((name) => `default/${name}`), ...ODD_FLAGS.map((name) => `odd/${name}`)].sort();
const SERVER_MESSAGE = ODD_NAMES.serverMessage;

let unleash: RealUnleash;
const closers: Array<() => Promise<void>> = [];

before(async () => {
  unleash = await startRealUnleash({ seed: false, searchRateLimit: SUITE_SEARCH_RATE_LIMIT });
  await createOddNames(unleash);
}, { timeout: 600_000 });

after(async () => {
  await Promise.all(closers.map((close) => close()));
  await unleash?.stop();
});

function client(baseUrl: string, requests: string[] = []): UnleashClient {
  const created = new UnleashClient({
    baseUrl,
    getToken: () => unleash.adminToken,
    retryBaseMs: 10,
    onEvent: (event: HttpEvent) => {
      if (event.kind === 'response') requests.push(`${event.request} ${event.status}`);
    },
  });
  closers.push(() => created.close());
  return created;
}

async function proxied(rules: ProxyRule[]): Promise<ForwardingProxy> {
  const proxy = await startForwardingProxy(unleash.url, rules);
  closers.push(() => proxy.close());
  return proxy;
}

/** The store as the extension builds it over a server (all projects, no web URL), after its first load. */
async function loadedStore(baseUrl: string, requests: string[] = []): Promise<FlagStore> {
  const store = new FlagStore({ info() {}, error() {} });
  void store.load();
  await store.setSource(new ServerSource(client(baseUrl, requests), [], ''), 'ready');
  assert.equal(store.state, 'ready', `the first load failed: ${String(store.error)}`);
  return store;
}

/** The tree as VS Code asks for it: each root row, and the labels under each project. */
async function shownTree(store: FlagStore): Promise<Array<[string, string | undefined, string[]]>> {
  const roots = rootNodes(store);
  return Promise.all(
    roots.map(async (node: TreeNode): Promise<[string, string | undefined, string[]]> => [
      node.label,
      node.description,
      (await childrenOf(node, store)).map((child) => child.label),
    ]),
  );
}

const names = (store: FlagStore) => store.catalog.flags.map((flag) => `${flag.project}/${flag.name}`).sort();
const SEARCH_OF_ODD = /^\/api\/admin\/search\/features\?.*project=IS_ANY_OF%3Aodd(&|$)/;

describe('a project the real server cannot list (flags named constructor and toString)', () => {
  it('the server answers 500 for its listing, and its search lists the flags', async () => {
    const headers = { authorization: unleash.adminToken, accept: 'application/json' };
    const listing = await fetch(`${unleash.url}/api/admin/projects/odd/features`, { headers, signal: AbortSignal.timeout(30_000) });
    assert.equal(listing.status, 500);
    assert.equal(((await listing.json()) as { message?: string }).message, SERVER_MESSAGE);
    const search = await fetch(`${unleash.url}/api/admin/search/features?limit=100&offset=0&project=IS_ANY_OF%3Aodd`, { headers, signal: AbortSignal.timeout(30_000) });
    assert.equal(search.status, 200);
    assert.deepEqual(((await search.json()) as { features: Array<{ name: string }> }).features.map((flag) => flag.name).sort(), ODD_FLAGS);
  });

  it('lists every flag through the extension, first load and refresh: the failing listing is read through the search', async () => {
    const requests: string[] = [];
    const store = await loadedStore(unleash.url, requests);
    assert.deepEqual(names(store), EVERY_FLAG);
    // The refresh lists the projects the first load found, odd among them: the server fails it, the search reads it.
    requests.length = 0;
    await store.refresh();
    assert.ok(requests.includes('GET /api/admin/projects/odd/features 500'), requests.join('\n'));
    assert.deepEqual(names(store), EVERY_FLAG);
    // The next refresh does not ask odd's listing again while the server's version is the same (one ui-config says
    // so): the search reads it at once.
    requests.length = 0;
    await store.refresh();
    assert.ok(!requests.some((request) => request.startsWith('GET /api/admin/projects/odd/features')), requests.join('\n'));
    assert.ok(requests.includes('GET /api/admin/ui-config 200'), requests.join('\n'));
    assert.ok(requests.includes('GET /api/admin/search/features 200'), requests.join('\n'));
    assert.equal(store.state, 'ready');
    assert.equal(store.outOfDate, undefined);
    assert.deepEqual(store.failures, []);
    assert.deepEqual(names(store), EVERY_FLAG);
    assert.deepEqual(await shownTree(store), [
      ['default', '2 flags', ['alpha', 'beta']],
      ['odd', '3 flags', ['constructor', 'gamma', 'toString']],
    ]);
    assert.equal(viewMessage(store), undefined);
  });

  it('is complete, and says so, when the search names the project and its listing fails (one row a page)', async () => {
    const requests: string[] = [];
    const result = await client(unleash.url, requests).listing({ pageSize: 1 });
    assert.deepEqual(result.features.map((flag) => `${flag.project}/${flag.name}`).sort(), EVERY_FLAG);
    assert.equal(result.total, EVERY_FLAG.length);
    assert.equal(result.failed, undefined);
    assert.ok(requests.includes('GET /api/admin/projects/odd/features 500'), requests.join('\n'));
  });

  it("when its search fails too, the other projects show and the project's row names the server's error and request", async () => {
    const proxy = await proxied([{ path: SEARCH_OF_ODD, status: 500, body: { message: 'search refused by the test proxy' } }]);
    const store = await loadedStore(proxy.url);
    await store.refresh();
    assert.equal(store.state, 'ready');
    assert.deepEqual(names(store), DEFAULT_FLAGS.map((name) => `default/${name}`));
    const [failure] = store.failures;
    assert.ok(failure?.error instanceof HttpError && failure.searchError instanceof HttpError);
    assert.deepEqual([failure.project, failure.error.status, failure.error.serverMessage], ['odd', 500, SERVER_MESSAGE], 'the real server\'s own answer');
    const host = new URL(proxy.url).host;
    assert.deepEqual(await shownTree(store), [
      ['default', '2 flags', ['alpha', 'beta']],
      [
        'odd',
        `could not be read: ${host} failed (500: ${SERVER_MESSAGE}). Try again; if it keeps failing, check the server's logs. Failed request: GET /api/admin/projects/odd/features.`,
        [],
      ],
    ]);
    const odd = rootNodes(store)[1];
    assert.match(odd?.tooltip ?? '', /search refused by the test proxy/);
    assert.equal(viewMessage(store), 'The flags of project odd could not be read: its row says why.');
    assert.ok(proxy.requests.some((url) => SEARCH_OF_ODD.test(url)), proxy.requests.join('\n'));
  });

  it('a refresh that fails after a good load keeps the rows, out of date, and says which request failed', async () => {
    const rules: ProxyRule[] = [];
    const proxy = await proxied(rules);
    const store = await loadedStore(proxy.url);
    const before = await shownTree(store);
    rules.push({ path: /^\/api\/admin\//, status: 500, body: { message: 'database is down' } });
    await store.refresh();
    assert.equal(store.state, 'ready');
    assert.deepEqual(await shownTree(store), before);
    assert.deepEqual(names(store), EVERY_FLAG);
    assert.equal(viewDescription(store), `${new URL(proxy.url).host} · out of date`);
    assert.match(
      viewMessage(store) ?? '',
      /^Out of date: these are the flags of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\. Could not refresh the flags\. .* failed \(500: database is down\)\..* Failed request: GET \/api\/admin\/[a-z/]+\.$/,
    );
  });
});
