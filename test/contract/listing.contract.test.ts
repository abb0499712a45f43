/**
 * The flag listing (src/api/listing.ts) against a real Unleash: complete (it equals what the search reports) in
 * every case the strategy falls back on. Pages of 2 rows make the seed's 8 live flags take the per-project path; a
 * forwarding proxy in front of the real server takes away what a token or an older server would not offer.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { UnleashClient } from '../../src/api';
import { startForwardingProxy, type ForwardingProxy, type ProxyRule } from '../support/forwardingProxy';
import { useRealUnleash } from './env';
import { SEED } from './harness';

const unleash = useRealUnleash();
const PAGE = 2;
const live = SEED.flags.filter((flag) => !flag.archived).map((flag) => `${flag.project}/${flag.name}`).sort();
const proxies: ForwardingProxy[] = [];
after(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
});

function client(baseUrl = unleash.current.url): UnleashClient {
  return new UnleashClient({ baseUrl, getToken: () => unleash.current.adminToken, retryBaseMs: 10 });
}

async function proxied(...rules: ProxyRule[]): Promise<ForwardingProxy> {
  const proxy = await startForwardingProxy(unleash.current.url, rules);
  proxies.push(proxy);
  return proxy;
}

/** What the search itself reports as the number of flags: the count a complete listing reaches. */
async function searchTotal(): Promise<number> {
  const response = await fetch(`${unleash.current.url}/api/admin/search/features?limit=1`, {
    headers: { authorization: unleash.current.adminToken },
    signal: AbortSignal.timeout(30_000),
  });
  return ((await response.json()) as { total: number }).total;
}

const names = (features: Array<{ project?: string; name: string }>) => features.map((feature) => `${feature.project}/${feature.name}`).sort();
const notAvailable = { name: 'NotFoundError', message: 'The path you were looking for is not available.' };
const PROJECT_LISTING = /^\/api\/admin\/projects\/[^/]+\/features(\?|$)/;

describe('listing (real server)', () => {
  it('lists each project in one request, the projects the first page names included', async () => {
    const proxy = await proxied();
    const batches: number[] = [];
    const result = await client(proxy.url).listing({ pageSize: PAGE, onRows: (rows) => batches.push(rows.length) });
    assert.equal(result.total, await searchTotal());
    assert.deepEqual(names(result.features), live);
    assert.equal(result.method, 'projects', 'the first page (sorted by name) holds a checkout flag, so checkout is listed too');
    assert.equal(batches[0], PAGE, 'the first page is handed over before anything else');
    assert.deepEqual(proxy.requests.filter((url) => PROJECT_LISTING.test(url)).sort(), ['/api/admin/projects/checkout/features', '/api/admin/projects/default/features']);
  });

  it('is complete when the project list leaves a project out (open source lists only default): the search finds it', async () => {
    const total = await searchTotal();
    const proxy = await proxied();
    const result = await client(proxy.url).listing({ pageSize: 1 });
    assert.equal(total, live.length);
    assert.equal(result.total, total);
    assert.deepEqual(names(result.features), live);
    assert.equal(result.method, 'projects+search');
    assert.ok(proxy.requests.some((url) => url.startsWith('/api/admin/projects/default/features')), 'default is listed in one request');
    assert.ok(proxy.requests.some((url) => url.includes('IS_NONE_OF%3Adefault')), 'the rest comes from the search, filtered');
  });

  it('is complete when the token may not list a project: the search reads it', async () => {
    const proxy = await proxied({ path: /^\/api\/admin\/projects\/default\/features/, status: 403, body: { message: 'no access to default' } });
    const result = await client(proxy.url).listing({ pageSize: PAGE });
    assert.deepEqual(names(result.features), live);
    assert.equal(result.method, 'projects+search', 'checkout is listed in one request, default through the search');
    assert.ok(proxy.requests.some((url) => url.includes('IS_NONE_OF%3Acheckout')), proxy.requests.join('\n'));
  });

  it('is complete on a server without the per-project listing: the search is paged', async () => {
    const proxy = await proxied({ path: PROJECT_LISTING, status: 404, body: notAvailable });
    const result = await client(proxy.url).listing({ pageSize: PAGE });
    assert.deepEqual(names(result.features), live);
    assert.equal(result.method, 'search');
    assert.equal(proxy.requests.filter((url) => url.startsWith('/api/admin/search/features')).length, Math.ceil(live.length / PAGE), 'pages of 2 up to the total');
  });

  it('lists per project on a server without search, and can then only see the projects it lists', async () => {
    const proxy = await proxied({ path: /^\/api\/admin\/search\/features/, status: 404, body: notAvailable });
    const result = await client(proxy.url).listing({ pageSize: PAGE });
    assert.equal(result.method, 'projects');
    assert.equal(result.total, undefined);
    assert.deepEqual(names(result.features), live.filter((flag) => flag.startsWith('default/')), 'open-source Unleash lists only the default project');
  });

  it('with projects configured, reads only those', async () => {
    const proxy = await proxied();
    const result = await client(proxy.url).listing({ pageSize: PAGE, projects: ['checkout'] });
    assert.deepEqual(names(result.features), live.filter((flag) => flag.startsWith('checkout/')));
    assert.ok(proxy.requests.every((url) => !url.startsWith('/api/admin/projects/default')), proxy.requests.join('\n'));
  });

  it('at the default page size, the seed fits the first search page: one request', async () => {
    const proxy = await proxied();
    const result = await client(proxy.url).listing();
    assert.deepEqual(names(result.features), live);
    assert.equal(result.method, 'search');
    assert.deepEqual(proxy.requests.filter((url) => url.startsWith('/api/admin/search')).length, 1);
  });
});
