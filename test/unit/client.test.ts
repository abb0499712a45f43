import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, beforeEach, describe, it } from 'node:test';
import { UnleashClient, type ClientOptions } from '../../src/api/client';
import {
  ArchivedLookupError,
  AuthError,
  BadRequestError,
  CancelledError,
  ConfigError,
  ForbiddenError,
  HttpError,
  MissingTokenError,
  NetworkError,
  NotFoundError,
  SchemaError,
  TimeoutError,
} from '../../src/api/errors';
import { routes, startFaultServer, type FaultServer, type Reply } from '../support/faultServer';
import { acceptEncoding } from '../../src/api/http';

const TOKEN = '*:*.0123456789abcdef0123456789abcdef';
const fixture = (name: string) => JSON.parse(readFileSync(path.join(__dirname, '..', 'fixtures', name), 'utf8'));

let server: FaultServer;
const clients: UnleashClient[] = [];

function client(overrides: Partial<ClientOptions> = {}): UnleashClient {
  const created = new UnleashClient({ baseUrl: server.url, getToken: () => TOKEN, retryBaseMs: 5, ...overrides });
  clients.push(created);
  return created;
}

before(async () => {
  server = await startFaultServer();
});
beforeEach(() => {
  server.requests.length = 0;
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server.close();
});

describe('get a feature', () => {
  it('sends GET with the raw token, Accept JSON and variantEnvironments, and parses a 7.x feature', async () => {
    server.handle(routes({ 'GET /api/admin/projects/default/features/new-checkout-flow': { body: fixture('feature-7.5.1.json') } }));
    const feature = await client().getFeature('default', 'new-checkout-flow');
    const [request] = server.requests;
    assert.equal(request?.method, 'GET');
    assert.equal(request?.path, '/api/admin/projects/default/features/new-checkout-flow');
    assert.equal(request?.query.get('variantEnvironments'), 'true');
    assert.equal(request?.headers.authorization, TOKEN);
    assert.equal(request?.headers.accept, 'application/json');
    assert.equal(feature.name, 'new-checkout-flow');
    assert.equal(feature.lifecycle?.stage, 'pre-live');
    assert.deepEqual(feature.children, ['new-checkout-flow-ui']);
    const strategy = feature.environments?.[0]?.strategies?.[0];
    assert.equal(strategy?.parameters?.rollout, '25');
    assert.deepEqual(strategy?.segments, [1, 2]);
    assert.equal(strategy?.constraints?.[3]?.operator, 'NUM_FANCY', 'an unknown operator is kept as data');
    assert.equal(feature.environments?.[1]?.variants?.[0]?.overrides?.[0]?.values[1], '2');
    assert.deepEqual((feature as Record<string, unknown>).createdBy, { id: 1, name: 'admin', imageUrl: 'https://gravatar.com/avatar/x' }, 'unknown fields are kept');
  });

  it('parses an 8.x feature without the deprecated top-level fields, with ULID strategy ids', async () => {
    server.handle(routes({ 'GET /api/admin/projects/default/features/new-checkout-flow': { body: fixture('feature-8.2.0.json') } }));
    const feature = await client().getFeature('default', 'new-checkout-flow');
    assert.equal(feature.variants, undefined);
    assert.equal(feature.environments?.[0]?.strategies?.[0]?.id, '01M81CXFYDSJBR1PC603KP85DJ');
  });

  it('percent-encodes project and feature names', async () => {
    server.handle(() => ({ body: { name: 'a/b c' } }));
    await client().getFeature('my project', 'a/b c');
    assert.equal(server.requests[0]?.url.split('?')[0], '/api/admin/projects/my%20project/features/a%2Fb%20c');
  });

  it('names the real project when the feature lives elsewhere (404 without id)', async () => {
    server.handle(() => ({
      status: 404,
      body: {
        name: 'NotFoundError',
        message: 'There\'s no feature named "checkout-express-pay" in project "default", but there\'s a feature with that name in project "checkout"',
        details: [{ message: 'x' }],
      },
    }));
    const error = await client().getFeature('default', 'checkout-express-pay').catch((e: unknown) => e);
    assert.ok(error instanceof NotFoundError);
    assert.equal(error.actualProject, 'checkout');
    assert.equal(error.errorId, undefined);
    assert.equal(error.serverName, 'NotFoundError');
  });

  it('serves an unchanged feature from the cache on 304, sending If-None-Match', async () => {
    const body = fixture('feature-7.5.1.json');
    server.handle((request) =>
      request.headers['if-none-match'] === 'W/"abc"'
        ? { status: 304, headers: { etag: 'W/"abc"' } }
        : { body, headers: { etag: 'W/"abc"' } },
    );
    const c = client();
    const first = await c.getFeature('default', 'new-checkout-flow');
    const second = await c.getFeature('default', 'new-checkout-flow');
    assert.equal(server.requests[1]?.headers['if-none-match'], 'W/"abc"');
    assert.equal(second, first);
  });

  it('reads a feature through a base URL with a path prefix', async () => {
    server.handle(routes({ 'GET /unleash/api/admin/projects/default/features/x': { body: { name: 'x' } } }));
    const feature = await client({ baseUrl: `${server.url}/unleash/` }).getFeature('default', 'x');
    assert.equal(feature.name, 'x');
  });
});

describe('get a tag', () => {
  it('returns the tag when it exists', async () => {
    server.handle(routes({ 'GET /api/admin/tags/team/payments': { body: { version: 1, tag: { type: 'team', value: 'payments' } } } }));
    const tag = await client().getTag('team', 'payments');
    assert.deepEqual(tag, { version: 1, tag: { type: 'team', value: 'payments' } });
    assert.equal(server.requests[0]?.method, 'GET');
  });

  it('answers undefined on the server\'s 404 (the tag does not exist)', async () => {
    server.handle(() => ({ status: 404, body: { name: 'NotFoundError', message: 'No tag with type: [team] and value [paymnts]' } }));
    assert.equal(await client().getTag('team', 'paymnts'), undefined);
  });

  it('does not mistake a wrong URL (unknown path 404) for a missing tag', async () => {
    server.handle(routes({}));
    await assert.rejects(client({ baseUrl: `${server.url}/wrong` }).getTag('team', 'payments'), NotFoundError);
  });

  it('percent-encodes a value with a space or a slash', async () => {
    server.handle(() => ({ body: { version: 1, tag: { type: 'simple', value: 'needs review' } } }));
    await client().getTag('simple', 'needs review');
    await client().getTag('simple', 'a/b?c#d');
    assert.equal(server.requests[0]?.url, '/api/admin/tags/simple/needs%20review');
    assert.equal(server.requests[1]?.url, '/api/admin/tags/simple/a%2Fb%3Fc%23d');
  });

  it('throws AuthError for both 401 shapes, keeping the error id and name', async () => {
    server.handle(() => ({
      status: 401,
      body: { id: 'id-1', name: 'AuthenticationRequired', message: 'You must log in to use Unleash. Your request had no authorization header', details: [{ message: 'm' }], path: '/auth/simple/login' },
    }));
    const noHeader = await client().getTag('team', 'payments').catch((e: unknown) => e);
    assert.ok(noHeader instanceof AuthError);
    assert.equal(noHeader.errorId, 'id-1');
    assert.equal(noHeader.serverName, 'AuthenticationRequired');
    server.handle(() => ({ status: 401, body: { id: 'id-2', name: 'UnauthorizedError', message: 'You must log in to use Unleash.', details: [] } }));
    const badToken = await client().getTag('team', 'payments').catch((e: unknown) => e);
    assert.ok(badToken instanceof AuthError);
    assert.equal(badToken.serverName, 'UnauthorizedError');
  });

  it('explains a 403 from a client token ({message} only body)', async () => {
    server.handle(() => ({ status: 403, body: { message: 'invalid token: expected a different token type for this endpoint' } }));
    const error = await client().getTag('team', 'payments').catch((e: unknown) => e);
    assert.ok(error instanceof ForbiddenError);
    assert.equal(error.wrongTokenType, true);
    assert.match(error.message, /admin token or a personal access token/);
  });

  it('keeps the permission name of a PermissionError 403', async () => {
    server.handle(() => ({
      status: 403,
      body: { id: 'x', name: 'PermissionError', message: 'You don\'t have the required permissions to perform this operation.', permissions: ['UPDATE_FEATURE'] },
    }));
    const error = await client().getTag('jira', 'x').catch((e: unknown) => e);
    assert.ok(error instanceof ForbiddenError);
    assert.equal(error.wrongTokenType, false);
    assert.equal(error.serverName, 'PermissionError');
  });
});

describe('get strategy segments', () => {
  it('parses the segments of a strategy', async () => {
    server.handle(routes({ 'GET /api/admin/segments/strategies/9de655a1-6b8f': { body: fixture('segments.json') } }));
    const segments = await client().getStrategySegments('9de655a1-6b8f');
    assert.deepEqual(segments.map((s) => s.name), ['internal-users', 'beta-testers']);
    assert.equal(segments[0]?.constraints[0]?.caseInsensitive, true);
    assert.equal(segments[1]?.description, null);
  });

  it('answers an empty list for an unknown strategy, as the server does', async () => {
    server.handle(() => ({ body: { segments: [] } }));
    assert.deepEqual(await client().getStrategySegments('not-a-uuid'), []);
  });

  it('names the first field that does not match when a segment lacks a required field', async () => {
    server.handle(() => ({ body: { segments: [{ id: 1, name: 'x', constraints: [] }] } }));
    const error = await client().getStrategySegments('s').catch((e: unknown) => e);
    assert.ok(error instanceof SchemaError);
    assert.equal(error.path, 'segments.0.createdAt');
  });
});

describe('export an environment', () => {
  const exportBody = {
    features: [{ name: 'a', type: 'release', project: 'default', stale: false, impressionData: false, archived: false }],
    featureStrategies: [],
    featureEnvironments: [{ enabled: true, featureName: 'a', environment: 'development', variants: [], name: 'a' }],
    contextFields: [],
    featureTags: [{ featureName: 'a', tagType: 'team', tagValue: 'payments' }],
    segments: [],
    tagTypes: [{ name: 'team', description: '', icon: null, color: null }],
    dependencies: [],
    links: [],
  };

  it('POSTs JSON with Content-Type for each scope, never retried', async () => {
    server.handle(() => ({ body: exportBody }));
    const c = client();
    await c.exportFeatures({ environment: 'development', scope: { kind: 'features', names: ['a', 'b'] } });
    await c.exportFeatures({ environment: 'development', scope: { kind: 'all' } });
    await c.exportFeatures({ environment: 'production', scope: { kind: 'project', project: 'checkout' } });
    assert.equal(server.requests[0]?.method, 'POST');
    assert.equal(server.requests[0]?.path, '/api/admin/features-batch/export');
    assert.match(String(server.requests[0]?.headers['content-type']), /^application\/json/);
    assert.deepEqual(server.requests.map((r) => r.json), [
      { environment: 'development', downloadFile: true, features: ['a', 'b'] },
      { environment: 'development', downloadFile: true, features: [] },
      { environment: 'production', downloadFile: true, project: 'checkout' },
    ]);
  });

  it('keeps fields the spec does not know (links, tag colours)', async () => {
    server.handle(() => ({ body: exportBody }));
    const result = await client().exportFeatures({ environment: 'development', scope: { kind: 'all' } });
    assert.deepEqual((result as Record<string, unknown>).links, []);
    assert.equal((result.tagTypes[0] as Record<string, unknown>).color, null);
  });

  it('accepts the export as a file attachment', async () => {
    server.handle(() => ({
      headers: { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="export.json"' },
      body: JSON.stringify(exportBody),
    }));
    const result = await client().exportFeatures({ environment: 'development', scope: { kind: 'all' } });
    assert.equal(result.features[0]?.name, 'a');
  });

  it('exports a tag as type:value, narrowing what a value-only server match brings in', async () => {
    const mixed = {
      ...exportBody,
      features: [{ name: 'a' }, { name: 'b' }],
      featureTags: [
        { featureName: 'a', tagType: 'team', tagValue: 'payments' },
        { featureName: 'b', tagType: 'simple', tagValue: 'payments' },
      ],
    };
    server.handle((request) => ({ body: (request.json as { tag?: string }).tag ? mixed : exportBody }));
    const result = await client().exportFeatures({ environment: 'development', scope: { kind: 'tag', type: 'team', value: 'payments' } });
    assert.deepEqual(server.requests.map((r) => r.json), [
      { environment: 'development', downloadFile: true, tag: 'payments' },
      { environment: 'development', downloadFile: true, features: ['a'] },
    ]);
    assert.deepEqual(result.features.map((f) => f.name), ['a']);
  });

  it('makes a single request when every flag carries the exact tag', async () => {
    server.handle(() => ({ body: exportBody }));
    await client().exportFeatures({ environment: 'development', scope: { kind: 'tag', type: 'team', value: 'payments' } });
    assert.equal(server.requests.length, 1);
  });

  it('reports validation details of a 400', async () => {
    server.handle(() => ({
      status: 400,
      body: {
        id: 'x',
        name: 'BadDataError',
        message: 'Request validation failed: your request body or params contain invalid data.',
        details: [{ path: '/body/environment', message: 'The `/body/environment` property is required.' }],
      },
    }));
    const error = await client().exportFeatures({ environment: '', scope: { kind: 'all' } }).catch((e: unknown) => e);
    assert.ok(error instanceof BadRequestError);
    assert.equal(error.details[0]?.path, '/body/environment');
    assert.match(error.message, /environment` property is required/);
  });

  it('does not retry an export the server failed (503)', async () => {
    server.handle(() => ({ status: 503, body: { message: 'busy' } }));
    await assert.rejects(client().exportFeatures({ environment: 'development', scope: { kind: 'all' } }), HttpError);
    assert.equal(server.requests.length, 1);
  });

  it('turns 413 and 415 into HttpError with the server\'s message', async () => {
    server.handle(() => ({ status: 413, body: { message: 'request entity too large' } }));
    const tooLarge = await client().exportFeatures({ environment: 'd', scope: { kind: 'all' } }).catch((e: unknown) => e);
    assert.ok(tooLarge instanceof HttpError);
    assert.equal(tooLarge.status, 413);
    assert.equal(tooLarge.serverMessage, 'request entity too large');
    server.handle(() => ({ status: 415, body: { id: 'i', name: 'ContentTypeError', message: 'We do not accept the content-type you provided' } }));
    const unsupported = await client().exportFeatures({ environment: 'd', scope: { kind: 'all' } }).catch((e: unknown) => e);
    assert.ok(unsupported instanceof HttpError);
    assert.equal(unsupported.serverName, 'ContentTypeError');
  });
});

describe('listing', () => {
  it('reads every page of the search endpoint, sorted by name', async () => {
    const all = Array.from({ length: 250 }, (_, i) => ({ name: `flag-${String(i).padStart(3, '0')}`, project: 'default', environments: [] }));
    server.handle((request) => {
      if (request.path !== '/api/admin/search/features') return { status: 404, body: {} };
      const offset = Number(request.query.get('offset'));
      const limit = Number(request.query.get('limit'));
      return { body: { features: all.slice(offset, offset + limit), total: all.length } };
    });
    const features = await client().listFeatures();
    assert.equal(features.length, 250);
    assert.equal(features[249]?.name, 'flag-249');
    const searches = server.requests.filter((r) => r.path === '/api/admin/search/features');
    assert.deepEqual(
      searches.map((r) => `${r.query.get('offset')} ${r.query.get('project') ?? 'all'}`).sort(),
      ['0 IS_NONE_OF:default', '0 all', '100 all', '200 all'],
      'the flags outside default (the project cannot be listed), then every page',
    );
  });

  it('narrows the listing to the configured projects', async () => {
    server.handle(() => ({ body: fixture('search-page.json') }));
    await client().listFeatures({ projects: ['default', 'checkout'] });
    assert.deepEqual(
      server.requests.map((r) => `${r.path} ${r.query.get('project') ?? ''}`.trim()),
      ['/api/admin/projects/default/features', '/api/admin/projects/checkout/features', '/api/admin/search/features IS_ANY_OF:default,checkout'],
    );
  });

  it('falls back to the per-project listing where search is missing', async () => {
    server.handle(
      routes({
        'GET /api/admin/projects': { body: { version: 1, projects: [{ id: 'default', name: 'Default' }] } },
        'GET /api/admin/projects/default/features': { body: { version: 2, features: [{ name: 'b', environments: [] }, { name: 'a' }] } },
      }),
    );
    const features = await client().listFeatures();
    assert.deepEqual(features.map((f) => `${f.project}/${f.name}`), ['default/a', 'default/b']);
  });

  it('finds an archived flag by its exact name, reading further pages when its query matches more (at most 5)', async () => {
    // The search matches parts of names: `gone-17` also matches `gone-170`…, 150 in all; the exact name is on page 2.
    const matches = [...Array.from({ length: 149 }, (_, i) => `gone-17${i}`), 'gone-17'];
    server.handle((request) => {
      const offset = Number(request.query.get('offset'));
      const rows = matches.slice(offset, offset + 100).map((name) => ({ name, project: 'default', archivedAt: '2026-11-02T10:00:00.000Z' }));
      return { body: { features: rows, total: matches.length } };
    });
    const found = await client().findArchivedFeature('gone-17');
    assert.deepEqual([found?.name, found?.archived], ['gone-17', true]);
    assert.deepEqual(server.requests.map((request) => [request.query.get('archived'), request.query.get('query'), request.query.get('offset')]), [
      ['IS:true', 'gone-17', '0'],
      ['IS:true', 'gone-17', '100'],
    ]);
    server.requests.length = 0;
    assert.equal(await client().findArchivedFeature('gone-1'), undefined, 'every match read: none is exactly it');
    assert.equal(server.requests.length, 2);

    // More matches than 5 pages: not known either way, and said so.
    server.handle(() => ({ body: { features: Array.from({ length: 100 }, (_, i) => ({ name: `a${i}` })), total: 10_000 } }));
    server.requests.length = 0;
    const error = await client().findArchivedFeature('a').catch((e: unknown) => e);
    assert.ok(error instanceof ArchivedLookupError, String(error));
    assert.equal(error.message, 'more than 500 archived flags match "a": not looked through');
    assert.equal(server.requests.length, 5);
  });

  it('refuses a search page holding more rows than asked, plain or compressed, before any row is checked or used', async () => {
    // Rows that would fail the schema: the count is what refuses them, not their shape.
    const page = JSON.stringify({ features: Array.from({ length: 150 }, (_, i) => ({ nameless: i })), total: 150 });
    for (const compressed of [false, true]) {
      server.handle((): Reply =>
        compressed
          ? { body: gzipSync(page), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } }
          : { body: page, headers: { 'content-type': 'application/json' } },
      );
      const error = await client().findArchivedFeature('x').catch((e: unknown) => e);
      assert.ok(error instanceof SchemaError, String(error));
      assert.equal(error.message, 'Unexpected answer from the server: the server answered more than the 100 rows asked.', `compressed: ${compressed}`);
      assert.equal(error.request, 'GET /api/admin/search/features');
    }
  });

  it('stops reading a project listing at its first row over the budget', async () => {
    // Rows streamed up to 60 MB (under the 64 MiB byte budget, beyond what the kernel's socket buffers hold): the
    // server cannot finish unless the client reads them all.
    const rows = Buffer.from(Array.from({ length: 256 }, (_, i) => `{"name":"f${i}","description":"${'x'.repeat(220)}"},`).join(''));
    server.handle(async (_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"features":[');
      for (let sent = 0; sent < 60 * 1024 * 1024 && !res.destroyed; sent += rows.length) {
        if (!res.write(rows)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
      }
      res.end('{"name":"last"}]}');
    });
    const error = await client({ listLimits: { rows: 10 } }).listFeatures({ projects: ['default'] }).catch((e: unknown) => e);
    assert.ok(error instanceof ConfigError, String(error));
    await server.waitForClientClose(0);
  });

  it('refuses a search page larger than its rows may take (32 KiB each), reading no further', async () => {
    // Far more than the kernel's socket buffers: the server cannot finish unless the client reads it all.
    server.script({ kind: 'huge', bytes: 64 * 1024 * 1024, chunked: true });
    const error = await client().findArchivedFeature('x').catch((e: unknown) => e);
    assert.ok(error instanceof SchemaError, String(error));
    assert.equal(error.message, 'Unexpected answer from the server: the answer is larger than 3.1 MB.');
    assert.deepEqual(server.requests.map((request) => request.path), ['/api/admin/search/features']);
    await server.waitForClientClose(0);
  });

  it('refuses a project listing larger than the row budget before its rows are checked, naming unleash.projects', async () => {
    server.handle(
      routes({
        'GET /api/admin/projects/default/features': { body: { features: Array.from({ length: 11 }, (_, i) => ({ nameless: i })) } },
        'GET /api/admin/search/features': { body: { features: [], total: 0 } },
      }),
    );
    const error = await client({ listLimits: { rows: 10 } }).listFeatures({ projects: ['default'] }).catch((e: unknown) => e);
    assert.ok(error instanceof ConfigError, String(error));
    assert.equal(error.message, 'The setting `unleash.projects` takes in more than 10 flags, more than the extension lists. Name fewer projects to show.');
  });

  it('names the request of a project listing whose answer does not match', async () => {
    server.handle(routes({ 'GET /api/admin/projects/odd%20one/features': { body: { features: [{ nameless: 1 }] } } }));
    const error = await client().listFeatures({ projects: ['odd one'] }).catch((e: unknown) => e);
    assert.ok(error instanceof SchemaError, String(error));
    assert.equal(error.request, 'GET /api/admin/projects/odd%20one/features');
  });

  it('lists environments in their sort order', async () => {
    server.handle(routes({ 'GET /api/admin/environments': { body: fixture('environments.json') } }));
    assert.deepEqual((await client().listEnvironments()).map((e) => e.name), ['development', 'production']);
  });

  it('reads the server version from ui-config', async () => {
    server.handle(routes({ 'GET /api/admin/ui-config': { body: { version: '7.5.1', environment: 'Open Source' } } }));
    assert.deepEqual(await client().getServerInfo(), { version: '7.5.1', edition: 'Open Source' });
  });

  it('reads a ui-config whose versionInfo names no enterprise version (open source, as 7.5.1 sends it), and one that does', async () => {
    const versionInfo = (current: object) => ({ current, latest: {}, isLatest: true });
    const answers = [
      { version: '7.5.1', environment: 'Open Source', versionInfo: versionInfo({ oss: '7.5.1' }) },
      { version: '7.5.1', environment: 'Open Source', versionInfo: versionInfo({ oss: '7.5.1', enterprise: '7.5.1' }) },
    ];
    server.handle(() => ({ body: answers.shift() }));
    assert.deepEqual(await client().getServerInfo(), { version: '7.5.1', edition: 'Open Source' });
    assert.deepEqual(await client().getServerInfo(), { version: '7.5.1', edition: 'Open Source' });
  });
});

describe('failures', () => {
  it('raises MissingTokenError before any request when no token is set', async () => {
    await assert.rejects(client({ getToken: () => '  ' }).getTag('team', 'x'), MissingTokenError);
    assert.equal(server.requests.length, 0);
  });

  it('refuses a server URL without a scheme, naming the setting', () => {
    assert.throws(() => client({ baseUrl: 'unleash.example.com' }), (e: unknown) => e instanceof ConfigError && e.setting === 'unleash.serverUrl' && /https:\/\/unleash\.example\.com/.test(e.message));
    assert.throws(() => client({ baseUrl: 'file:///etc/passwd' }), ConfigError);
    assert.throws(() => client({ baseUrl: 'http://exa mple.com' }), ConfigError);
  });

  it('retries a GET on 429 honouring Retry-After, then succeeds', async () => {
    let calls = 0;
    server.handle(() => (++calls === 1 ? { status: 429, headers: { 'retry-after': '0' }, body: { message: 'slow down' } } : { body: { segments: [] } }));
    assert.deepEqual(await client().getStrategySegments('s'), []);
    assert.equal(calls, 2);
  });

  it('does not wait for a Retry-After longer than allowed', async () => {
    server.handle(() => ({ status: 429, headers: { 'retry-after': '3600' }, body: { message: 'later' } }));
    const error = await client().getStrategySegments('s').catch((e: unknown) => e);
    assert.ok(error instanceof HttpError);
    assert.equal(error.retryAfterSeconds, 3600);
    assert.equal(server.requests.length, 1);
  });

  it('retries 502/503/504 a bounded number of times', async () => {
    server.handle(() => ({ status: 502, body: '<html>Bad gateway</html>', headers: { 'content-type': 'text/html' } }));
    const error = await client({ retries: 2 }).getStrategySegments('s').catch((e: unknown) => e);
    assert.ok(error instanceof HttpError);
    assert.equal(error.status, 502);
    assert.equal(error.serverMessage, undefined, 'an HTML error page is not shown as a message');
    assert.equal(server.requests.length, 3);
  });

  it('does not retry 503 maintenance mode', async () => {
    server.handle(() => ({ status: 503, body: { message: 'Unleash is currently in maintenance mode.' } }));
    const error = await client().getStrategySegments('s').catch((e: unknown) => e);
    assert.ok(error instanceof HttpError && error.maintenance);
    assert.equal(server.requests.length, 1);
  });

  it('rejects an HTML page answered with 200 (a proxy login page)', async () => {
    server.handle(() => ({ headers: { 'content-type': 'text/html' }, body: '<html><form>Sign in</form></html>' }));
    const error = await client().getStrategySegments('s').catch((e: unknown) => e);
    assert.ok(error instanceof SchemaError);
    assert.match(error.message, /HTML page instead of JSON/);
  });

  it('rejects invalid JSON and JSON of the wrong shape', async () => {
    server.handle(() => ({ headers: { 'content-type': 'application/json' }, body: '{"segments": [' }));
    await assert.rejects(client().getStrategySegments('s'), /not valid JSON/);
    server.handle(() => ({ body: { segments: 'none' } }));
    const error = await client().getStrategySegments('s').catch((e: unknown) => e);
    assert.ok(error instanceof SchemaError);
    assert.equal(error.path, 'segments');
  });

  it('decompresses a gzip answer', async () => {
    server.handle((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify(fixture('segments.json'))));
    });
    assert.equal((await client().getStrategySegments('s')).length, 2);
    assert.equal(server.requests[0]?.headers['accept-encoding'], 'identity', 'a server on this machine is not asked to compress');
  });

  it('asks a remote server for gzip or brotli, a server on this machine for nothing', () => {
    assert.equal(acceptEncoding(new URL('https://unleash.example.com')), 'gzip, br');
    assert.equal(acceptEncoding(new URL('http://10.0.0.5:4242')), 'gzip, br');
    for (const local of ['http://localhost:4242', 'http://127.0.0.1:4242', 'http://[::1]:4242', 'http://LOCALHOST']) {
      assert.equal(acceptEncoding(new URL(local)), 'identity', local);
    }
  });

  it('times out a stalled server after the configured timeout', async () => {
    server.handle(() => new Promise(() => undefined));
    const started = Date.now();
    const error = await client({ timeoutMs: 200, retries: 0 }).getTag('team', 'x').catch((e: unknown) => e);
    assert.ok(error instanceof TimeoutError);
    assert.ok(Date.now() - started < 2000);
    assert.match(error.message, /did not answer within 0.2 s/);
  });

  it('cancels a request when its signal aborts', async () => {
    server.handle(() => new Promise(() => undefined));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(client().getTag('team', 'x', { signal: controller.signal }), CancelledError);
  });

  it('reports a refused connection as a NetworkError with its code, after bounded retries', async () => {
    const error = await client({ baseUrl: 'http://127.0.0.1:1' }).getTag('team', 'x').catch((e: unknown) => e);
    assert.ok(error instanceof NetworkError);
    assert.equal(error.code, 'ECONNREFUSED');
  });

  it('never repeats the token in an error, even when the server echoes it', async () => {
    server.handle((request) => ({ status: 401, body: { message: `Bad header: ${request.headers.authorization}` } }));
    const error = await client().getTag('team', 'x').catch((e: unknown) => e);
    assert.ok(error instanceof AuthError);
    assert.ok(!error.message.includes('0123456789abcdef'), error.message);
    assert.match(error.message, /«token»/);
  });
});
