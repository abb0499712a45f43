/**
 * A flag's history and usage as read and kept (src/model/activity/flagActivity.ts) and as the client asks for them
 * (src/api/client.ts featureEvents, featureUsage): the requests sent, the deprecated endpoint where the search is
 * missing, the bounds, the brief cache, a failure kept as long, and a 403 said once and not asked again.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { EventPage } from '../../src/api/activityReader';
import { UnleashClient } from '../../src/api/client';
import { ForbiddenError, SchemaError } from '../../src/api/errors';
import type { FeatureSummary } from '../../src/api/schemas';
import type { FeatureEvent, FeatureMetricsRow } from '../../src/api/activitySchemas';
import { Emitter } from '../../src/base/emitter';
import { Catalog } from '../../src/model/store/catalog';
import { FlagActivity, HISTORY_STEP, MAX_HISTORY_EVENTS } from '../../src/model/activity/flagActivity';
import type { FlagSource } from '../../src/model/store/flagSource';
import { routes, startFaultServer, type FaultServer } from '../support/faultServer';

const TOKEN = '*:*.0123456789abcdef0123456789abcdef';
let server: FaultServer;
const clients: UnleashClient[] = [];

function client(): UnleashClient {
  const created = new UnleashClient({ baseUrl: server.url, getToken: () => TOKEN, retryBaseMs: 5 });
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

function event(id: number, type = 'feature-environment-enabled'): FeatureEvent {
  return { id, type, createdAt: '2026-11-26T06:37:28.557Z', createdBy: 'admin', featureName: 'f', project: 'default', environment: 'production' };
}

describe('the client reads history and usage', () => {
  it('searches the events of one flag in one project, newest first, with a bounded page', async () => {
    server.handle(routes({ 'GET /api/admin/search/events': { body: { events: [event(3), event(2)], total: 7 } } }));
    const page = await client().featureEvents('a b&c', { project: 'my project', limit: 5000, offset: 2 });
    assert.deepEqual(page, { events: [event(3), event(2)], total: 7 });
    const query = server.requests[0]!.query;
    assert.deepEqual([query.get('feature'), query.get('project'), query.get('limit'), query.get('offset')], ['IS:a b&c', 'IS:my project', '100', '2']);
  });

  it('refuses a page holding more events than asked', async () => {
    server.handle(routes({ 'GET /api/admin/search/events': { body: { events: [event(3), event(2)], total: 7 } } }));
    await assert.rejects(client().featureEvents('f', { limit: 1, offset: 0 }), SchemaError);
  });

  it('a server without the event search answers from the deprecated endpoint, asked from then on', async () => {
    server.handle(
      routes({
        'GET /api/admin/events/f': {
          body: { version: 1, toggleName: 'f', events: [event(9), { ...event(8), project: 'other' }, event(7), event(6)], totalEvents: 4 },
        },
      }),
    );
    const c = client();
    const first = await c.featureEvents('f', { project: 'default', limit: 2, offset: 0 });
    assert.deepEqual(first, { events: [event(9), event(7)], total: 3, legacy: true });
    await c.featureEvents('f', { project: 'default', limit: 1, offset: 0 });
    assert.deepEqual(server.requests.map((r) => r.path), ['/api/admin/search/events', '/api/admin/events/f', '/api/admin/events/f']);
  });

  it('a 404 that answers (an Unleash error, not a missing path) is not taken for an old server', async () => {
    server.handle(() => ({ status: 404, body: { name: 'NotFoundError', message: 'No such feature' } }));
    await assert.rejects(client().featureEvents('f', { limit: 1, offset: 0 }), /No such feature/);
    assert.equal(server.requests.length, 1);
  });

  it('usage: the raw metrics of the last hours, at most 48', async () => {
    const rows: FeatureMetricsRow[] = [{ timestamp: '2026-11-26T06:00:00.000Z', environment: 'development', appName: 'web', yes: 3, no: 1, variants: { a: 2 } }];
    server.handle(routes({ 'GET /api/admin/client-metrics/features/a%2Fb/raw': { body: { version: 1, maturity: 'stable', data: rows } } }));
    assert.deepEqual(await client().featureUsage('a/b', 500), rows);
    assert.equal(server.requests[0]!.query.get('hoursBack'), '48');
  });

  it('a 403 is a ForbiddenError', async () => {
    server.handle(() => ({ status: 403, body: { message: 'invalid token: expected a different token type for this endpoint' } }));
    await assert.rejects(client().featureUsage('f', 24), ForbiddenError);
  });
});

// ---- FlagActivity over a scripted source ------------------------------------------

class Source implements FlagSource {
  readonly kind = 'server' as const;
  readonly label = 'unleash.example.com';
  readonly calls: string[] = [];
  history: (page: { limit: number; offset: number }) => Promise<EventPage> = async () => ({ events: [event(1)], total: 1 });
  usageAnswer: () => Promise<FeatureMetricsRow[]> = async () => [];
  async listFeatures(): Promise<FeatureSummary[]> {
    return [];
  }
  async getFeature(): Promise<never> {
    throw new Error('not here');
  }
  async getStrategySegments() {
    return [];
  }
  async listEnvironments() {
    return [];
  }
  flagHistory(project: string, name: string, page: { limit: number; offset: number }): Promise<EventPage> {
    this.calls.push(`history ${project}/${name} ${page.limit}@${page.offset}`);
    return this.history(page);
  }
  flagUsage(name: string, hours: number): Promise<FeatureMetricsRow[]> {
    this.calls.push(`usage ${name} ${hours}`);
    return this.usageAnswer();
  }
}

function setUp(source: FlagSource | undefined = new Source()) {
  const changed = new Emitter<void>();
  const store = { currentSource: source, catalog: Catalog.empty, onDidChange: changed.event };
  const warnings: string[] = [];
  let now = 1_000_000;
  const activity = new FlagActivity(store, { warn: (m) => warnings.push(m) }, { ttlMs: 60_000, now: () => now });
  return {
    store,
    activity,
    warnings,
    tick: (ms: number) => (now += ms),
    refresh: () => {
      store.catalog = new Catalog([]);
      changed.fire(undefined);
    },
  };
}

describe('FlagActivity', () => {
  it('reads once for callers at the same time, answers from memory, and again after the brief time', async () => {
    const source = new Source();
    const t = setUp(source);
    assert.equal(t.activity.peekLatest('default', 'f'), undefined);
    const [a, b] = await Promise.all([t.activity.latest('default', 'f'), t.activity.latest('default', 'f')]);
    assert.deepEqual(a, { value: event(1) });
    assert.deepEqual(b, a);
    assert.deepEqual(t.activity.peekLatest('default', 'f'), { value: event(1) });
    assert.deepEqual(source.calls, ['history default/f 1@0']);
    t.tick(60_000);
    assert.equal(t.activity.peekLatest('default', 'f'), undefined);
    await t.activity.latest('default', 'f');
    assert.equal(source.calls.length, 2);
  });

  it('a failure is kept as long as an answer: one failing flag does not make every hover ask again', async () => {
    const source = new Source();
    source.usageAnswer = async () => {
      throw new Error('boom');
    };
    const t = setUp(source);
    const first = await t.activity.usage('f');
    assert.ok(first && 'unavailable' in first && /boom/.test(first.unavailable));
    assert.deepEqual(await t.activity.usage('f'), first);
    assert.equal(source.calls.length, 1);
  });

  it('a 403 is written to the log once, said where the part would show, and never asked again until the source changes', async () => {
    const source = new Source();
    source.history = async () => {
      throw new ForbiddenError({ status: 403, request: 'GET /api/admin/search/events', serverMessage: 'You need READ_EVENTS' });
    };
    const t = setUp(source);
    const a = await t.activity.latest('default', 'f');
    const b = await t.activity.latest('default', 'g');
    t.refresh();
    const c = await t.activity.history('default', 'h');
    assert.deepEqual(source.calls, ['history default/f 1@0']);
    for (const known of [a, b, c]) assert.ok(known && 'forbidden' in known && known.forbidden);
    assert.equal(t.warnings.length, 1);
    assert.match(t.warnings[0]!, /^History is left out: the token may not read the event log\. The API token has no permission for this \(403\): You need READ_EVENTS/);
    // Usage is another permission: still read.
    assert.deepEqual(await t.activity.usage('f'), { value: [] });
  });

  it('a refresh forgets what was read', async () => {
    const source = new Source();
    const t = setUp(source);
    await t.activity.usage('f');
    t.refresh();
    assert.equal(t.activity.peekUsage('f'), undefined);
  });

  it('history: pages until the last event or the step, and the first event is the latest change', async () => {
    const source = new Source();
    source.history = async (page) => ({ events: Array.from({ length: page.limit }, (_, i) => event(10_000 - page.offset - i)), total: 5000 });
    const t = setUp(source);
    const history = await t.activity.history('default', 'f');
    assert.ok(history && 'value' in history);
    assert.equal(history.value.events.length, HISTORY_STEP);
    assert.deepEqual(history.value.events.slice(0, 1), [{ who: 'admin', what: 'enabled in production', at: Date.parse('2026-11-26T06:37:28.557Z'), createdAt: '2026-11-26T06:37:28.557Z', id: 10_000 }]);
    assert.equal(history.value.total, 5000);
    assert.deepEqual(source.calls, ['history default/f 50@0', 'history default/f 50@50', 'history default/f 50@100', 'history default/f 50@150']);
    assert.deepEqual(t.activity.peekLatest('default', 'f'), { value: event(10_000) });

    source.calls.length = 0;
    source.history = async (page) => ({ events: page.offset === 0 ? [event(2), event(1)] : [], total: 2 });
    const short = await t.activity.history('default', 'g');
    assert.ok(short && 'value' in short);
    assert.deepEqual([short.value.events.map((entry) => entry.id), short.value.total, short.value.end], [[2, 1], 2, true]);
    assert.deepEqual(source.calls, ['history default/g 50@0']);
  });

  it('history: more is read from where the last page ended; a change made meanwhile is not listed twice', async () => {
    const source = new Source();
    let newest = 10_000;
    source.history = async (page) => ({ events: Array.from({ length: page.limit }, (_, i) => event(newest - page.offset - i)), total: 5000 });
    const t = setUp(source);
    await t.activity.history('default', 'f');
    source.calls.length = 0;
    newest += 1; // a change made since: every page moves by one
    const more = await t.activity.history('default', 'f', undefined, HISTORY_STEP * 2);
    assert.ok(more && 'value' in more);
    const ids = more.value.events.map((entry) => entry.id as number);
    assert.equal(new Set(ids).size, ids.length, 'no change listed twice');
    assert.deepEqual([ids[0], ids[HISTORY_STEP], ids.at(-1)], [10_000, 10_000 - HISTORY_STEP, 10_000 - 2 * HISTORY_STEP + 1]);
    assert.deepEqual(source.calls.slice(0, 2), ['history default/f 50@200', 'history default/f 50@250']);
    assert.equal(source.calls.length, 5, 'one page more for the repeated change');
    // Asking again for as many answers from memory; never more than the bound.
    source.calls.length = 0;
    await t.activity.history('default', 'f', undefined, HISTORY_STEP * 2);
    assert.deepEqual(source.calls, []);
    assert.equal(MAX_HISTORY_EVENTS, 5_000);
  });

  it('history: a page that fails after others keeps those, says why, and is asked again only for more', async () => {
    const source = new Source();
    source.history = async (page) => {
      if (page.offset >= 100) throw new Error('boom');
      return { events: Array.from({ length: page.limit }, (_, i) => event(1000 - page.offset - i)), total: 500 };
    };
    const t = setUp(source);
    const history = await t.activity.history('default', 'f');
    assert.ok(history && 'value' in history);
    assert.equal(history.value.events.length, 100);
    assert.match(history.value.stopped?.reason ?? '', /boom/);
    source.calls.length = 0;
    await t.activity.history('default', 'f');
    assert.deepEqual(source.calls, [], 'the failure is remembered');
    await t.activity.history('default', 'f', undefined, HISTORY_STEP * 2);
    assert.deepEqual(source.calls, ['history default/f 50@100']);
  });

  it('export files: nothing to read, and it says so', async () => {
    const offline = { ...new Source(), kind: 'files' as const, flagHistory: undefined, flagUsage: undefined } as unknown as FlagSource;
    const t = setUp(offline);
    const known = await t.activity.usage('f');
    assert.deepEqual(known, { unavailable: 'export files hold no history or usage; connect to a server to see them', offline: true });
  });
});
