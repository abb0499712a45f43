/**
 * Smoke test of the contract-test harness: a real Unleash starts, the seed is there, it stops.
 *   node --import tsx --test test/contract/harness.test.ts
 */
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { SEED, readSeededIds, seedFlag, serverVersionFromEnv, startRealUnleash, verifySeed, type RealUnleash } from '../../tools/unleash/index';
import { isAlive } from '../../tools/unleash/procs';

let unleash: RealUnleash | undefined;
const suiteStarted = Date.now();

before(async () => {
  unleash = await startRealUnleash({
    log: (line) => {
      if (process.env.CONTRACT_VERBOSE) console.error(line);
    },
  });
});

after(async () => {
  await unleash?.stop();
});

function server(): RealUnleash {
  assert.ok(unleash, 'the server did not start');
  return unleash;
}

async function get(path: string, token = server().adminToken): Promise<{ status: number; body: unknown }> {
  const res = await fetch(server().url + path, { headers: { Authorization: token, Accept: 'application/json' }, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

test('a real, seeded Unleash starts and stops', async (t) => {
  const u = server();
  const tm = u.timings;
  t.diagnostic(
    `install ${tm.installed ? `${tm.installMs} ms (npm ci ran)` : 'skipped (already installed)'}; ` +
      `postgres ${tm.postgresMs} ms; unleash start ${u.startMs} ms; seed ${u.seedMs} ms; total ${tm.totalMs} ms`,
  );

  await t.test('health and version', async () => {
    assert.deepEqual((await get('/health')).body, { health: 'GOOD' });
    const ui = await get('/api/admin/ui-config');
    assert.equal(ui.status, 200);
    // The generation asked for (UNLEASH_CONTRACT_SERVER, else 7.5.1) is the one answering.
    assert.equal((ui.body as { version: string }).version, u.version);
    assert.equal(u.version, serverVersionFromEnv());
  });

  await t.test('seeded tags, including one with a space', async () => {
    assert.deepEqual(await get('/api/admin/tags/team/payments'), {
      status: 200,
      body: { version: 1, tag: { type: 'team', value: 'payments' } },
    });
    assert.equal((await get('/api/admin/tags/simple/needs%20review')).status, 200);
    assert.equal((await get('/api/admin/tags/jira/unused-tag')).status, 200);
  });

  await t.test('the SQL-created checkout project lists its flags', async () => {
    const res = await get('/api/admin/projects/checkout/features');
    assert.equal(res.status, 200);
    const names = (res.body as { features: { name: string }[] }).features.map((f) => f.name).sort();
    assert.deepEqual(names, SEED.flags.filter((f) => f.project === 'checkout').map((f) => f.name).sort());
  });

  await t.test('a seeded flag, its dependency and the archived flag', async () => {
    const res = await get('/api/admin/projects/default/features/new-checkout-flow-ui');
    assert.equal(res.status, 200);
    const body = res.body as { dependencies: unknown[] };
    assert.deepEqual(body.dependencies, seedFlag('new-checkout-flow-ui').dependencies);
    assert.equal((await get('/api/admin/projects/default/features/old-banner')).status, 404);
  });

  await t.test('tokens: backend token is refused on the Admin API', async () => {
    const res = await get('/api/admin/tags/team/payments', u.backendToken);
    assert.equal(res.status, 403);
    assert.equal((await get('/api/admin/tags/team/payments', u.frontendToken)).status, 403);
  });

  await t.test('the server matches SEED in every detail', async () => {
    const problems = await verifySeed(u.url, u.adminToken, u.seeded);
    assert.deepEqual(problems, []);
    // A process given only the URL and token can recover the same ids.
    assert.deepEqual(await readSeededIds(u.url, u.adminToken), u.seeded);
    assert.equal(Object.keys(u.seeded.strategyIds).length, SEED.flags.reduce(
      (n, f) => n + f.environments.development.strategies.length + f.environments.production.strategies.length, 0));
  });

  await t.test('stop() stops both servers by pid and is idempotent', async () => {
    const { pids } = u;
    assert.ok(isAlive(pids.unleash) && isAlive(pids.postgres));
    await Promise.all([u.stop(), u.stop()]);
    await u.stop();
    assert.equal(isAlive(pids.unleash), false, 'unleash still running');
    assert.equal(isAlive(pids.postgres), false, 'postgres still running');
    t.diagnostic(`suite ${Date.now() - suiteStarted} ms`);
  });
});
