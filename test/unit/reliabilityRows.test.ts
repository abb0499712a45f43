/**
 * The rules of docs/reliability.md's measured columns (reliabilityRows.ts): the meter counts what reached a server and
 * what never did, and a row that hand-writes a count or a time is refused.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { UnleashClient } from '../../src/api/client';
import type { HttpEvent } from '../../src/api/httpOptions';
import { closedPort, faults, startFaultServer, type FaultServer } from '../support/faultServer';
import { startProxyServer } from '../support/proxyServer';
import { atLeast, startMeter, tableCells, within, type Measurement, type Outcome, type RequestMeter } from './reliabilityRows';

const ENVIRONMENTS = { version: 1, environments: [{ name: 'development', type: 'development', enabled: true, sortOrder: 1 }] };
const closers: Array<() => Promise<void>> = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

function client(baseUrl: string, meter: RequestMeter, extra: Partial<ConstructorParameters<typeof UnleashClient>[0]> = {}): UnleashClient {
  const created = new UnleashClient({ baseUrl, getToken: () => 'token', retryBaseMs: 5, onEvent: (event: HttpEvent) => meter.onEvent(event), ...extra });
  closers.push(() => created.close());
  return created;
}

async function faultServer(): Promise<FaultServer> {
  const server = await startFaultServer();
  closers.push(() => server.close());
  return server;
}

/** Runs `fn` with a fresh meter and returns what it counted. */
async function metered(fn: (meter: RequestMeter) => Promise<unknown>): Promise<Measurement> {
  const meter = startMeter();
  try {
    await fn(meter);
    return meter.read();
  } finally {
    meter.stop();
  }
}

const nothing: Measurement = { attempts: 0, viaProxy: 0, reached: 0, retried: 0, servers: [] };

describe('the request meter', () => {
  it('counts the attempts of a refused connection, which no server records', async () => {
    const port = await closedPort();
    const measured = await metered((meter) => client(`http://127.0.0.1:${port}`, meter).listEnvironments().catch(() => undefined));
    assert.deepEqual({ ...measured, servers: undefined }, { attempts: 3, viaProxy: 0, reached: 0, retried: 2, servers: undefined });
    assert.equal(tableCells({ result: 'x' }, measured).requests, '0 of 3 attempts (retried 2×)');
  });

  it('counts what the server received, and the retries among it', async () => {
    const server = await faultServer();
    server.script(faults.status(503), faults.json(ENVIRONMENTS));
    const measured = await metered(async (meter) => {
      meter.watch(server);
      await client(server.url, meter).listEnvironments();
    });
    assert.equal(measured.reached, 2);
    assert.equal(measured.attempts, 2);
    assert.equal(measured.retried, 1);
    assert.deepEqual(measured.servers[0]?.requests.map((r) => r.path), ['/api/admin/environments', '/api/admin/environments']);
    assert.equal(tableCells({ result: 'x' }, measured).requests, '2 (retried 1×)');
  });

  it('counts only what a server records after it is watched', async () => {
    const server = await faultServer();
    server.script(faults.json(ENVIRONMENTS));
    const c = client(server.url, startMeter());
    await c.listEnvironments();
    const measured = await metered(async (meter) => {
      meter.watch(server);
      await client(server.url, meter).listEnvironments();
    });
    assert.equal(server.requests.length, 2);
    assert.equal(measured.reached, 1);
  });

  it('counts an attempt through a proxy that refuses, and the tunnel undici asked for', async () => {
    const proxy = await startProxyServer({ credentials: 'me:secret' });
    closers.push(() => proxy.close());
    const server = await faultServer();
    const measured = await metered(async (meter) => {
      meter.watch(server);
      await client(server.url, meter, { network: { proxy: proxy.url } }).listEnvironments().catch(() => undefined);
    });
    assert.deepEqual([measured.attempts, measured.viaProxy, measured.reached], [1, 1, 0]);
    assert.equal(tableCells({ result: 'x' }, measured).requests, '0 of 1 attempt (through the proxy, not retried)');
  });

  it('does not count a retry the caller cancelled before it was sent', async () => {
    const server = await faultServer();
    server.script(faults.status(503));
    const controller = new AbortController();
    const measured = await metered(async (meter) => {
      meter.watch(server);
      const pending = client(server.url, meter, { retryBaseMs: 10_000 }).listEnvironments({ signal: controller.signal }).catch(() => undefined);
      await server.waitForRequests(1);
      controller.abort();
      await pending;
    });
    assert.deepEqual([measured.attempts, measured.reached, measured.retried], [1, 1, 0]);
  });

  it('shows one count per named server, and one per endpoint sorted by path', async () => {
    const first = await faultServer();
    const second = await faultServer();
    second.script(faults.json(ENVIRONMENTS));
    const measured = await metered(async (meter) => {
      meter.watch(first, 'the first');
      meter.watch(second, 'the second');
      await client(second.url, meter).listEnvironments();
    });
    assert.equal(tableCells({ result: 'x', requests: { per: 'server' } }, measured).requests, '0 to the first, 1 to the second (not retried)');
    assert.equal(tableCells({ result: 'x', requests: { per: 'endpoint' } }, measured).requests, '1 (not retried): 1 × `/api/admin/environments`');
  });
});

describe('a row of the table', () => {
  it('refuses a hand-written count', () => {
    // @ts-expect-error a count is not something a row may declare
    const typed: Outcome = { result: 'succeeds', requests: '3' };
    assert.throws(() => tableCells(typed, nothing), /hand-written Requests value \("3"\)/);
    for (const requests of ['3', '0', '3 attempts (retried 2×)', '1 (not retried)', '—', 3]) {
      const row = { result: 'succeeds', requests } as unknown as Outcome;
      assert.throws(() => tableCells(row, nothing), /hand-written Requests value/, JSON.stringify(requests));
    }
  });

  it('refuses a figure in a note, and unknown ways of showing the count', () => {
    assert.throws(() => tableCells({ result: 'x', requests: { note: 'pages of 100, 4 at a time' } }, nothing), /figure/);
    assert.throws(() => tableCells({ result: 'x', requests: { per: 'hour' } as never }, nothing), /only 'server' or 'endpoint'/);
    assert.throws(() => tableCells({ result: 'x', requests: { count: 3 } as never }, nothing), /unknown Requests fields: count/);
  });

  it("refuses 'none' when the meter saw a request or an attempt", () => {
    assert.throws(() => tableCells({ result: 'x', requests: 'none' }, { ...nothing, attempts: 1 }), /declared 'none'/);
    assert.throws(() => tableCells({ result: 'x', requests: 'none' }, { ...nothing, viaProxy: 1 }), /declared 'none'/);
    assert.equal(tableCells({ result: 'x', requests: 'none' }, nothing).requests, 'none');
  });

  it('refuses a count the servers recorded that the meter did not see started', () => {
    assert.throws(() => tableCells({ result: 'x' }, { ...nothing, reached: 1 }), /went uncounted/);
  });

  it('refuses a hand-written time, and takes one a bound was checked on', () => {
    // @ts-expect-error only within() and atLeast() make a Time
    const typed: Outcome = { result: 'x', time: '≥ 1 s (Retry-After)' };
    assert.throws(() => tableCells(typed, nothing), /hand-written Time value/);
    assert.throws(() => tableCells({ result: 'x', time: '< 2 s' } as unknown as Outcome, nothing), /hand-written Time value/);
    assert.throws(() => tableCells({ result: 'x', time: { text: '< 2 s' } } as unknown as Outcome, nothing), /hand-written Time value/);
    assert.equal(tableCells({ result: 'x', time: within(120, 2_000, 'timeout 0.5 s') }, nothing).time, '< 2 s (timeout 0.5 s)');
    assert.equal(tableCells({ result: 'x', time: atLeast(1_003, 1_000, 'Retry-After') }, nothing).time, '≥ 1 s (Retry-After)');
  });

  it('checks the bound it prints', () => {
    assert.throws(() => within(2_500, 2_000), /more than 2000 ms/);
    assert.throws(() => atLeast(900, 1_000), /less than 1000 ms/);
  });
});
