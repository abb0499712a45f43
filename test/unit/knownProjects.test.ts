/**
 * The projects a listing found, remembered across windows: the next window's first listing asks no project list and
 * lists them all at once. What is stored is bounded and read defensively.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { UnleashClient } from '../../src/api/client';
import { StateKeys } from '../../src/base/constants';
import { KnownProjects } from '../../src/services/knownProjects';
import { ServerSource } from '../../src/services/serverSource';
import type { StateMemento } from '../../src/services/stateMemento';
import { routes, startFaultServer, type FaultServer } from '../support/faultServer';

/** globalState as a map, counting its writes. */
function memento(initial?: unknown): StateMemento & { writes: number; value(): unknown } {
  const data = new Map<string, unknown>(initial === undefined ? [] : [[StateKeys.knownProjects, initial]]);
  return {
    writes: 0,
    get: <T>(key: string) => data.get(key) as T | undefined,
    update(key, value) {
      this.writes++;
      data.set(key, value);
      return Promise.resolve();
    },
    value: () => data.get(StateKeys.knownProjects),
  };
}

describe('KnownProjects', () => {
  it('remembers the projects per server, and nothing for a server never listed', async () => {
    const known = new KnownProjects(memento());
    assert.deepEqual(known.get('https://a.example'), []);
    await known.remember('https://a.example', ['default', 'payments']);
    await known.remember('https://b.example', ['default']);
    assert.deepEqual(known.get('https://a.example'), ['default', 'payments']);
    assert.deepEqual(known.get('https://b.example'), ['default']);
  });

  it('writes only when the list changed', async () => {
    const state = memento();
    const known = new KnownProjects(state);
    await known.remember('https://a.example', ['default']);
    await known.remember('https://a.example', ['default']);
    assert.equal(state.writes, 1);
    await known.remember('https://a.example', ['default', 'new']);
    assert.equal(state.writes, 2);
  });

  it('keeps the 20 most recent servers and 200 names each', async () => {
    const state = memento();
    const known = new KnownProjects(state);
    for (let i = 0; i < 25; i++) await known.remember(`https://s${i}.example`, Array.from({ length: 300 }, (_, n) => `p${n}`));
    const stored = state.value() as Array<[string, string[]]>;
    assert.equal(stored.length, 20);
    assert.equal(stored[0]?.[0], 'https://s24.example');
    assert.equal(stored[0]?.[1].length, 200);
    assert.deepEqual(known.get('https://s0.example'), []);
  });

  it('a write that fails loses the hint and nothing else', async () => {
    const state = memento();
    state.update = () => Promise.reject(new Error('the state database is locked'));
    const known = new KnownProjects(state);
    await known.remember('https://a.example', ['default']);
    assert.deepEqual(known.get('https://a.example'), []);
  });

  it('ignores what it did not write: other shapes, non-strings, empty and over-long names', () => {
    assert.deepEqual(new KnownProjects(memento('default')).get('https://a.example'), []);
    assert.deepEqual(new KnownProjects(memento({ 'https://a.example': ['x'] })).get('https://a.example'), []);
    const junk = [['https://a.example', ['default', 7, '', 'x'.repeat(201), null, 'payments']], 'oops', [1, ['x']]];
    assert.deepEqual(new KnownProjects(memento(junk)).get('https://a.example'), ['default', 'payments']);
  });
});

describe('ServerSource with remembered projects', () => {
  let server: FaultServer;
  const rows = (project: string, count: number) => ({
    features: Array.from({ length: count }, (_, i) => ({ name: `${project}-flag-${i}`, type: 'release', environments: [] })),
  });

  before(async () => {
    server = await startFaultServer();
  });
  after(() => server.close());
  beforeEach(() => {
    server.reset();
    server.handle(
      routes({
        'GET /api/admin/projects': { body: { projects: [{ id: 'default' }, { id: 'payments' }] } },
        'GET /api/admin/projects/default/features': { body: rows('default', 150) },
        'GET /api/admin/projects/payments/features': { body: rows('payments', 2) },
        'GET /api/admin/search/features': { body: { features: [], total: 0 } },
      }),
    );
  });

  async function listInNewWindow(state: StateMemento, projects: string[] = []): Promise<string[]> {
    const client = new UnleashClient({ baseUrl: server.url, getToken: () => 'token' });
    try {
      const source = new ServerSource(client, projects, '', new KnownProjects(state));
      return (await source.listFeatures()).map((row) => `${row.project}/${row.name}`);
    } finally {
      await client.close();
    }
  }

  // 152 flags: more than one search page, so no search page is read for the rows' lifecycle (listing.ts).
  it('a second window lists every project the first found at once, without asking the project list', async () => {
    const state = memento();
    const first = await listInNewWindow(state);
    assert.ok(server.requests.some((request) => request.path === '/api/admin/projects'), 'the first window asks the project list');
    assert.deepEqual(new KnownProjects(state).get(server.url), ['default', 'payments']);

    server.reset();
    const second = await listInNewWindow(state);
    assert.deepEqual(second, first);
    assert.deepEqual(
      server.requests.map((request) => request.path).sort(),
      ['/api/admin/projects/default/features', '/api/admin/projects/payments/features', '/api/admin/search/features'],
    );
    assert.equal(server.requests.find((request) => request.path === '/api/admin/search/features')?.query.get('project'), 'IS_NONE_OF:default,payments');
  });

  it('remembers nothing when the projects are configured (unleash.projects)', async () => {
    const state = memento();
    assert.deepEqual(await listInNewWindow(state, ['payments']), ['payments/payments-flag-0', 'payments/payments-flag-1']);
    assert.equal(state.writes, 0);
  });
});
