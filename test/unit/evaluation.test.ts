/**
 * The evaluation engine's answer as a user would read it, on export files: which strategy decided, which constraint
 * failed and with what value, a segment whose definition is missing, a custom strategy, a parent, disabled
 * strategies; the context's bounds; and a catastrophic regular expression answered by re2js.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExportResult } from '../../src/api/exportSchemas';
import { INTAKE_BUDGET } from '../../src/base/intakeBudget';
import { readContext } from '../../src/model/evaluation/context';
import { FlagEvaluator } from '../../src/model/evaluation/evaluate';
import { modelOfExports } from '../../src/model/evaluation/exportModel';
import { modelOfClientState } from '../../src/model/evaluation/clientState';

type StrategyRow = ExportResult['featureStrategies'][number];

const strategy = (featureName: string, row: Partial<StrategyRow> & { name: string }): StrategyRow => ({ featureName, parameters: {}, constraints: [], ...row });

/** One export file of `environment` with these flags (on unless listed in `off`). */
function exportFile(environment: string, flags: string[], strategies: StrategyRow[], extra: Partial<ExportResult> = {}, off: string[] = []) {
  const result: ExportResult = {
    features: flags.map((name) => ({ name, project: 'default' })),
    featureStrategies: strategies,
    featureEnvironments: flags.map((name) => ({ name, featureName: name, environment, enabled: !off.includes(name), variants: [] })),
    tagTypes: [],
    ...extra,
  };
  return { path: `.unleash/${environment}.json`, result };
}

const checkoutStrategies = [
  strategy('new-checkout', {
    name: 'flexibleRollout',
    parameters: { rollout: '100', stickiness: 'default', groupId: 'new-checkout' },
    constraints: [{ contextName: 'country', operator: 'IN', values: ['DE', 'FR'] }],
    sortOrder: 0,
  }),
  strategy('new-checkout', {
    name: 'userWithId',
    parameters: { userIds: 'ann, bob' },
    sortOrder: 1,
    variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'b' } }],
  }),
];

describe('evaluation: the answer explained', () => {
  const model = modelOfExports([exportFile('production', ['new-checkout'], checkoutStrategies)]);

  it('names the strategy that decided, the constraint that failed and the value it tested', () => {
    const { context } = readContext({ userId: 'bob', properties: { country: 'US' } });
    const answer = new FlagEvaluator(model, context).explain('new-checkout', 'production');
    assert.equal(answer.enabled, true);
    assert.equal(answer.decidedBy, 1);
    assert.equal(answer.strategies[answer.decidedBy]?.name, 'userWithId');
    const first = answer.strategies[0];
    assert.equal(first?.outcome, 'disabled');
    assert.deepEqual(
      first?.constraints.map((c) => [c.constraint.contextName, c.constraint.operator, c.constraint.values, c.contextValue, c.result]),
      [['country', 'IN', ['DE', 'FR'], 'US', false]],
    );
    assert.deepEqual(answer.variant, { name: 'blue', enabled: true, payload: { type: 'string', value: 'b' }, source: 'strategy' });
    assert.deepEqual(answer.strategies[1]?.variant, answer.variant);
  });

  it('says a missing field is why a constraint failed, and shows the rollout bucket of the one that passed', () => {
    const { context } = readContext({ userId: 'carol', properties: { country: 'DE' } });
    const evaluator = new FlagEvaluator(model, context);
    const answer = evaluator.explain('new-checkout', 'production');
    assert.equal(answer.decidedBy, 0);
    assert.equal(answer.strategies[0]?.rollout?.identifier, 'carol');
    assert.equal(answer.strategies[0]?.rollout?.percentage, 100);
    assert.equal(answer.strategies[1]?.outcome, 'disabled');
    const noCountry = new FlagEvaluator(model, readContext({ userId: 'carol' }).context).explain('new-checkout', 'production');
    assert.equal(noCountry.enabled, false);
    assert.equal(noCountry.reason, 'noStrategyMatched');
    assert.equal(noCountry.strategies[0]?.constraints[0]?.reason, 'noContextValue');
  });

  it('answers unknown for a custom strategy and the hostname, and names them; another strategy on still decides', () => {
    const custom = modelOfExports([
      exportFile('production', ['custom', 'hosts', 'either'], [
        strategy('custom', { name: 'tenantRollout', parameters: { tenants: 'a' } }),
        strategy('hosts', { name: 'applicationHostname', parameters: { hostNames: 'web-1' } }),
        strategy('either', { name: 'tenantRollout', sortOrder: 0 }),
        strategy('either', { name: 'default', sortOrder: 1 }),
      ]),
    ]);
    const evaluator = new FlagEvaluator(custom, readContext({}).context);
    const answer = evaluator.explain('custom', 'production');
    assert.equal(answer.enabled, 'unknown');
    assert.equal(answer.reason, 'customStrategy');
    assert.equal(answer.strategies[0]?.outcome, 'unknown');
    assert.equal(answer.variant, 'unknown');
    assert.equal(evaluator.explain('hosts', 'production').reason, 'hostnameUnknown');
    const either = evaluator.explain('either', 'production');
    assert.equal(either.enabled, true);
    assert.equal(either.decidedBy, 1);
  });

  it('skips disabled strategies and says so; a segment without its definition is unknown, one not there is false', () => {
    const files = exportFile(
      'production',
      ['skipped', 'segmented', 'lost'],
      [
        strategy('skipped', { name: 'userWithId', parameters: { userIds: 'ann' }, disabled: true, sortOrder: 0 }),
        strategy('skipped', { name: 'userWithId', parameters: { userIds: 'bob' }, sortOrder: 1 }),
        strategy('segmented', { name: 'default', segments: [7] }),
        strategy('lost', { name: 'default', segments: [8] }),
      ],
      { segments: [{ id: 7, name: 'beta-testers' }] },
    );
    const evaluator = new FlagEvaluator(modelOfExports([files]), readContext({ userId: 'ann' }).context);
    const skipped = evaluator.explain('skipped', 'production');
    assert.equal(skipped.enabled, false);
    assert.deepEqual(skipped.strategies.map((s) => [s.outcome, s.reason]), [['skipped-disabled', 'strategyDisabled'], ['disabled', undefined]]);
    const segmented = evaluator.explain('segmented', 'production');
    assert.equal(segmented.enabled, 'unknown');
    assert.deepEqual(segmented.strategies[0]?.segments.map((s) => [s.name, s.result, s.reason]), [['beta-testers', 'unknown', 'segmentDefinitionMissing']]);
    assert.equal(evaluator.explain('lost', 'production').strategies[0]?.segments[0]?.reason, 'segmentNotFound');
    // With the .segments file's definition, the segment's constraints are evaluated.
    const defined = modelOfExports([
      { ...files, result: { ...files.result, segmentDefinitions: [{ id: 7, name: 'beta-testers', constraints: [{ contextName: 'userId', operator: 'IN', values: ['ann'] }] }] } },
    ]);
    const answer = new FlagEvaluator(defined, readContext({ userId: 'ann' }).context).explain('segmented', 'production');
    assert.equal(answer.enabled, true);
    assert.equal(answer.strategies[0]?.segments[0]?.constraints[0]?.contextValue, 'ann');
  });

  it('evaluates a parent in the same environment and says why a child is off', () => {
    const files = [
      exportFile('development', ['parent', 'child'], [strategy('parent', { name: 'default' }), strategy('child', { name: 'default' })], {
        dependencies: [{ feature: 'child', dependencies: [{ feature: 'parent', enabled: true }] }],
      }),
      exportFile('production', ['parent', 'child'], [strategy('child', { name: 'default' })], {
        dependencies: [{ feature: 'child', dependencies: [{ feature: 'parent', enabled: true }] }],
      }, ['parent']),
    ];
    const evaluator = new FlagEvaluator(modelOfExports(files), readContext({}).context);
    assert.equal(evaluator.explain('child', 'development').enabled, true);
    const off = evaluator.explain('child', 'production');
    assert.equal(off.enabled, false);
    assert.equal(off.reason, 'dependencyNotSatisfied');
    assert.deepEqual(off.dependencies.map((d) => [d.feature, d.parentEnabled, d.result]), [['parent', false, false]]);
    assert.equal(evaluator.explain('parent', 'production').reason, 'environmentOff');
    const all = evaluator.evaluateAll();
    assert.deepEqual([...all.keys()], ['development', 'production']);
    assert.equal(all.get('production')?.get('child')?.enabled, false);
  });

  it('takes the environment evaluated as the context environment when the context has none', () => {
    const files = ['development', 'production'].map((environment) =>
      exportFile(environment, ['by-env'], [strategy('by-env', { name: 'default', constraints: [{ contextName: 'environment', operator: 'IN', values: ['production'] }] })]),
    );
    const evaluator = new FlagEvaluator(modelOfExports(files), readContext({}).context);
    assert.deepEqual([evaluator.evaluate('by-env', 'development').enabled, evaluator.evaluate('by-env', 'production').enabled], [false, true]);
  });

  it('does not guess a strategy variant when the file does not keep the strategies in the server order', () => {
    const unordered = checkoutStrategies.map(({ sortOrder: _, ...row }) => row);
    const evaluator = new FlagEvaluator(modelOfExports([exportFile('production', ['new-checkout'], unordered)]), readContext({ userId: 'bob', properties: { country: 'DE' } }).context);
    const answer = evaluator.explain('new-checkout', 'production');
    assert.equal(answer.enabled, true);
    assert.equal(answer.variant, 'unknown');
  });
});

describe('evaluation: the context, bounded', () => {
  it('keeps the SDK fields and properties, numbers and booleans as text, and top-level names as properties', () => {
    const intake = readContext({ userId: 42, appName: 'web', tenantId: 'a', properties: { beta: true, tenantId: 'b', gone: null } });
    assert.deepEqual(intake.notes, []);
    assert.equal(intake.context.userId, '42');
    assert.deepEqual([...intake.context.properties], [['tenantId', 'a'], ['beta', 'true']]);
  });

  it('cuts long values and too many properties, refuses what is not a value, and says each in words', () => {
    const properties = Object.fromEntries(Array.from({ length: INTAKE_BUDGET.contextProperties + 5 }, (_, i) => [`p${i}`, 'x']));
    const intake = readContext({ userId: 'u'.repeat(INTAKE_BUDGET.contextChars + 10), sessionId: { nested: true }, currentTime: 'soon', properties });
    assert.equal(intake.context.userId?.length, INTAKE_BUDGET.contextChars);
    assert.equal(intake.context.sessionId, undefined);
    assert.equal(intake.context.properties.size, INTAKE_BUDGET.contextProperties);
    assert.deepEqual(intake.notes, [
      `Context field "userId" is cut to its first ${INTAKE_BUDGET.contextChars} characters.`,
      'Context field "sessionId" is not text, a number or a boolean: left out.',
      `Only the first ${INTAKE_BUDGET.contextProperties} context properties are used; 5 more are left out.`,
      'Context field "currentTime" is not a date: date constraints are not satisfied, as in the SDKs.',
    ]);
  });

  it('never cuts between the halves of a surrogate pair, and takes a property named __proto__ as a name', () => {
    const intake = readContext(JSON.parse(`{"userId": "${'a'.repeat(INTAKE_BUDGET.contextChars - 1)}😀", "properties": {"__proto__": "x"}}`));
    assert.equal(intake.context.userId, 'a'.repeat(INTAKE_BUDGET.contextChars - 1));
    assert.equal(intake.context.properties.get('__proto__'), 'x');
    assert.deepEqual(readContext('user').notes, ['The context is not an object: an empty context is used.']);
  });
});

describe('evaluation: a catastrophic regular expression', () => {
  it('answers (a+)+$ against 100,000 characters at once with re2js, and right', () => {
    const state = {
      features: [{ name: 'regex', enabled: true, strategies: [{ name: 'default', constraints: [{ contextName: 'email', operator: 'REGEX', value: '(a+)+$' }] }] }],
    };
    const model = modelOfClientState(state, 'production');
    const evaluate = (email: string) => new FlagEvaluator(model, { properties: new Map([['email', email]]) }).explain('regex', 'production');
    const miss = evaluate(`${'a'.repeat(100_000)}b`);
    assert.equal(miss.enabled, false);
    assert.equal(miss.strategies[0]?.constraints[0]?.result, false);
    assert.equal(evaluate(`b${'a'.repeat(100_000)}`).enabled, true);
  });

  it('is never satisfied by a pattern that does not compile, and says the value is invalid', () => {
    const state = { features: [{ name: 'bad', enabled: true, strategies: [{ name: 'default', constraints: [{ contextName: 'email', operator: 'REGEX', value: '(unclosed' }] }] }] };
    const answer = new FlagEvaluator(modelOfClientState(state, 'production'), readContext({ properties: { email: 'x' } }).context).explain('bad', 'production');
    assert.equal(answer.enabled, false);
    assert.equal(answer.strategies[0]?.constraints[0]?.reason, 'invalidValue');
  });
});
