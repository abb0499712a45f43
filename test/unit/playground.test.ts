/**
 * The playground through the client, against the fault server: a query past the server's 15,000 combinations is
 * read in parts under it and put together (fakePlayground.ts refuses as the real server does), an answer of another
 * shape is a SchemaError naming the field, and the answers 7.5.1 and 8.2.0 gave (test/fixtures/playground-*.json,
 * captured from real servers seeded by tools/unleash plus a custom strategy, cut to four flags) read into the same
 * typed result.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { UnleashClient, type ClientOptions } from '../../src/api/client';
import { AuthError, BadRequestError, SchemaError } from '../../src/api/errors';
import type { PlaygroundQuery } from '../../src/api/playground';
import { combinationCount, contextParts } from '../../src/api/playgroundContext';
import { PlaygroundTooLargeError } from '../../src/api/playgroundPlan';
import type { PlaygroundEvaluation, PlaygroundResult } from '../../src/api/playgroundResult';
import { startFaultServer, type FaultServer } from '../support/faultServer';
import { EVEN_DIGITS, fakePlayground, type FakeFlag } from '../support/fakePlayground';

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
  server.reset();
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server.close();
});

/** `count` flags named `<project>-<n>` in each project. */
function catalog(projects: Record<string, number>): FakeFlag[] {
  return Object.entries(projects).flatMap(([project, count]) => Array.from({ length: count }, (_, n) => ({ name: `${project}-${n}`, project })));
}

const users = (count: number) => Array.from({ length: count }, (_, n) => `user-${n}`).join(',');

/** Every evaluation of the result, keyed `flag|environment|context` (sorted keys), with how often each came. */
function evaluationsByKey(result: PlaygroundResult): Map<string, PlaygroundEvaluation[]> {
  const found = new Map<string, PlaygroundEvaluation[]>();
  for (const flag of result.flags)
    for (const environment of flag.environments)
      for (const evaluation of environment.evaluations) {
        const context = JSON.stringify(Object.fromEntries(Object.entries(evaluation.context).sort()));
        const key = `${flag.project}/${flag.name}|${environment.name}|${context}`;
        found.set(key, [...(found.get(key) ?? []), evaluation]);
      }
  return found;
}

/** The requests the fake got, with the combinations each asked: environments × flags of its projects × contexts. */
function askedCombinations(flags: readonly FakeFlag[]): number[] {
  return server.requests.map((request) => {
    const body = request.json as { environments: string[]; projects: '*' | string[]; context: PlaygroundQuery['context'] };
    const chosen = flags.filter((flag) => body.projects === '*' || body.projects.includes(flag.project)).length;
    return body.environments.length * chosen * combinationCount(body.context);
  });
}

/** Checks that every flag × environment × user came exactly once, on where the user id ends with an even digit. */
function assertComplete(result: PlaygroundResult, flags: readonly FakeFlag[], environments: readonly string[], userIds: readonly string[], extra: Record<string, string[]> = {}) {
  const found = evaluationsByKey(result);
  let expected = 0;
  const contexts = Object.entries({ userId: [...userIds], ...extra, appName: ['shop'] }).reduce<Record<string, string>[]>(
    (partials, [key, values]) => partials.flatMap((partial) => values.map((value) => ({ ...partial, [key]: value }))),
    [{}],
  );
  for (const flag of flags)
    for (const environment of environments)
      for (const context of contexts) {
        const key = `${flag.project}/${flag.name}|${environment}|${JSON.stringify(Object.fromEntries(Object.entries(context).sort()))}`;
        const evaluations = found.get(key) ?? [];
        assert.equal(evaluations.length, 1, `${key} came ${evaluations.length} times`);
        const on = EVEN_DIGITS.some((digit) => (context.userId ?? '').endsWith(digit));
        assert.equal(evaluations[0]?.enabled, on, key);
        assert.equal(evaluations[0]?.strategies[0]?.constraints[0]?.contextValue, context.userId, key);
        expected += 1;
      }
  assert.equal(found.size, expected, 'no evaluation beyond those asked');
}

describe('the playground: a query past the server limit, read in parts', () => {
  it('cuts by environments and context values, every part under 15,000, when the caller counts the flags', async () => {
    const flags = catalog({ default: 600, checkout: 400 });
    server.handle(fakePlayground(flags));
    const query: PlaygroundQuery = {
      environments: ['development', 'production'],
      projects: '*',
      context: { appName: 'shop', userId: users(10) },
      flagsPerProject: new Map([
        ['default', 600],
        ['checkout', 400],
      ]),
    };
    const result = await client().playground(query);
    // 2 × 1,000 × 10 = 20,000 combinations in all.
    assertComplete(result, flags, query.environments, users(10).split(','));
    const asked = askedCombinations(flags);
    assert.ok(asked.length >= 2 && asked.every((count) => count <= 15_000), `asked ${asked.join(', ')}`);
    assert.equal(asked.reduce((sum, count) => sum + count, 0), 20_000);
    assert.equal(result.parts, asked.length);
  });

  it('learns the flag count from the server refusal, then reads the parts', async () => {
    const flags = catalog({ default: 90, checkout: 30 });
    server.handle(fakePlayground(flags, 500));
    const result = await client().playground({ environments: ['development', 'production'], projects: ['default', 'checkout'], context: { appName: 'shop', userId: users(3), properties: { tenantId: 'acme,globex' } } });
    // 2 × 120 × 6 = 1,440: refused once, then parts of at most 500.
    assertComplete(result, flags, ['development', 'production'], users(3).split(','), { tenantId: ['acme', 'globex'] });
    const asked = askedCombinations(flags);
    assert.equal(asked[0], 1_440);
    assert.equal(server.requests.filter((_, index) => (asked[index] as number) > 500).length, 1, 'one refusal');
    assert.equal(result.parts, asked.length - 1);
  });

  it('cuts by project when one environment and one context pass the limit, with the counts of the caller', async () => {
    const flags = catalog({ a: 60, b: 50, c: 40 });
    server.handle(fakePlayground(flags, 100));
    const flagsPerProject = new Map([
      ['a', 60],
      ['b', 50],
      ['c', 40],
    ]);
    const result = await client({ playgroundLimits: { perRequest: 100 } }).playground({ environments: ['development'], projects: '*', context: { appName: 'shop', userId: 'user-2' }, flagsPerProject });
    assertComplete(result, flags, ['development'], ['user-2']);
    const asked = askedCombinations(flags);
    assert.ok(asked.every((count) => count <= 100), `asked ${asked.join(', ')}`);
    assert.deepEqual(
      server.requests.map((request) => (request.json as { projects: string[] }).projects),
      [['a', 'c'], ['b']],
    );
  });

  it('halves a project list the caller did not count, until each half fits', async () => {
    const flags = catalog({ a: 60, b: 50, c: 40, d: 30 });
    server.handle(fakePlayground(flags, 100));
    const result = await client().playground({ environments: ['development'], projects: ['a', 'b', 'c', 'd'], context: { appName: 'shop', userId: 'user-1' } });
    assertComplete(result, flags, ['development'], ['user-1']);
  });

  it('says so when every project of `*` together passes the limit and the caller did not count them', async () => {
    server.handle(fakePlayground(catalog({ a: 60, b: 60 }), 100));
    await assert.rejects(
      client().playground({ environments: ['development'], projects: '*', context: { appName: 'shop' } }),
      (error: unknown) =>
        error instanceof PlaygroundTooLargeError &&
        error.message ===
          'The playground cannot evaluate 120 flags at once, and they cannot be split further by project: the server evaluates at most 100 combinations of environments, flags and context values a request.',
    );
  });

  it('refuses a query past what it reads in all before asking, naming the numbers', async () => {
    server.handle(fakePlayground(catalog({ default: 10 })));
    await assert.rejects(
      client().playground({ environments: ['development', 'production'], projects: '*', context: { appName: 'shop', userId: users(4_000) }, flagsPerProject: new Map([['default', 10]]) }),
      (error: unknown) =>
        error instanceof PlaygroundTooLargeError &&
        error.message ===
          'The playground would evaluate 80000 combinations of environments, flags and context values, more than the 60000 read at once: choose fewer environments, projects or context values.',
    );
    assert.equal(server.requests.length, 0);
  });

  it('sends the query as the server takes it, and nothing when it names no project or environment', async () => {
    const flags = catalog({ default: 1 });
    server.handle(fakePlayground(flags));
    const context = { appName: 'shop', userId: 'user-2', remoteAddress: '10.0.0.1', properties: { tenantId: 'acme' } };
    const result = await client().playground({ environments: ['production'], projects: ['default'], context });
    assert.deepEqual(server.requests[0]?.json, { environments: ['production'], projects: ['default'], context });
    assert.equal(result.flags[0]?.environments[0]?.evaluations[0]?.enabled, true);
    server.reset();
    assert.deepEqual(await client().playground({ environments: ['production'], projects: [], context }), { flags: [], ignoredContextFields: [], parts: 0 });
    assert.deepEqual(await client().playground({ environments: [], projects: '*', context }), { flags: [], ignoredContextFields: [], parts: 0 });
    assert.equal(server.requests.length, 0);
  });
});

describe('the playground: what fails', () => {
  it('names the field of an answer of another shape', async () => {
    const answer = fixture('playground-8.2.0.json');
    answer.features[2].environments.production[1].isEnabled = 'yes';
    server.handle(() => ({ body: answer }));
    await assert.rejects(client().playground({ environments: ['development', 'production'], projects: ['default'], context: { appName: 'shop' } }), (error: unknown) => {
      assert.ok(error instanceof SchemaError);
      assert.equal(error.path, 'features.2.environments.production.1.isEnabled');
      assert.equal(error.message, 'Unexpected answer from the server: field `features.2.environments.production.1.isEnabled` expected boolean, received string.');
      return true;
    });
  });

  it('names a strategy result missing from an answer', async () => {
    const answer = fixture('playground-7.5.1.json');
    delete answer.features[3].environments.development[0].strategies.data[0].result;
    server.handle(() => ({ body: answer }));
    await assert.rejects(client().playground({ environments: ['development'], projects: ['default'], context: { appName: 'shop' } }), {
      message: 'Unexpected answer from the server: field `features.3.environments.development.0.strategies.data.0.result` expected object, received undefined.',
    });
  });

  it('passes on a 400 that is not the size refusal, and a 401, without cutting the query', async () => {
    server.handle(() => ({
      status: 400,
      body: { id: 'x', name: 'BadDataError', message: 'Request validation failed', details: [{ path: '/body/context/currentTime', message: 'The `/body/context/currentTime` property must match format "date-time". You sent "nope".' }] },
    }));
    await assert.rejects(client().playground({ environments: ['development'], projects: '*', context: { appName: 'shop', currentTime: 'nope' } }), BadRequestError);
    assert.equal(server.requests.length, 1);
    server.handle(() => ({ status: 401, body: { name: 'UnauthorizedError', message: 'You must log in to use Unleash.' } }));
    await assert.rejects(client().playground({ environments: ['development'], projects: '*', context: { appName: 'shop' } }), AuthError);
  });
});

describe('the playground context, counted and cut as the server combines it', () => {
  it('counts comma-separated values of every string field, properties included, and leaves other values out', () => {
    assert.equal(combinationCount({ appName: 'a,b', userId: 'u1,u2,u3', properties: { tenantId: 'acme,globex' } }), 12);
    assert.equal(combinationCount({ appName: 'a', userId: 'u1,' }), 2);
    assert.equal(combinationCount({ appName: 'a', ...({ accountAgeDays: 40 } as object) }), 1);
  });

  it('cuts a context into parts under the bound that make every combination once', () => {
    const context = { appName: 'a,b', userId: 'u1,u2,u3,u4,u5', properties: { tenantId: 'acme,globex,initech' } };
    const parts = contextParts(context, 4);
    assert.ok(parts.every((part) => combinationCount(part) <= 4));
    const combos = parts.flatMap((part) =>
      part.appName.split(',').flatMap((app) => (part.userId as string).split(',').flatMap((user) => (part.properties?.tenantId as string).split(',').map((tenant) => `${app}/${user}/${tenant}`))),
    );
    assert.equal(combos.length, 30);
    assert.equal(new Set(combos).size, 30);
  });
});

describe('the playground answers of 7.5.1 and 8.2.0', () => {
  for (const version of ['7.5.1', '8.2.0']) {
    const read = async () => {
      server.handle(() => ({ body: fixture(`playground-${version}.json`) }));
      return client().playground({ environments: ['development', 'production'], projects: ['default'], context: { appName: 'checkout-api' } });
    };
    const pick = (result: PlaygroundResult, flag: string, environment: string, tenantId: string, appVersion: string): PlaygroundEvaluation => {
      const found = result.flags
        .find((candidate) => candidate.name === flag)
        ?.environments.find((candidate) => candidate.name === environment)
        ?.evaluations.find((evaluation) => evaluation.context.tenantId === tenantId && evaluation.context.appVersion === appVersion);
      assert.ok(found, `${flag} ${environment} ${tenantId} ${appVersion}`);
      return found;
    };

    it(`${version}: flags sorted, environments in the query's order, the context field left out named`, async () => {
      const result = await read();
      assert.deepEqual(
        result.flags.map((flag) => [flag.project, flag.name, flag.environments.map((environment) => `${environment.name}:${environment.evaluations.length}`)]),
        [
          ['default', 'admin-panel', ['development:4', 'production:4']],
          ['default', 'new-checkout-flow', ['development:4', 'production:4']],
          ['default', 'new-checkout-flow-ui', ['development:4', 'production:4']],
          ['default', 'probe-custom-flag', ['development:4', 'production:4']],
        ],
      );
      assert.deepEqual(result.ignoredContextFields, ['accountAgeDays']);
      assert.deepEqual(pick(result, 'admin-panel', 'development', 'acme', '3.0.0').context, {
        userId: 'alice@example.com',
        remoteAddress: '10.1.2.3',
        tenantId: 'acme',
        appVersion: '3.0.0',
        appName: 'checkout-api',
      });
    });

    it(`${version}: the strategy that decided, the one that did not, and the segment constraint that failed with its value`, async () => {
      const result = await read();
      const on = pick(result, 'new-checkout-flow', 'development', 'globex', '1.0.0');
      assert.equal(on.enabled, true);
      const [gated, everyone] = on.strategies;
      assert.equal(on.decidedBy, everyone?.id);
      assert.deepEqual([everyone?.name, everyone?.enabled, everyone?.evaluation], ['default', true, 'complete']);
      assert.deepEqual([gated?.title, gated?.enabled], ['Internal and beta users', false]);
      assert.deepEqual(gated?.constraints[0], { contextName: 'tenantId', operator: 'IN', values: ['acme', 'globex'], inverted: false, caseInsensitive: false, result: true, contextValue: 'globex' });
      const beta = gated?.segments.find((segment) => segment.name === 'beta-testers');
      assert.deepEqual([beta?.id, beta?.result], [2, false]);
      assert.deepEqual(beta?.constraints, [
        { contextName: 'tenantId', operator: 'IN', values: ['acme', 'initech'], inverted: false, caseInsensitive: false, result: false, contextValue: 'globex' },
        { contextName: 'appVersion', operator: 'SEMVER_GT', values: ['2.0.0'], inverted: false, caseInsensitive: false, result: false, contextValue: '1.0.0' },
      ]);
    });

    it(`${version}: an environment switched off, an unmet dependency, a case-insensitive and an inverted constraint`, async () => {
      const result = await read();
      const off = pick(result, 'new-checkout-flow', 'production', 'acme', '3.0.0');
      assert.deepEqual([off.enabled, off.environmentEnabled, off.decidedBy], [false, false, undefined]);
      const staff = off.strategies[0];
      assert.deepEqual(
        staff?.constraints.map((constraint) => [constraint.operator, constraint.values, constraint.caseInsensitive, constraint.inverted, constraint.result, constraint.contextValue]),
        [
          ['STR_ENDS_WITH', ['@Example.com'], true, false, true, 'alice@example.com'],
          ['STR_CONTAINS', ['test'], false, true, true, 'alice@example.com'],
          ['STR_STARTS_WITH', ['checkout-'], false, false, true, 'checkout-api'],
        ],
      );
      const child = pick(result, 'new-checkout-flow-ui', 'development', 'acme', '3.0.0');
      assert.deepEqual([child.enabled, child.unsatisfiedDependency, child.strategies[0]?.enabled], [false, true, true]);
      assert.deepEqual(child.variant, { name: 'disabled', enabled: false });
    });

    it(`${version}: a disabled strategy is unevaluated but leaves the flag off, a custom strategy leaves it unknown`, async () => {
      const result = await read();
      const paused = pick(result, 'admin-panel', 'production', 'acme', '1.0.0');
      assert.equal(paused.enabled, false);
      assert.deepEqual(
        paused.strategies.map((strategy) => [strategy.title, strategy.disabled, strategy.enabled, strategy.evaluation]),
        [
          [undefined, false, false, 'complete'],
          ['Paused: everyone', true, 'unknown', 'unevaluated'],
        ],
      );
      assert.deepEqual(paused.strategies[0]?.constraints.map((constraint) => [constraint.values, constraint.result, constraint.contextValue]), [
        [['2.5.0'], false, '1.0.0'],
        [['4.0.0-beta.1'], true, '1.0.0'],
      ]);
      const custom = pick(result, 'probe-custom-flag', 'development', 'globex', '3.0.0');
      assert.equal(custom.enabled, 'unknown');
      assert.deepEqual(
        custom.strategies.map((strategy) => [strategy.name, strategy.title, strategy.enabled, strategy.evaluation, strategy.constraints.map((constraint) => constraint.result)]),
        [
          ['probe-custom', 'Custom gated', false, 'incomplete', [false]],
          ['probe-custom', undefined, 'unknown', 'incomplete', []],
        ],
      );
    });
  }
});
