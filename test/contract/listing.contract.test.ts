/**
 * The flag listing (src/api/listing.ts) against a real Unleash: complete (it equals what the search reports) in
 * every case the strategy falls back on. Pages of 2 rows make the seed's 8 live flags take the per-project path; a
 * forwarding proxy in front of the real server takes away what a token or an older server would not offer.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { UnleashClient } from '../../src/api/client';
import { ServerSource } from '../../src/services/serverSource';
import { startForwardingProxy, type ForwardingProxy, type ProxyRule } from '../support/forwardingProxy';
import { useRealUnleash } from './env';
import { SEED } from '../../tools/unleash';

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
  it('lists default in one request, and the flags outside it from the search: the count proved', async () => {
    const proxy = await proxied();
    const batches: number[] = [];
    const result = await client(proxy.url).listing({ pageSize: PAGE, onRows: (rows) => batches.push(rows.length) });
    assert.equal(result.total, await searchTotal());
    assert.deepEqual(names(result.features), live);
    assert.equal(result.method, 'projects+search');
    assert.ok(batches.length >= 2 && batches[0]! < live.length, `rows are handed over as they arrive: ${batches.join(', ')}`);
    assert.deepEqual(proxy.requests.filter((url) => PROJECT_LISTING.test(url)), ['/api/admin/projects/default/features']);
    assert.deepEqual(
      proxy.requests.filter((url) => url.startsWith('/api/admin/search/features')).map((url) => new URL(url, 'http://x').searchParams.get('project')),
      ['IS_NONE_OF:default'],
      'the two checkout flags fit the one page of flags outside default',
    );
    // The server's ui-config says "Open Source": its project list (`default` alone, whatever exists) is not asked.
    assert.ok(proxy.requests.includes('/api/admin/ui-config'), proxy.requests.join('\n'));
    assert.ok(!proxy.requests.includes('/api/admin/projects'), proxy.requests.join('\n'));
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
    assert.ok(proxy.requests.some((url) => url.startsWith('/api/admin/projects/checkout/features')), 'checkout, which the search names, too');
    assert.ok(proxy.requests.some((url) => url.includes('IS_NONE_OF%3Adefault')), 'the rest comes from the search, filtered');
  });

  it('a refresh lists the projects of the last listing at once, and asks the search only for the rest', async () => {
    const proxy = await proxied();
    const source = new ServerSource(client(proxy.url), [], '');
    await source.listFeatures();
    const before = proxy.requests.length;
    const features = await source.listFeatures();
    assert.deepEqual(names(features), live);
    const refresh = proxy.requests.slice(before);
    assert.deepEqual(refresh.filter((url) => PROJECT_LISTING.test(url)).sort(), ['/api/admin/projects/checkout/features', '/api/admin/projects/default/features']);
    assert.ok(refresh.some((url) => url.includes('IS_NONE_OF%3Adefault%2Ccheckout')), refresh.join('\n'));
  });

  it('asks the project list of a server that is not open source, and is complete the same', async () => {
    const enterprise = { version: '7.5.1', environment: 'Enterprise', versionInfo: { current: { enterprise: '7.5.1' } } };
    const proxy = await proxied({ path: /^\/api\/admin\/ui-config/, status: 200, body: enterprise });
    const result = await client(proxy.url).listing({ pageSize: PAGE });
    assert.deepEqual(names(result.features), live);
    assert.equal(result.total, await searchTotal());
    assert.ok(proxy.requests.includes('/api/admin/projects'), proxy.requests.join('\n'));
  });

  it('is complete when the token may not list a project: the search reads it', async () => {
    const proxy = await proxied({ path: /^\/api\/admin\/projects\/checkout\/features/, status: 403, body: { message: 'no access to checkout' } });
    const result = await client(proxy.url).listing({ pageSize: 1 });
    assert.deepEqual(names(result.features), live);
    assert.equal(result.total, await searchTotal());
    assert.equal(result.method, 'projects+search', 'default is listed in one request, checkout through the search');
    assert.ok(proxy.requests.some((url) => url.startsWith('/api/admin/projects/checkout/features')), 'the search named checkout');
    assert.ok(proxy.requests.some((url) => url.includes('IS_ANY_OF%3Acheckout')), proxy.requests.join('\n'));
  });

  it('is complete on a server without the per-project listing: the search is paged', async () => {
    const proxy = await proxied({ path: PROJECT_LISTING, status: 404, body: notAvailable });
    const result = await client(proxy.url).listing({ pageSize: PAGE });
    assert.deepEqual(names(result.features), live);
    assert.equal(result.method, 'search');
    assert.equal(result.total, await searchTotal());
    const searches = proxy.requests.filter((url) => url.startsWith('/api/admin/search/features'));
    assert.equal(searches.length, 1 + Math.ceil(live.length / PAGE), 'the search outside default, then pages of 2 up to the total');
  });

  it('lists per project on a server without search, and says it could not check', async () => {
    const proxy = await proxied({ path: /^\/api\/admin\/search\/features/, status: 404, body: notAvailable });
    const result = await client(proxy.url).listing({ pageSize: PAGE });
    assert.equal(result.method, 'projects');
    assert.equal(result.total, undefined);
    assert.equal(result.unchecked, 'the server has no flag search');
    assert.deepEqual(names(result.features), live.filter((flag) => flag.startsWith('default/')), 'open-source Unleash lists only the default project');
  });

  it('with projects configured, reads only those', async () => {
    const proxy = await proxied();
    const result = await client(proxy.url).listing({ pageSize: PAGE, projects: ['checkout'] });
    assert.deepEqual(names(result.features), live.filter((flag) => flag.startsWith('checkout/')));
    assert.ok(proxy.requests.every((url) => !url.startsWith('/api/admin/projects/default')), proxy.requests.join('\n'));
  });

  it('at the default page size, a catalog of one search page is read through that page too: rows carry lifecycle', async () => {
    const proxy = await proxied();
    const result = await client(proxy.url).listing();
    assert.deepEqual(names(result.features), live);
    assert.equal(result.total, live.length);
    assert.ok(result.features.every((feature) => feature.lifecycle?.stage), JSON.stringify(result.features.map((feature) => feature.lifecycle)));
    assert.equal(proxy.requests.filter((url) => url.startsWith('/api/admin/search')).length, 2, 'the search outside default, then the one page of all');
  });
});
