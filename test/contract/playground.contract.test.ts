/**
 * The playground through the client against a real Unleash (7.5.1 or 8.2.0) with the seed of tools/unleash/seed-data.ts:
 * every live seeded flag in every environment for 192 combinations of a context (six users, two applications, two
 * addresses, two tenants, two app versions, two account ages), chosen so that constraints, segments, dependencies
 * and rollouts go both ways. The tests assert what a user would read: which strategy decided, which constraint failed
 * and on which value. The same query read in parts under a lower bound answers the same; a query past the server's
 * 15,000 combinations is refused by the server (its words asserted) and read in parts by the client.
 *   UNLEASH_CONTRACT_SERVER=8.2.0 node --import tsx --test test/contract/playground.contract.test.ts
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { UnleashClient, type ClientOptions } from '../../src/api/client';
import type { PlaygroundQuery } from '../../src/api/playground';
import type { PlaygroundEvaluation, PlaygroundResult } from '../../src/api/playgroundResult';
import { readSeededIds, SEED, seedStrategy, type SeededIds } from '../../tools/unleash';
import { useRealUnleash } from './env';

const unleash = useRealUnleash();

/** In and out of new-checkout-flow's 50 % rollout (groupId and userId hashed alike on both generations): dana gets variant blue, erin green. */
const USERS = ['alice@example.com', 'dana@example.com', 'erin@example.com', 'bob@example.com', 'blocked-user-1', 'qa-tester@example.com'];
const QUERY: PlaygroundQuery = {
  environments: [...SEED.environments],
  projects: '*',
  context: {
    appName: 'checkout-api,web-shop',
    userId: USERS.join(','),
    remoteAddress: '10.1.2.3,172.16.0.1',
    properties: { tenantId: 'acme,globex', appVersion: '3.0.0,1.0.0', accountAgeDays: '40,3', country: 'DE' },
  },
};
const COMBINATIONS = USERS.length * 2 * 2 * 2 * 2 * 2;
const LIVE_FLAGS = SEED.flags.filter((flag) => !flag.archived);

function client(overrides: Partial<ClientOptions> = {}): UnleashClient {
  return new UnleashClient({ baseUrl: unleash.current.url, getToken: () => unleash.current.adminToken, timeoutMs: 60_000, ...overrides });
}

let ids: SeededIds;
let whole: PlaygroundResult;

const id = (key: string) => {
  seedStrategy(key);
  const found = ids.strategyIds[key];
  assert.ok(found, key);
  return found;
};

interface Combination {
  userId: string;
  appName?: string;
  remoteAddress?: string;
  tenantId?: string;
  appVersion?: string;
  accountAgeDays?: string;
}

/** The first value of each field of QUERY's context. */
const FIRST_VALUES = { appName: 'checkout-api', remoteAddress: '10.1.2.3', tenantId: 'acme', appVersion: '3.0.0', accountAgeDays: '40', country: 'DE' };

/** The evaluation of one combination of `result`; the fields not named hold the first value of each. */
function pick(flag: string, environment: string, combination: Combination, result = whole, others: Record<string, string> = FIRST_VALUES): PlaygroundEvaluation {
  const wanted: Record<string, string> = { ...others, ...combination };
  const found = result.flags
    .find((candidate) => candidate.name === flag)
    ?.environments.find((candidate) => candidate.name === environment)
    ?.evaluations.filter((evaluation) => Object.entries(wanted).every(([name, value]) => evaluation.context[name] === value));
  assert.equal(found?.length, 1, `${flag} in ${environment} for ${JSON.stringify(wanted)}`);
  return found[0] as PlaygroundEvaluation;
}

/** Every evaluation of a result by flag, environment and context, as JSON (for comparing two reads). */
function byCombination(result: PlaygroundResult): Map<string, string> {
  const map = new Map<string, string>();
  for (const flag of result.flags)
    for (const environment of flag.environments)
      for (const evaluation of environment.evaluations) {
        const key = `${flag.project}/${flag.name}|${environment.name}|${JSON.stringify(Object.entries(evaluation.context).sort())}`;
        assert.ok(!map.has(key), `${key} twice`);
        map.set(key, JSON.stringify(evaluation));
      }
  return map;
}

describe('the playground on a real server', () => {
  // In the suite, so that it runs once the file's own server (if any) is up.
  before(async () => {
    ids = await readSeededIds(unleash.current.url, unleash.current.adminToken);
    const reader = client();
    try {
      whole = await reader.playground(QUERY);
    } finally {
      await reader.close();
    }
  });

  it('evaluates every live seeded flag in every environment for every combination, once', () => {
    assert.deepEqual(
      whole.flags.map((flag) => `${flag.project}/${flag.name}`),
      LIVE_FLAGS.map((flag) => `${flag.project}/${flag.name}`).sort(),
    );
    for (const flag of whole.flags) {
      assert.deepEqual(
        flag.environments.map((environment) => [environment.name, environment.evaluations.length]),
        SEED.environments.map((environment) => [environment, COMBINATIONS]),
        flag.name,
      );
    }
    assert.equal(byCombination(whole).size, LIVE_FLAGS.length * SEED.environments.length * COMBINATIONS);
    assert.deepEqual(whole.ignoredContextFields, []);
    assert.equal(whole.parts, 1);
  });

  it('new-checkout-flow in development: the rollout decides between its two strategies, constraints and segments show the values tested', () => {
    const outside = pick('new-checkout-flow', 'development', { userId: 'alice@example.com' });
    assert.equal(outside.enabled, true);
    assert.equal(outside.decidedBy, id('new-checkout-flow/development/everyone'));
    const [gated] = outside.strategies;
    assert.deepEqual([gated?.id, gated?.title, gated?.enabled], [id('new-checkout-flow/development/internal-and-beta'), 'Internal and beta users', false]);
    assert.deepEqual(
      gated?.constraints.map((constraint) => [constraint.contextName, constraint.operator, constraint.result, constraint.contextValue]),
      [
        ['tenantId', 'IN', true, 'acme'],
        ['userId', 'NOT_IN', true, 'alice@example.com'],
      ],
    );
    assert.deepEqual(
      gated?.segments.map((segment) => [segment.id, segment.name, segment.result]),
      [
        [ids.segmentIds['internal-users'], 'internal-users', true],
        [ids.segmentIds['beta-testers'], 'beta-testers', true],
      ],
    );

    const inside = pick('new-checkout-flow', 'development', { userId: 'dana@example.com' });
    assert.deepEqual([inside.enabled, inside.decidedBy], [true, id('new-checkout-flow/development/internal-and-beta')]);
    assert.deepEqual(inside.variant, { name: 'blue', enabled: true, payload: { type: 'json', value: '{"color":"blue","rounded":true}' } });
    assert.equal(pick('new-checkout-flow', 'development', { userId: 'erin@example.com' }).variant.name, 'green');

    const blocked = pick('new-checkout-flow', 'development', { userId: 'blocked-user-1' });
    assert.deepEqual(blocked.strategies[0]?.constraints[1], {
      contextName: 'userId',
      operator: 'NOT_IN',
      values: ['blocked-user-1', 'blocked-user-2'],
      inverted: false,
      caseInsensitive: false,
      result: false,
      contextValue: 'blocked-user-1',
    });
    assert.equal(blocked.decidedBy, id('new-checkout-flow/development/everyone'));

    const outsideBeta = pick('new-checkout-flow', 'development', { userId: 'dana@example.com', tenantId: 'globex', appVersion: '1.0.0' });
    assert.equal(outsideBeta.decidedBy, id('new-checkout-flow/development/everyone'));
    assert.deepEqual(outsideBeta.strategies[0]?.segments[1]?.constraints, [
      { contextName: 'tenantId', operator: 'IN', values: ['acme', 'initech'], inverted: false, caseInsensitive: false, result: false, contextValue: 'globex' },
      { contextName: 'appVersion', operator: 'SEMVER_GT', values: ['2.0.0'], inverted: false, caseInsensitive: false, result: false, contextValue: '1.0.0' },
    ]);
  });

  it('new-checkout-flow-ui: on only where its parent is on with variant blue', () => {
    const blue = pick('new-checkout-flow-ui', 'development', { userId: 'dana@example.com' });
    assert.deepEqual([blue.enabled, blue.unsatisfiedDependency, blue.decidedBy], [true, false, id('new-checkout-flow-ui/development/all')]);
    const green = pick('new-checkout-flow-ui', 'development', { userId: 'erin@example.com' });
    assert.deepEqual([green.enabled, green.unsatisfiedDependency, green.strategies[0]?.enabled], [false, true, true]);
    assert.deepEqual(pick('new-checkout-flow-ui', 'production', { userId: 'dana@example.com' }).environmentEnabled, false);
  });

  it('new-checkout-flow in production: off in the environment, its staff constraints failing on the values given', () => {
    for (const userId of USERS) assert.deepEqual(pick('new-checkout-flow', 'production', { userId }).enabled, false, userId);
    const results = (combination: Combination) =>
      pick('new-checkout-flow', 'production', combination).strategies[0]?.constraints.map((constraint) => [constraint.operator, constraint.result, constraint.contextValue]);
    assert.deepEqual(results({ userId: 'qa-tester@example.com' }), [
      ['STR_ENDS_WITH', true, 'qa-tester@example.com'],
      ['STR_CONTAINS', false, 'qa-tester@example.com'],
      ['STR_STARTS_WITH', true, 'checkout-api'],
    ]);
    assert.deepEqual(results({ userId: 'blocked-user-1', appName: 'web-shop' }), [
      ['STR_ENDS_WITH', false, 'blocked-user-1'],
      ['STR_CONTAINS', true, 'blocked-user-1'],
      ['STR_STARTS_WITH', false, 'web-shop'],
    ]);
    const staff = pick('new-checkout-flow', 'production', { userId: 'alice@example.com' }).strategies[0]?.constraints[0];
    assert.deepEqual([staff?.values, staff?.caseInsensitive], [['@Example.com'], true]);
    assert.equal(pick('new-checkout-flow', 'production', { userId: 'alice@example.com' }).strategies[0]?.constraints[1]?.inverted, true);
  });

  it('admin-panel: by app version, and a disabled strategy that leaves it off rather than unknown', () => {
    assert.deepEqual(pick('admin-panel', 'development', { userId: 'bob@example.com' }).decidedBy, id('admin-panel/development/v3'));
    const old = pick('admin-panel', 'development', { userId: 'bob@example.com', appVersion: '1.0.0' });
    assert.equal(old.enabled, false);
    assert.deepEqual(
      old.strategies[0]?.constraints.map((constraint) => [constraint.operator, constraint.values, constraint.result, constraint.contextValue]),
      [['SEMVER_EQ', ['3.0.0'], false, '1.0.0']],
    );
    assert.equal(pick('admin-panel', 'production', { userId: 'bob@example.com' }).decidedBy, id('admin-panel/production/supported-versions'));
    const paused = pick('admin-panel', 'production', { userId: 'bob@example.com', appVersion: '1.0.0' });
    assert.equal(paused.enabled, false);
    assert.deepEqual(
      paused.strategies.map((strategy) => [strategy.id, strategy.disabled, strategy.enabled, strategy.evaluation]),
      [
        [id('admin-panel/production/supported-versions'), false, false, 'complete'],
        [id('admin-panel/production/paused'), true, 'unknown', 'unevaluated'],
      ],
    );
  });

  it('maintenance-mode and checkout-fraud-check: by address, and off or on in the whole environment', () => {
    assert.equal(pick('maintenance-mode', 'production', { userId: 'alice@example.com' }).decidedBy, id('maintenance-mode/production/office'));
    const outside = pick('maintenance-mode', 'production', { userId: 'alice@example.com', remoteAddress: '172.16.0.1' });
    assert.deepEqual([outside.enabled, outside.strategies[0]?.name, outside.strategies[0]?.enabled], [false, 'remoteAddress', false]);
    assert.deepEqual(pick('maintenance-mode', 'development', { userId: 'alice@example.com' }).environmentEnabled, false);
    for (const userId of USERS) {
      assert.equal(pick('checkout-fraud-check', 'production', { userId, tenantId: 'globex' }).decidedBy, id('checkout-fraud-check/production/everyone'));
      assert.equal(pick('checkout-fraud-check', 'development', { userId }).enabled, false);
    }
  });

  it('ops-log-level: the application name matched by a case-insensitive regular expression', () => {
    const api = pick('ops-log-level', 'development', { userId: 'alice@example.com' });
    assert.deepEqual([api.enabled, api.decidedBy], [true, id('ops-log-level/development/checkout-apps')]);
    assert.deepEqual(api.strategies[1]?.constraints, [
      { contextName: 'appName', operator: 'REGEX', values: ['^checkout-(api|worker)$'], inverted: false, caseInsensitive: true, result: true, contextValue: 'checkout-api' },
    ]);
    const shop = pick('ops-log-level', 'development', { userId: 'alice@example.com', appName: 'web-shop' });
    assert.deepEqual([shop.strategies[1]?.enabled, shop.strategies[1]?.constraints[0]?.result], [false, false]);
    // Only the host name strategy (the server's own host name) could turn it on then.
    assert.equal(shop.enabled, shop.strategies[0]?.enabled);
  });

  it('pricing-experiment: account age compared as numbers; the current time is the server clock', () => {
    const established = pick('pricing-experiment', 'development', { userId: 'alice@example.com' });
    assert.deepEqual([established.enabled, established.decidedBy], [true, id('pricing-experiment/development/established-accounts')]);
    assert.ok(['price-a', 'price-b'].includes(established.variant.name), established.variant.name);
    const young = pick('pricing-experiment', 'development', { userId: 'alice@example.com', accountAgeDays: '3' });
    assert.equal(young.enabled, false);
    assert.deepEqual(
      young.strategies.flatMap((strategy) => strategy.constraints.map((constraint) => [constraint.operator, constraint.values, constraint.result, constraint.contextValue])),
      [
        ['NUM_GT', ['7'], false, '3'],
        ['NUM_LTE', ['3650'], true, '3'],
        ['NUM_EQ', ['30'], false, '3'],
      ],
    );
    const window = pick('pricing-experiment', 'production', { userId: 'alice@example.com' }).strategies[0]?.constraints ?? [];
    assert.deepEqual(
      window.map((constraint) => [constraint.contextName, constraint.operator, constraint.contextValue]),
      [
        ['accountAgeDays', 'NUM_GTE', '40'],
        ['accountAgeDays', 'NUM_LT', '40'],
        ['currentTime', 'DATE_AFTER', undefined],
        ['currentTime', 'DATE_BEFORE', undefined],
      ],
    );
  });

  it('checkout-express-pay: a tenant in development, a project segment and a 25 % rollout in production', () => {
    assert.equal(pick('checkout-express-pay', 'development', { userId: 'alice@example.com' }).decidedBy, id('checkout-express-pay/development/acme'));
    const globex = pick('checkout-express-pay', 'development', { userId: 'alice@example.com', tenantId: 'globex' });
    assert.deepEqual([globex.enabled, globex.strategies[0]?.constraints[0]?.result, globex.strategies[0]?.constraints[0]?.contextValue], [false, false, 'globex']);
    const inRollout = pick('checkout-express-pay', 'production', { userId: 'bob@example.com' });
    assert.deepEqual([inRollout.enabled, inRollout.decidedBy, inRollout.variant.name], [true, id('checkout-express-pay/production/eu'), 'google-pay']);
    const outRollout = pick('checkout-express-pay', 'production', { userId: 'alice@example.com' });
    assert.equal(outRollout.enabled, false);
    assert.deepEqual(outRollout.strategies[0]?.segments, [
      {
        id: ids.segmentIds['checkout-eu'],
        name: 'checkout-eu',
        result: true,
        constraints: [{ contextName: 'country', operator: 'IN', values: ['DE', 'FR', 'NL'], inverted: false, caseInsensitive: false, result: true, contextValue: 'DE' }],
      },
    ]);
  });

  it('answers the same when read in parts under a lower bound, planned from the flags per project', async () => {
    const perProject = new Map<string, number>();
    for (const flag of LIVE_FLAGS) perProject.set(flag.project, (perProject.get(flag.project) ?? 0) + 1);
    const reader = client({ playgroundLimits: { perRequest: 500 } });
    try {
      const parts = await reader.playground({ ...QUERY, flagsPerProject: perProject });
      assert.ok(parts.parts >= 7, `${parts.parts} parts`);
      assert.deepEqual(byCombination(parts), byCombination(whole));
    } finally {
      await reader.close();
    }
  });

  it('past 15,000 combinations: the server refuses with its count, and the client reads the query in parts', async () => {
    const users = Array.from({ length: 938 }, (_, n) => `user-${n}`).join(',');
    const body = { environments: [...SEED.environments], projects: '*', context: { appName: 'checkout-api', userId: users } };
    const refused = await fetch(`${unleash.current.url}/api/admin/playground/advanced`, {
      method: 'POST',
      headers: { authorization: unleash.current.adminToken, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const words =
      'Rejecting evaluation as it would generate 15008 combinations exceeding 15000 limit. Please reduce the number of selected environments (2), features (8), context field combinations (938).';
    assert.equal(refused.status, 400);
    assert.deepEqual(await refused.json(), {
      name: 'BadDataError',
      message: `Request validation failed: your request body or params contain invalid data: ${words}`,
      details: [{ message: words }],
    });

    const reader = client();
    try {
      const result = await reader.playground({ environments: body.environments, projects: '*', context: body.context });
      assert.equal(result.parts, 2);
      assert.equal(byCombination(result).size, 15_008);
      const evaluation = pick('checkout-fraud-check', 'production', { userId: 'user-937', appName: 'checkout-api' }, result, {});
      assert.equal(evaluation.decidedBy, id('checkout-fraud-check/production/everyone'));
    } finally {
      await reader.close();
    }
  });
});
