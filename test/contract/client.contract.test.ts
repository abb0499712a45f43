/**
 * The Admin API client (the code the extension ships) against a real Unleash (7.5.1 or 8.2.0) with the seed of
 * tools/unleash/seed-data.ts. Assertions compare parsed values with what the seed created.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UnleashClient } from '../../src/api/client';
import { AuthError, ForbiddenError, MissingTokenError, NotFoundError } from '../../src/api/errors';
import type { ExportResult } from '../../src/api/exportSchemas';
import type { Constraint, Strategy } from '../../src/api/schemas';
import { useRealUnleash } from './env';
import { SEED, type SeedConstraint, type SeedFlag } from '../../tools/unleash';

const unleash = useRealUnleash();

function client(token?: string): UnleashClient {
  return new UnleashClient({ baseUrl: unleash.current.url, getToken: () => token ?? unleash.current.adminToken, retryBaseMs: 10 });
}

const seedFlag = (name: string): SeedFlag => {
  const flag = SEED.flags.find((candidate) => candidate.name === name);
  if (!flag) throw new Error(`no seed flag ${name}`);
  return flag;
};
const liveFlags = SEED.flags.filter((flag) => !flag.archived);

/** A constraint as the seed sent it, in the fields the server answers with. */
function sent(constraint: SeedConstraint) {
  return {
    contextName: constraint.contextName,
    operator: constraint.operator,
    values: constraint.values ? [...constraint.values] : [],
    value: constraint.value,
    inverted: constraint.inverted ?? false,
    caseInsensitive: constraint.caseInsensitive ?? false,
  };
}
function answered(constraint: Constraint) {
  return {
    contextName: constraint.contextName,
    operator: constraint.operator,
    values: constraint.values ?? [],
    value: constraint.value || undefined,
    inverted: constraint.inverted ?? false,
    caseInsensitive: constraint.caseInsensitive ?? false,
  };
}

describe('get a feature (real server)', () => {
  for (const flag of liveFlags) {
    it(`reads ${flag.project}/${flag.name} as seeded`, async () => {
      const feature = await client().getFeature(flag.project, flag.name);
      assert.equal(feature.name, flag.name);
      assert.equal(feature.project, flag.project);
      assert.equal(feature.type, flag.type);
      assert.equal(feature.description, flag.description);
      assert.equal(feature.archived, false);
      assert.deepEqual(
        feature.environments?.filter((env) => env.enabled).map((env) => env.name),
        [...flag.enabledIn],
      );
      for (const env of SEED.environments) {
        const strategies: Strategy[] = feature.environments?.find((candidate) => candidate.name === env)?.strategies ?? [];
        assert.deepEqual(
          strategies.map((strategy) => [strategy.name, strategy.title ?? undefined, strategy.disabled ?? false]),
          flag.environments[env].strategies.map((strategy) => [strategy.name, strategy.title, strategy.disabled]),
          `${env} strategies`,
        );
        assert.deepEqual(
          strategies.map((strategy) => (strategy.constraints ?? []).map(answered)),
          flag.environments[env].strategies.map((strategy) => strategy.constraints.map(sent)),
          `${env} constraints`,
        );
      }
      assert.deepEqual(feature.children ?? [], [...flag.children]);
    });
  }

  it('reads strategy variants with every payload type and segment ids', async () => {
    const feature = await client().getFeature('default', 'new-checkout-flow');
    const strategy = feature.environments?.find((env) => env.name === 'development')?.strategies?.[0];
    assert.deepEqual(strategy?.parameters, { rollout: '50', stickiness: 'userId', groupId: 'new-checkout-flow' });
    assert.deepEqual(
      strategy?.variants?.map((variant) => [variant.name, variant.weight, variant.payload?.type, variant.payload?.value]),
      [
        ['blue', 500, 'json', '{"color":"blue","rounded":true}'],
        ['green', 500, 'csv', 'green,#00ff00,1'],
      ],
    );
    assert.equal(strategy?.segments?.length, 2);
    assert.equal(feature.lifecycle?.stage !== undefined, true);
    assert.deepEqual(feature.links?.map((link) => [link.url, link.title]), [['https://example.com/jira/browse/PAY-123', 'PAY-123: new checkout']]);
  });

  it('reads environment variants with overrides (variantEnvironments=true)', async () => {
    const feature = await client().getFeature('default', 'pricing-experiment');
    const development = feature.environments?.find((env) => env.name === 'development');
    assert.deepEqual(development?.variants?.map((variant) => variant.name), ['control', 'treatment']);
    assert.deepEqual(development?.variants?.[1]?.overrides, [{ contextName: 'userId', values: ['qa-user-1'] }]);
    const numbers = development?.strategies?.[0]?.variants?.map((variant) => [variant.payload?.type, variant.weightType]);
    assert.deepEqual(numbers, [['number', 'fix'], ['string', 'variable']]);
  });

  it('reads the parent dependency of a child flag', async () => {
    const feature = await client().getFeature('default', 'new-checkout-flow-ui');
    assert.deepEqual(
      feature.dependencies?.map((dep) => ({ feature: dep.feature, enabled: dep.enabled, variants: dep.variants })),
      [{ feature: 'new-checkout-flow', enabled: true, variants: ['blue'] }],
    );
  });

  it('names the real project of a flag asked for in another project', async () => {
    const error = await client().getFeature('default', 'checkout-express-pay').catch((e: unknown) => e);
    assert.ok(error instanceof NotFoundError);
    assert.equal(error.actualProject, 'checkout');
    assert.equal(error.errorId, undefined, 'handler errors carry no id');
  });

  it('answers 404 for an archived flag, with its own wording', async () => {
    const error = await client().getFeature('default', 'old-banner').catch((e: unknown) => e);
    assert.ok(error instanceof NotFoundError);
    assert.match(error.serverMessage ?? '', /Could not find feature flag with name old-banner/);
    assert.equal(error.actualProject, undefined);
  });

  it('answers 404 for an unknown flag, case-sensitively', async () => {
    for (const name of ['does-not-exist', 'New-Checkout-Flow']) {
      const error = await client().getFeature('default', name).catch((e: unknown) => e);
      assert.ok(error instanceof NotFoundError, name);
      assert.match(error.serverMessage ?? '', new RegExp(`no feature named "${name}"`));
    }
  });

  it('serves an unchanged feature from its cache (304)', async () => {
    const c = client();
    const first = await c.getFeature('default', 'admin-panel');
    const second = await c.getFeature('default', 'admin-panel');
    assert.equal(second, first);
  });
});

describe('authentication (real server)', () => {
  it('refuses to send a request without a token', async () => {
    await assert.rejects(client('').getTag('team', 'payments'), MissingTokenError);
  });

  it('reports an unknown token as AuthError (UnauthorizedError)', async () => {
    const error = await client('*:*.not-a-real-token').getTag('team', 'payments').catch((e: unknown) => e);
    assert.ok(error instanceof AuthError);
    assert.equal(error.status, 401);
    assert.equal(error.serverName, 'UnauthorizedError');
    assert.ok(error.errorId, 'middleware errors carry an id');
  });

  it('explains that backend and frontend tokens cannot read the Admin API (403)', async () => {
    for (const token of [unleash.current.backendToken, unleash.current.frontendToken]) {
      const error = await client(token).getFeature('default', 'new-checkout-flow').catch((e: unknown) => e);
      assert.ok(error instanceof ForbiddenError);
      assert.equal(error.wrongTokenType, true);
      assert.ok(!error.message.includes(token), 'the token is not repeated');
    }
  });

  it('accepts the token with a Bearer prefix too', async () => {
    assert.ok(await client(`Bearer ${unleash.current.adminToken}`).getTag('team', 'payments'));
  });
});

describe('get a tag (real server)', () => {
  it('finds every seeded tag, used or not', async () => {
    for (const tag of SEED.tags) {
      assert.deepEqual(await client().getTag(tag.type, tag.value), { version: 1, tag: { type: tag.type, value: tag.value } });
    }
  });

  it('finds a tag whose value has a space', async () => {
    assert.equal((await client().getTag('simple', 'needs review'))?.tag.value, 'needs review');
  });

  it('answers "does not exist" for unknown values and types, case-sensitively', async () => {
    assert.equal(await client().getTag('team', 'paymnts'), undefined);
    assert.equal(await client().getTag('no-such-type', 'payments'), undefined);
    assert.equal(await client().getTag('team', 'Payments'), undefined);
  });
});

describe('get strategy segments (real server)', () => {
  async function strategyId(project: string, flag: string, env: string, index = 0): Promise<string> {
    const feature = await client().getFeature(project, flag);
    const id = feature.environments?.find((candidate) => candidate.name === env)?.strategies?.[index]?.id;
    assert.ok(id);
    return id;
  }

  it('returns the global segments of a strategy with their constraints', async () => {
    const segments = await client().getStrategySegments(await strategyId('default', 'new-checkout-flow', 'development'));
    const byName = new Map(segments.map((segment) => [segment.name, segment]));
    assert.deepEqual([...byName.keys()].sort(), ['beta-testers', 'internal-users']);
    for (const seeded of SEED.segments.filter((segment) => byName.has(segment.name))) {
      const segment = byName.get(seeded.name);
      assert.equal(segment?.description, seeded.description);
      assert.equal(segment?.project ?? undefined, undefined, 'a global segment has no project');
      assert.deepEqual(segment?.constraints.map(answered), seeded.constraints.map(sent));
    }
  });

  it('returns a project segment with its project', async () => {
    const segments = await client().getStrategySegments(await strategyId('checkout', 'checkout-express-pay', 'production'));
    assert.deepEqual(segments.map((segment) => [segment.name, segment.project]), [['checkout-eu', 'checkout']]);
  });

  it('answers an empty list for a strategy without segments and for unknown ids', async () => {
    assert.deepEqual(await client().getStrategySegments(await strategyId('default', 'new-checkout-flow', 'development', 1)), []);
    assert.deepEqual(await client().getStrategySegments('9de655a1-0000-4000-8000-000000000000'), []);
    assert.deepEqual(await client().getStrategySegments('not a uuid / at all'), []);
  });
});

describe('export (real server)', () => {
  const names = (result: ExportResult) => result.features.map((feature) => feature.name).sort();
  const seededStrategies = (flags: readonly SeedFlag[], env: 'development' | 'production') =>
    flags.reduce((sum, flag) => sum + flag.environments[env].strategies.length, 0);

  it('exports named flags with their strategies, environments, tags and dependencies', async () => {
    const wanted = ['new-checkout-flow', 'new-checkout-flow-ui'];
    const result = await client().exportFeatures({ environment: 'development', scope: { kind: 'features', names: wanted } });
    assert.deepEqual(names(result), wanted);
    assert.equal(result.featureStrategies.length, seededStrategies(wanted.map(seedFlag), 'development'));
    assert.deepEqual(
      result.featureEnvironments?.map((env) => [env.featureName, env.environment, env.enabled]).sort(),
      [['new-checkout-flow', 'development', true], ['new-checkout-flow-ui', 'development', true]],
    );
    assert.deepEqual(
      result.featureTags?.map((tag) => `${tag.featureName} ${tag.tagType}:${tag.tagValue}`).sort(),
      ['new-checkout-flow jira:PAY-123', 'new-checkout-flow team:payments', 'new-checkout-flow-ui simple:beta'],
    );
    assert.deepEqual(result.dependencies, [{ feature: 'new-checkout-flow-ui', dependencies: [{ feature: 'new-checkout-flow', enabled: true, variants: ['blue'] }] }]);
    assert.deepEqual(result.segments?.map((segment) => segment.name).sort(), ['beta-testers', 'internal-users']);
    assert.ok(result.contextFields?.some((field) => field.name === 'tenantId' && field.legalValues?.length === 3));
  });

  it('exports one project', async () => {
    const result = await client().exportFeatures({ environment: 'production', scope: { kind: 'project', project: 'checkout' } });
    assert.deepEqual(names(result), ['checkout-express-pay', 'checkout-fraud-check']);
    assert.equal(result.featureStrategies.length, seededStrategies([seedFlag('checkout-express-pay'), seedFlag('checkout-fraud-check')], 'production'));
  });

  it('exports the flags carrying one tag, type and value both matched', async () => {
    const result = await client().exportFeatures({ environment: 'development', scope: { kind: 'tag', type: 'team', value: 'payments' } });
    const tagged = SEED.flags.filter((flag) => flag.tags.some((tag) => tag.type === 'team' && tag.value === 'payments'));
    assert.deepEqual(names(result), tagged.map((flag) => flag.name).sort());
  });

  it('exports nothing for a tag whose value exists under another type only', async () => {
    const result = await client().exportFeatures({ environment: 'development', scope: { kind: 'tag', type: 'simple', value: 'payments' } });
    assert.deepEqual(result.features, []);
  });

  it('exports every non-archived flag of every project', async () => {
    const result = await client().exportFeatures({ environment: 'development', scope: { kind: 'all' } });
    assert.deepEqual(names(result), liveFlags.map((flag) => flag.name).sort());
    assert.equal(result.featureStrategies.length, seededStrategies(liveFlags, 'development'));
  });

  it('answers an unknown environment with flags but no strategies or states', async () => {
    const result = await client().exportFeatures({ environment: 'staging', scope: { kind: 'project', project: 'checkout' } });
    assert.deepEqual(names(result), ['checkout-express-pay', 'checkout-fraud-check']);
    assert.deepEqual(result.featureStrategies, []);
    assert.deepEqual(result.featureEnvironments, []);
  });
});

describe('listing (real server)', () => {
  it('lists every non-archived flag of every project with its environments', async () => {
    const features = await client().listFeatures();
    assert.deepEqual(
      features.map((feature) => `${feature.project}/${feature.name}`),
      liveFlags.map((flag) => `${flag.project}/${flag.name}`).sort((a, b) => a.split('/')[1]!.localeCompare(b.split('/')[1]!)),
    );
    for (const feature of features) {
      const flag = seedFlag(feature.name);
      assert.equal(feature.type, flag.type);
      assert.deepEqual(feature.environments?.filter((env) => env.enabled).map((env) => env.name).sort(), [...flag.enabledIn].sort(), feature.name);
    }
  });

  it('lists the flags of the configured projects only', async () => {
    const features = await client().listFeatures({ projects: ['checkout'] });
    assert.deepEqual(features.map((feature) => feature.name), ['checkout-express-pay', 'checkout-fraud-check']);
  });

  it('lists the environments', async () => {
    assert.deepEqual((await client().listEnvironments()).map((env) => env.name), [...SEED.environments]);
  });

  it('lists the tag types', async () => {
    assert.deepEqual((await client().listTagTypes()).map((type) => type.name).sort(), SEED.tagTypes.map((type) => type.name).sort());
  });

  it('reads the server version', async () => {
    assert.equal((await client().getServerInfo()).version, unleash.current.version);
  });
});
