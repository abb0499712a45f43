import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Constraint, Segment, Strategy } from '../../src/api/schemas';
import { constraintParts, describeConstraint } from '../../src/model/text/constraintText';
import { compactStrip, environmentInitials, environmentStates, shortEnvironmentName, shortEnvironmentNames } from '../../src/model/text/environmentText';
import { describeDependency, describeEnvironmentState, describeLastSeen, describeLifecycle, describeSegment, environmentStrip } from '../../src/model/text/flagText';
import { clean, formatList, MAX_DETAIL, MAX_LABEL, parseIsoUtc, singleLine, truncate, utcDateTime } from '../../src/model/text/plainText';
import { describeParameters, describeStrategy, strategyBadges, strategyDisplayName, strategyTitle } from '../../src/model/text/strategyText';
import { describeOverride, describePayload, describeVariant, weightPercent } from '../../src/model/text/variantText';

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/;
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Single-line, free of control/bidi characters and lone surrogates, and at most `max` long. */
function assertSafe(text: string, max: number): void {
  assert.ok(!UNSAFE.test(text), `control character in ${JSON.stringify(text.slice(0, 80))}`);
  assert.ok(!LONE.test(text), 'lone surrogate');
  assert.ok(text.length <= max, `length ${text.length} > ${max}`);
}

const con = (operator: string, extra: Partial<Constraint> = {}): Constraint =>
  ({ contextName: 'ctx', operator, ...extra });

describe('describeConstraint: list operators', () => {
  it('IN and NOT_IN', () => {
    assert.equal(describeConstraint({ contextName: 'country', operator: 'IN', values: ['DE', 'FR'] }),
      'country is one of DE, FR');
    assert.equal(describeConstraint({ contextName: 'userId', operator: 'NOT_IN', values: ['1', '2'] }),
      'userId is not one of 1, 2');
    assert.equal(describeConstraint({ contextName: 'country', operator: 'IN', values: ['DE'] }), 'country is one of DE');
  });
  it('inverted IN and NOT_IN', () => {
    assert.equal(describeConstraint(con('IN', { values: ['a'], inverted: true })), 'ctx is not one of a');
    assert.equal(describeConstraint(con('NOT_IN', { values: ['a'], inverted: true })), 'ctx is one of a');
  });
  it('case-insensitive IN and NOT_IN', () => {
    assert.equal(describeConstraint(con('IN', { values: ['a'], caseInsensitive: true })),
      'ctx is one of a (case-insensitive)');
    assert.equal(describeConstraint(con('NOT_IN', { values: ['a'], caseInsensitive: true, inverted: true })),
      'ctx is one of a (case-insensitive)');
  });
  it('string operators, one value', () => {
    assert.equal(describeConstraint(con('STR_CONTAINS', { values: ['beta'] })), 'ctx contains beta');
    assert.equal(describeConstraint(con('STR_STARTS_WITH', { values: ['beta'] })), 'ctx starts with beta');
    assert.equal(describeConstraint({ contextName: 'email', operator: 'STR_ENDS_WITH', values: ['@example.com'] }),
      'email ends with @example.com');
  });
  it('string operators, several values', () => {
    assert.equal(describeConstraint(con('STR_CONTAINS', { values: ['a', 'b'] })), 'ctx contains any of a, b');
    assert.equal(describeConstraint(con('STR_STARTS_WITH', { values: ['a', 'b'] })), 'ctx starts with any of a, b');
    assert.equal(describeConstraint(con('STR_ENDS_WITH', { values: ['a', 'b'] })), 'ctx ends with any of a, b');
  });
  it('string operators inverted', () => {
    assert.equal(describeConstraint(con('STR_CONTAINS', { values: ['a'], inverted: true })), 'ctx does not contain a');
    assert.equal(describeConstraint(con('STR_STARTS_WITH', { values: ['a'], inverted: true })),
      'ctx does not start with a');
    assert.equal(describeConstraint(con('STR_ENDS_WITH', { values: ['a'], inverted: true })), 'ctx does not end with a');
    assert.equal(describeConstraint(con('STR_CONTAINS', { values: ['a', 'b'], inverted: true })),
      'ctx does not contain any of a, b');
  });
  it('string operators case-insensitive', () => {
    assert.equal(
      describeConstraint({
        contextName: 'email', operator: 'STR_ENDS_WITH', values: ['@example.com'], inverted: true, caseInsensitive: true,
      }),
      'email does not end with @example.com (case-insensitive)');
    assert.equal(describeConstraint(con('STR_CONTAINS', { values: ['A'], caseInsensitive: true })),
      'ctx contains A (case-insensitive)');
    assert.equal(describeConstraint(con('STR_STARTS_WITH', { values: ['A'], caseInsensitive: false })),
      'ctx starts with A');
  });
  it('empty value lists', () => {
    assert.equal(describeConstraint({ contextName: 'country', operator: 'IN', values: [] }), 'country is one of (no values)');
    assert.equal(describeConstraint(con('NOT_IN')), 'ctx is not one of (no values)');
    assert.equal(describeConstraint(con('STR_CONTAINS', { values: [] })), 'ctx contains (no values)');
  });
  it('a list operator whose value came in `value`', () => {
    assert.equal(describeConstraint(con('IN', { value: 'DE' })), 'ctx is one of DE');
    assert.equal(describeConstraint(con('IN', { values: [], value: 'DE' })), 'ctx is one of DE');
  });
  it('empty strings inside the list are visible', () => {
    assert.equal(describeConstraint(con('IN', { values: ['', 'a', '  '] })), 'ctx is one of "", a, "  "');
  });
  it('long lists stop after 10 values', () => {
    const values = Array.from({ length: 22 }, (_, i) => String(i + 1));
    assert.equal(describeConstraint({ contextName: 'userId', operator: 'IN', values }),
      'userId is one of 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 … and 12 more');
    assert.equal(describeConstraint(con('IN', { values: values.slice(0, 10) })),
      'ctx is one of 1, 2, 3, 4, 5, 6, 7, 8, 9, 10');
    assert.equal(describeConstraint(con('IN', { values: values.slice(0, 11) })),
      'ctx is one of 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 … and 1 more');
  });
  it('long values stop at the label budget and still say how many are left', () => {
    const values = Array.from({ length: 5 }, (_, i) => `${'abcdefghij'.repeat(4)}-${i}`);
    assert.equal(describeConstraint(con('IN', { values })),
      'ctx is one of abcdefghijabcdefghijabcdefghijabcdefghij-0, abcdefghijabcdefghijabcdefghijabcdefghij-1, '
      + 'abcdefghijabcdefghijabcdefghijabcdefghij-2 … and 2 more');
  });
});

describe('describeConstraint: single-value operators', () => {
  const cases: Array<[string, string, string]> = [
    ['NUM_EQ', 'is a number equal to', 'is not a number equal to'],
    ['NUM_GT', 'is a number greater than', 'is not a number greater than'],
    ['NUM_GTE', 'is a number greater than or equal to', 'is not a number greater than or equal to'],
    ['NUM_LT', 'is a number less than', 'is not a number less than'],
    ['NUM_LTE', 'is a number less than or equal to', 'is not a number less than or equal to'],
    ['SEMVER_EQ', 'is a SemVer equal to', 'is not a SemVer equal to'],
    ['SEMVER_GT', 'is a SemVer greater than', 'is not a SemVer greater than'],
    ['SEMVER_GTE', 'is a SemVer greater than or equal to', 'is not a SemVer greater than or equal to'],
    ['SEMVER_LT', 'is a SemVer less than', 'is not a SemVer less than'],
    ['SEMVER_LTE', 'is a SemVer less than or equal to', 'is not a SemVer less than or equal to'],
    ['REGEX', 'matches regex', 'does not match regex'],
  ];
  for (const [operator, positive, negative] of cases) {
    it(operator, () => {
      assert.equal(describeConstraint(con(operator, { value: '42' })), `ctx ${positive} 42`);
      assert.equal(describeConstraint(con(operator, { value: '42', inverted: true })), `ctx ${negative} 42`);
      assert.equal(describeConstraint(con(operator, { value: '42', inverted: false })), `ctx ${positive} 42`);
    });
  }
  it('semver values as given', () => {
    assert.equal(describeConstraint({ contextName: 'appVersion', operator: 'SEMVER_GT', value: '2.1.0' }),
      'appVersion is a SemVer greater than 2.1.0');
    assert.equal(describeConstraint({ contextName: 'appVersion', operator: 'SEMVER_LT', value: '3.0.0-beta.1+build.5' }),
      'appVersion is a SemVer less than 3.0.0-beta.1+build.5');
  });
  it('case-insensitive is mentioned for REGEX but not for numbers, dates or SemVer', () => {
    assert.equal(describeConstraint(con('REGEX', { value: '^beta-.*$', caseInsensitive: true })),
      'ctx matches regex ^beta-.*$ (case-insensitive)');
    assert.equal(describeConstraint(con('NUM_GT', { value: '1', caseInsensitive: true })), 'ctx is a number greater than 1');
    assert.equal(describeConstraint(con('SEMVER_EQ', { value: '1.0.0', caseInsensitive: true })),
      'ctx is a SemVer equal to 1.0.0');
    assert.equal(describeConstraint(con('DATE_AFTER', { value: '2025-01-01T00:00:00.000Z', caseInsensitive: true })),
      'ctx is a date after 2025-01-01 00:00 UTC');
  });
  it('falls back to values[0] when value is missing or empty', () => {
    assert.equal(describeConstraint(con('NUM_GT', { values: ['5', '6'] })), 'ctx is a number greater than 5');
    assert.equal(describeConstraint(con('NUM_GT', { value: '', values: ['5'] })), 'ctx is a number greater than 5');
  });
  it('no value at all', () => {
    assert.equal(describeConstraint(con('NUM_EQ')), 'ctx is a number equal to (no value)');
    assert.equal(describeConstraint(con('SEMVER_EQ', { value: '', values: [] })), 'ctx is a SemVer equal to (no value)');
  });
});

describe('describeConstraint: dates', () => {
  it('DATE_AFTER and DATE_BEFORE in compact UTC', () => {
    assert.equal(describeConstraint({ contextName: 'currentTime', operator: 'DATE_AFTER', value: '2025-01-01T00:00:00.000Z' }),
      'currentTime is a date after 2025-01-01 00:00 UTC');
    assert.equal(describeConstraint(con('DATE_BEFORE', { value: '2025-06-30T22:15:00Z' })),
      'ctx is a date before 2025-06-30 22:15 UTC');
  });
  it('inverted dates', () => {
    assert.equal(describeConstraint(con('DATE_AFTER', { value: '2025-01-01T00:00:00Z', inverted: true })),
      'ctx is not a date after 2025-01-01 00:00 UTC');
    assert.equal(describeConstraint(con('DATE_BEFORE', { value: '2025-01-01T00:00:00Z', inverted: true })),
      'ctx is not a date before 2025-01-01 00:00 UTC');
  });
  it('offsets are converted to UTC; seconds and milliseconds are kept when not zero', () => {
    assert.equal(describeConstraint(con('DATE_AFTER', { value: '2025-01-01T10:30:15.250+02:00' })),
      'ctx is a date after 2025-01-01 08:30:15.250 UTC');
    assert.equal(describeConstraint(con('DATE_AFTER', { value: '2024-12-31T23:30:00-01:00' })),
      'ctx is a date after 2025-01-01 00:30 UTC');
    assert.equal(describeConstraint(con('DATE_AFTER', { value: '2025-01-01T00:00:05Z' })),
      'ctx is a date after 2025-01-01 00:00:05 UTC');
  });
  it('dates that do not parse, or would need the local time zone, are shown as given', () => {
    assert.equal(describeConstraint(con('DATE_AFTER', { value: '2025-01-01T00:00:00' })),
      'ctx is a date after 2025-01-01T00:00:00');
    assert.equal(describeConstraint(con('DATE_BEFORE', { value: 'next tuesday' })), 'ctx is a date before next tuesday');
    assert.equal(describeConstraint(con('DATE_BEFORE', { value: '2025-02-30T00:00:00Z' })),
      'ctx is a date before 2025-02-30T00:00:00Z');
  });
  it('a date given in values', () => {
    assert.equal(describeConstraint(con('DATE_BEFORE', { values: ['2030-01-01T12:00:00.000Z'] })),
      'ctx is a date before 2030-01-01 12:00 UTC');
  });
});

describe('describeConstraint: unknown operators and odd data', () => {
  it('unknown operators are shown as data', () => {
    assert.equal(describeConstraint({ contextName: 'tenant', operator: 'FOO_BAR', value: '7' }), 'tenant FOO_BAR 7');
    assert.equal(describeConstraint(con('FOO_BAR', { values: ['a', 'b'] })), 'ctx FOO_BAR a, b');
    assert.equal(describeConstraint(con('FOO_BAR')), 'ctx FOO_BAR');
    assert.equal(describeConstraint(con('FOO_BAR', { value: '7', inverted: true, caseInsensitive: true })),
      'ctx FOO_BAR 7 (inverted)');
    assert.equal(describeConstraint(con('', { value: '7' })), 'ctx (no operator) 7');
  });
  it('operator names are matched exactly (no prototype keys, no lower case)', () => {
    assert.equal(describeConstraint(con('toString', { value: 'x' })), 'ctx toString x');
    assert.equal(describeConstraint(con('in', { values: ['x'] })), 'ctx in x');
  });
  it('empty context name', () => {
    assert.equal(describeConstraint({ contextName: '', operator: 'IN', values: ['a'] }), '(no context field) is one of a');
  });
  it('parts for callers that style them', () => {
    assert.deepEqual(constraintParts({ contextName: 'email', operator: 'STR_ENDS_WITH', values: ['@x.io'], caseInsensitive: true }),
      { contextName: 'email', phrase: 'ends with', values: '@x.io', suffix: ' (case-insensitive)' });
  });
});

describe('describeConstraint: untrusted text stays single-line and bounded', () => {
  it('newlines, control characters and bidi marks become spaces', () => {
    assert.equal(describeConstraint({ contextName: 'co\u202eun\u2066try', operator: 'IN', values: ['D\nE', 'F\u0000R', 'x\u200f'] }),
      'co un try is one of D E, F R, x ');
    assert.equal(describeConstraint(con('REGEX', { value: 'a\r\n\tb\u0085c\u2028d' })), 'ctx matches regex a b c d');
  });
  it('10,000-character inputs are bounded', () => {
    const huge = 'x'.repeat(10_000);
    const values = Array.from({ length: 1000 }, () => huge);
    for (const c of [
      { contextName: huge, operator: 'IN', values },
      { contextName: huge, operator: huge, values },
      { contextName: huge, operator: 'NUM_GT', value: huge, inverted: true },
      { contextName: huge, operator: 'DATE_AFTER', value: huge },
      { contextName: huge, operator: 'STR_CONTAINS', values, inverted: true, caseInsensitive: true },
    ]) {
      const text = describeConstraint(c);
      assertSafe(text, MAX_LABEL);
    }
    const text = describeConstraint({ contextName: huge, operator: 'IN', values });
    assert.ok(text.startsWith(`${'x'.repeat(59)}… is one of ${'x'.repeat(59)}…`), text);
    assert.ok(text.endsWith('… and 999 more'), text);
  });
  it('every operator, with hostile values, is safe', () => {
    const hostile = `\u202e${'ab\n\u0007'.repeat(3000)}\ud800`;
    for (const operator of ['IN', 'NOT_IN', 'STR_CONTAINS', 'STR_STARTS_WITH', 'STR_ENDS_WITH', 'NUM_EQ', 'NUM_GT',
      'NUM_GTE', 'NUM_LT', 'NUM_LTE', 'DATE_BEFORE', 'DATE_AFTER', 'SEMVER_EQ', 'SEMVER_GT', 'SEMVER_GTE', 'SEMVER_LT',
      'SEMVER_LTE', 'REGEX', 'WHATEVER']) {
      assertSafe(describeConstraint({ contextName: hostile, operator, value: hostile, values: [hostile, hostile] }), MAX_LABEL);
    }
  });
});

describe('strategyDisplayName', () => {
  it('maps built-in strategies to the UI names', () => {
    assert.equal(strategyDisplayName('default'), 'Standard');
    assert.equal(strategyDisplayName('flexibleRollout'), 'Gradual rollout');
    assert.equal(strategyDisplayName('remoteAddress'), 'IPs');
    assert.equal(strategyDisplayName('applicationHostname'), 'Hosts');
    assert.equal(strategyDisplayName('userWithId'), 'User IDs');
    assert.equal(strategyDisplayName('gradualRolloutRandom'), 'Gradual rollout (random)');
    assert.equal(strategyDisplayName('gradualRolloutSessionId'), 'Gradual rollout (session ID)');
    assert.equal(strategyDisplayName('gradualRolloutUserId'), 'Gradual rollout (user ID)');
  });
  it('keeps unknown names, cleaned', () => {
    assert.equal(strategyDisplayName('myCustom'), 'myCustom');
    assert.equal(strategyDisplayName('constructor'), 'constructor');
    assert.equal(strategyDisplayName('evil\nname\u202e'), 'evil name ');
    assert.equal(strategyDisplayName(''), '(unnamed strategy)');
    assertSafe(strategyDisplayName('n'.repeat(10_000)), 60);
  });
});

describe('describeStrategy', () => {
  const s = (name: string, parameters?: Record<string, string | number | boolean>): Strategy =>
    (parameters === undefined ? { name } : { name, parameters });
  it('Standard', () => {
    assert.equal(describeStrategy(s('default')), 'Standard: on for everyone');
    assert.equal(describeStrategy(s('default', {})), 'Standard: on for everyone');
  });
  it('Gradual rollout', () => {
    assert.equal(describeStrategy(s('flexibleRollout', { rollout: '25', stickiness: 'userId', groupId: 'checkout' })),
      'Gradual rollout: 25% of userId');
    assert.equal(describeStrategy(s('flexibleRollout', { rollout: '100', stickiness: 'default', groupId: 'g' })),
      'Gradual rollout: 100% of default');
    assert.equal(describeStrategy(s('flexibleRollout', { rollout: 50 })), 'Gradual rollout: 50%');
    assert.equal(describeStrategy(s('flexibleRollout', { rollout: '0', stickiness: 'sessionId' })),
      'Gradual rollout: 0% of sessionId');
    assert.equal(describeStrategy(s('flexibleRollout', { rollout: '33.33', stickiness: 'random' })),
      'Gradual rollout: 33.3% of random');
    assert.equal(describeStrategy(s('flexibleRollout', { rollout: 'lots', stickiness: 'userId' })),
      'Gradual rollout: rollout lots of userId');
    assert.equal(describeStrategy(s('flexibleRollout', { stickiness: 'userId' })),
      'Gradual rollout: rollout not set of userId');
  });
  it('IPs, Hosts, User IDs', () => {
    assert.equal(describeStrategy(s('remoteAddress', { IPs: '10.0.0.1,192.168.0.0/16' })), 'IPs: 10.0.0.1, 192.168.0.0/16');
    assert.equal(describeStrategy(s('remoteAddress', { IPs: ' 10.0.0.1 , ,192.168.0.0/16 ' })),
      'IPs: 10.0.0.1, 192.168.0.0/16');
    assert.equal(describeStrategy(s('applicationHostname', { hostNames: 'web-1,web-2' })), 'Hosts: web-1, web-2');
    assert.equal(describeStrategy(s('userWithId', { userIds: 'alice, bob' })), 'User IDs: alice, bob');
    assert.equal(describeStrategy(s('userWithId', { userIds: 42 })), 'User IDs: 42');
    assert.equal(describeStrategy(s('remoteAddress')), 'IPs: (none)');
    const many = Array.from({ length: 15 }, (_, i) => `10.0.0.${i}`).join(',');
    assert.equal(describeStrategy(s('remoteAddress', { IPs: many })),
      'IPs: 10.0.0.0, 10.0.0.1, 10.0.0.2, 10.0.0.3, 10.0.0.4, 10.0.0.5, 10.0.0.6, 10.0.0.7, 10.0.0.8, 10.0.0.9 … and 5 more');
  });
  it('older gradual rollouts', () => {
    assert.equal(describeStrategy(s('gradualRolloutRandom', { percentage: '10' })), 'Gradual rollout (random): 10%');
    assert.equal(describeStrategy(s('gradualRolloutSessionId', { percentage: 20, groupId: 'g' })),
      'Gradual rollout (session ID): 20%');
    assert.equal(describeStrategy(s('gradualRolloutUserId', { percentage: '30', groupId: 'g' })),
      'Gradual rollout (user ID): 30%');
  });
  it('unknown strategies list their parameters by name', () => {
    assert.equal(describeStrategy(s('tenantRollout', { zeta: 'z', alpha: 1, beta: false })),
      'tenantRollout: alpha=1, beta=false, zeta=z');
    assert.equal(describeStrategy(s('tenantRollout')), 'tenantRollout');
    assert.equal(describeStrategy(s('tenantRollout', { empty: '' })), 'tenantRollout: empty=""');
  });
  it('never includes the title or disabled state', () => {
    assert.equal(describeStrategy({ name: 'default', title: 'Everyone', disabled: true }), 'Standard: on for everyone');
  });
  it('hostile parameters stay bounded', () => {
    const huge = 'h\n'.repeat(10_000);
    for (const name of ['flexibleRollout', 'remoteAddress', 'applicationHostname', 'userWithId', 'custom\u202e']) {
      assertSafe(describeStrategy(s(name, { rollout: huge, stickiness: huge, IPs: huge, hostNames: huge, userIds: huge, [huge]: huge })),
        MAX_LABEL);
    }
  });
});

describe('strategyTitle, strategyBadges, describeParameters', () => {
  it('title', () => {
    assert.equal(strategyTitle({ name: 'default', title: 'Beta users' }), 'Beta users');
    assert.equal(strategyTitle({ name: 'default', title: null }), undefined);
    assert.equal(strategyTitle({ name: 'default' }), undefined);
    assert.equal(strategyTitle({ name: 'default', title: ' \n ' }), undefined);
    assert.equal(strategyTitle({ name: 'default', title: 'a\nb' }), 'a b');
  });
  it('badges', () => {
    assert.deepEqual(strategyBadges({ name: 'default' }), []);
    assert.deepEqual(strategyBadges({ name: 'default', disabled: false }), []);
    assert.deepEqual(strategyBadges({ name: 'default', disabled: true }), ['disabled']);
    assert.deepEqual(
      strategyBadges({
        name: 'default',
        disabled: true,
        constraints: [con('IN'), con('IN')],
        segments: [1],
        variants: [{ name: 'a', weight: 1000, weightType: 'variable', stickiness: 'default' }],
      }),
      ['disabled', '2 constraints', '1 segment', '1 variant']);
  });
  it('parameters sorted by name, values as text', () => {
    assert.deepEqual(describeParameters({ name: 'x', parameters: { stickiness: 'default', rollout: 50, groupId: 'g', B: true, e: '' } }), [
      { name: 'B', value: 'true' },
      { name: 'e', value: '""' },
      { name: 'groupId', value: 'g' },
      { name: 'rollout', value: '50' },
      { name: 'stickiness', value: 'default' },
    ]);
    assert.deepEqual(describeParameters({ name: 'x' }), []);
  });
  it('parameter lists are bounded', () => {
    const parameters: Record<string, string> = {};
    for (let i = 0; i < 150; i += 1) parameters[`p${String(i).padStart(3, '0')}`] = 'v\n'.repeat(5000);
    const rows = describeParameters({ name: 'x', parameters });
    assert.equal(rows.length, 101);
    assert.deepEqual(rows[100], { name: '…', value: '50 more parameters' });
    for (const row of rows) { assertSafe(row.name, MAX_LABEL); assertSafe(row.value, MAX_LABEL); }
  });
});

describe('variants and payloads', () => {
  it('percentages of 1000', () => {
    assert.equal(weightPercent(0), '0%');
    assert.equal(weightPercent(1000), '100%');
    assert.equal(weightPercent(333), '33.3%');
    assert.equal(weightPercent(500), '50%');
    assert.equal(weightPercent(334), '33.4%');
    assert.equal(weightPercent(1), '0.1%');
    assert.equal(weightPercent(333.33), '33.3%');
    assert.equal(weightPercent(Number.NaN), 'weight unknown');
  });
  it('a plain variant', () => {
    assert.deepEqual(describeVariant({ name: 'blue', weight: 500 }), { label: 'blue — 50%', detail: '' });
    assert.deepEqual(describeVariant({ name: 'off', weight: 0, weightType: 'fix' }), { label: 'off — 0%', detail: 'fix' });
  });
  it('a strategy variant', () => {
    assert.deepEqual(
      describeVariant({ name: 'red', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'number', value: '42' } }),
      { label: 'red — 100%', detail: 'variable · stickiness: default · number: 42' });
  });
  it('a feature variant with payload and overrides', () => {
    assert.deepEqual(
      describeVariant({
        name: 'green', weight: 333, weightType: 'variable', stickiness: 'userId',
        payload: { type: 'string', value: 'hello' },
        overrides: [{ contextName: 'userId', values: ['1', '2'] }, { contextName: 'tenant', values: ['acme'] }],
      }),
      { label: 'green — 33.3%', detail: 'variable · stickiness: userId · string: "hello" · overrides userId: 1, 2; tenant: acme' });
  });
  it('every payload type', () => {
    assert.equal(describePayload({ type: 'string', value: 'hello' }), 'string: "hello"');
    assert.equal(describePayload({ type: 'string', value: '' }), 'string: ""');
    assert.equal(describePayload({ type: 'json', value: '{\n  "a": 1,\n  "b": "x y"\n}' }), 'json: {"a":1,"b":"x y"}');
    assert.equal(describePayload({ type: 'json', value: '{"n": 12345678901234567890}' }), 'json: {"n":12345678901234567890}');
    assert.equal(describePayload({ type: 'json', value: '{not json\n}' }), 'json: {not json }');
    // Compacted JSON keeps invisible characters as JSON escapes (still valid JSON); text that is not JSON is cleaned.
    assert.equal(describePayload({ type: 'json', value: '{"a": "x\u202ey\u200bz\u{E0041}"}' }), 'json: {"a":"x\\u202ey\\u200bz\\udb40\\udc41"}');
    assert.equal(describePayload({ type: 'json', value: '{"a": x\u202ey}' }), 'json: {"a": x y}');
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    assert.equal(describePayload({ type: 'json', value: deep }), `json: ${'['.repeat(79)}…`);
    assert.equal(describePayload({ type: 'csv', value: 'a,b,c\nd,e,f' }), 'csv: a,b,c d,e,f');
    assert.equal(describePayload({ type: 'number', value: '42' }), 'number: 42');
    assert.equal(describePayload({ type: 'yaml', value: 'a: 1' }), 'yaml: a: 1');
    assert.equal(describePayload({ type: '', value: 'x' }), '(no type): x');
    assert.equal(describePayload({ type: 'csv', value: '' }), 'csv: ""');
  });
  it('payloads are cut at 80 characters', () => {
    assert.equal(describePayload({ type: 'string', value: 'a'.repeat(10_000) }), `string: "${'a'.repeat(79)}…"`);
    const json = JSON.stringify({ list: Array.from({ length: 2000 }, (_, i) => i) }, null, 2);
    assert.equal(describePayload({ type: 'json', value: json }), 
      'json: {"list":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26…');
    assert.equal(describePayload({ type: 'number', value: '9'.repeat(100) }), `number: ${'9'.repeat(79)}…`);
  });
  it('overrides', () => {
    assert.equal(describeOverride({ contextName: 'userId', values: [] }), 'userId: (no values)');
    assert.equal(describeOverride({ contextName: 'userId', values: ['1'] }), 'userId: 1');
  });
  it('many overrides are bounded', () => {
    const overrides = Array.from({ length: 8 }, (_, i) => ({ contextName: `c${i}`, values: ['v'] }));
    assert.equal(describeVariant({ name: 'v', weight: 1, overrides }).detail,
      'overrides c0: v; c1: v; c2: v; c3: v; c4: v … and 3 more');
  });
  it('hostile variants stay bounded', () => {
    const huge = '\u202ex\n'.repeat(10_000);
    const text = describeVariant({
      name: huge, weight: 1000, weightType: huge, stickiness: huge, payload: { type: huge, value: huge },
      overrides: Array.from({ length: 100 }, () => ({ contextName: huge, values: [huge, huge] })),
    });
    assertSafe(text.label, MAX_LABEL);
    assertSafe(text.detail, MAX_DETAIL);
  });
});

describe('segments, dependencies, lifecycle', () => {
  const segment = (extra: Partial<Segment>): Segment =>
    ({ id: 1, name: 'beta-users', constraints: [], createdAt: '2025-01-01T00:00:00.000Z', ...extra });
  it('segments', () => {
    assert.deepEqual(describeSegment(segment({ project: 'checkout', constraints: [con('IN'), con('IN')], description: 'Beta users in the EU' })),
      { label: 'beta-users', detail: 'project checkout · 2 constraints · Beta users in the EU' });
    assert.deepEqual(describeSegment(segment({ project: null, description: null, constraints: [con('IN')] })),
      { label: 'beta-users', detail: 'global · 1 constraint' });
    assert.deepEqual(describeSegment(segment({ description: '' })), { label: 'beta-users', detail: 'global · 0 constraints' });
    const hostile = describeSegment(segment({ name: '\u202e'.repeat(10_000) + 'n', description: 'd\n'.repeat(10_000), project: 'p\n'.repeat(10_000) }));
    assertSafe(hostile.label, MAX_LABEL);
    assertSafe(hostile.detail, MAX_DETAIL);
  });
  it('dependencies', () => {
    assert.equal(describeDependency({ feature: 'new-checkout-flow', enabled: true, variants: ['blue'] }),
      'requires new-checkout-flow enabled (variants: blue)');
    assert.equal(describeDependency({ feature: 'new-checkout-flow', variants: ['blue', 'green'] }),
      'requires new-checkout-flow enabled (variants: blue, green)');
    assert.equal(describeDependency({ feature: 'new-checkout-flow' }), 'requires new-checkout-flow enabled');
    assert.equal(describeDependency({ feature: 'new-checkout-flow', enabled: true, variants: [] }), 'requires new-checkout-flow enabled');
    assert.equal(describeDependency({ feature: 'legacy-banner', enabled: false }), 'requires legacy-banner disabled');
    assert.equal(describeDependency({ feature: 'legacy-banner', enabled: false, variants: ['x'] }), 'requires legacy-banner disabled');
    assertSafe(describeDependency({ feature: 'f\n'.repeat(10_000), variants: Array.from({ length: 1000 }, () => 'v'.repeat(10_000)) }), MAX_LABEL);
  });
  it('lifecycle', () => {
    assert.equal(describeLifecycle({ stage: 'live', enteredStageAt: '2025-01-02T10:00:00.000Z' }), 'live since 2025-01-02');
    assert.equal(describeLifecycle({ stage: 'pre-live', enteredStageAt: '2025-01-02T23:30:00-02:00' }), 'pre-live since 2025-01-03');
    assert.equal(describeLifecycle({ stage: 'completed', enteredStageAt: 'yesterday' }), 'completed since yesterday');
    assert.equal(describeLifecycle({ stage: 'initial', enteredStageAt: '' }), 'initial');
    assert.equal(describeLifecycle({ stage: '', enteredStageAt: '2025-01-02T00:00:00Z' }), 'unknown stage since 2025-01-02');
  });
});

describe('environments and last seen', () => {
  it('state', () => {
    assert.equal(describeEnvironmentState(true), 'enabled');
    assert.equal(describeEnvironmentState(false), 'disabled');
  });
  it('strip keeps the given order', () => {
    assert.equal(environmentStrip([{ name: 'development', enabled: true }, { name: 'production', enabled: false }]),
      'development ● production ○');
    assert.equal(environmentStrip([{ name: 'production', enabled: false }, { name: 'development', enabled: true }]),
      'production ○ development ●');
    assert.equal(environmentStrip([]), '');
  });
  it('strip is bounded', () => {
    const envs = Array.from({ length: 50 }, (_, i) => ({ name: `environment-${i}`, enabled: i % 2 === 0 }));
    const strip = environmentStrip(envs);
    assertSafe(strip, MAX_LABEL);
    assert.ok(strip.startsWith('environment-0 ● environment-1 ○ '), strip);
    assert.match(strip, / … \+\d+ more$/);
    const hostile = environmentStrip([{ name: 'p\u202e\nrod'.repeat(5000), enabled: true }]);
    assertSafe(hostile, MAX_LABEL);
    assert.equal(hostile.endsWith(' ●'), true);
  });
  it('short environment names: usual short forms, short names as they are, unique in the catalog', () => {
    assert.deepEqual(
      ['development', 'Production', 'staging', 'qa', 'eu-west-1', 'production-eu', 'customer-acceptance', ' ', 'x'.repeat(500)]
        .map(shortEnvironmentName),
      ['dev', 'prod', 'stage', 'qa', 'eu-west-1', 'prod-eu', 'cust-acce', '(unnamed)', 'xxxx'],
    );
    assert.deepEqual(
      ['development', 'production-eu', 'eu-west-1', 'Staging', ' ', '\u{1F600}x-y'].map(environmentInitials),
      ['d', 'pe', 'ew1', 'S', '?', '\u{1F600}y'],
    );
    // Initials; `production` and `preprod` would both read `p`: they get their short names; `integration1` and
    // `integrationenvironment2` would both read `inte` then: they get their names, cut at 16.
    assert.deepEqual([...shortEnvironmentNames(['development', 'production']).entries()], [['development', 'd'], ['production', 'p']]);
    assert.deepEqual(
      [...shortEnvironmentNames(['development', 'production', 'preprod', 'integrationenvironment2', 'integration1', 'eu-west-1']).entries()],
      [
        ['development', 'd'], ['production', 'prod'], ['preprod', 'preprod'], ['integrationenvironment2', 'integrationenvi…'],
        ['integration1', 'integration1'], ['eu-west-1', 'ew1'],
      ],
    );
    const hostile = shortEnvironmentName('p\u202e\nrod-'.repeat(5000));
    assertSafe(hostile, 12);
  });
  it('compact strip: states side by side within the budget, else how many are on and off', () => {
    const labels = shortEnvironmentNames(['development', 'production']);
    assert.equal(compactStrip([{ name: 'development', enabled: true }, { name: 'production', enabled: false }], labels), 'd● p○');
    assert.equal(compactStrip([], labels), '');
    const many = Array.from({ length: 50 }, (_, i) => ({ name: `environment-${i}`, enabled: i % 2 === 0 }));
    assert.equal(compactStrip(many, shortEnvironmentNames(many.map((e) => e.name))), '25 on, 25 off');
    assert.equal(
      environmentStates([{ name: 'development', enabled: true }, { name: 'production', enabled: false }]),
      'development ● enabled, production ○ disabled',
    );
    const states = environmentStates(many);
    assertSafe(states, MAX_DETAIL);
    assert.match(states, /^environment-0 ● enabled, environment-1 ○ disabled, .* … and \d+ more$/);
  });
  it('last seen', () => {
    const now = new Date('2025-03-10T12:00:00.000Z');
    assert.equal(describeLastSeen(null, now), 'never');
    assert.equal(describeLastSeen(undefined, now), 'never');
    assert.equal(describeLastSeen('', now), 'never');
    assert.equal(describeLastSeen('2025-03-10T11:59:30.000Z', now), 'just now');
    assert.equal(describeLastSeen('2025-03-10T12:05:00.000Z', now), 'just now');
    assert.equal(describeLastSeen('2025-03-10T11:59:00.000Z', now), '1 minute ago');
    assert.equal(describeLastSeen('2025-03-10T11:55:00.000Z', now), '5 minutes ago');
    assert.equal(describeLastSeen('2025-03-10T11:00:00.000Z', now), '1 hour ago');
    assert.equal(describeLastSeen('2025-03-09T13:00:00.000Z', now), '23 hours ago');
    assert.equal(describeLastSeen('2025-03-07T12:00:00.000Z', now), '3 days ago');
    assert.equal(describeLastSeen('2025-01-01T00:00:00.000Z', now), '2 months ago');
    assert.equal(describeLastSeen('2023-03-01T00:00:00.000Z', now), '2 years ago');
    assert.equal(describeLastSeen('2025-03-10T13:00:00.000+02:00', now), '1 hour ago');
    assert.equal(describeLastSeen('garbage\n', now), 'garbage ');
  });
});

describe('text helpers', () => {
  it('singleLine', () => {
    assert.equal(singleLine('a\nb'), 'a b');
    assert.equal(singleLine('a \r\n  b'), 'a b');
    assert.equal(singleLine('  keep  spaces  '), '  keep  spaces  ');
    assert.equal(singleLine('x\u0000\u001f\u007f\u009fy'), 'x y');
    assert.equal(singleLine('\u202aa\u202b\u202c\u202d\u202eb\u2066\u2067\u2068\u2069c\u200e\u200fd'), ' a b c d');
    assert.equal(singleLine('a\u2028b\u2029c\ufeffd\u061ce'), 'a b c d e');
    assert.equal(singleLine('lone \ud800 and \udc00'), 'lone \ufffd and \ufffd');
    assert.equal(singleLine('emoji 😀 ok'), 'emoji 😀 ok');
    assert.equal(singleLine('שלום עולם'), 'שלום עולם');
  });
  it('truncate never splits a surrogate pair', () => {
    assert.equal(truncate('hello', 5), 'hello');
    assert.equal(truncate('hello world', 8), 'hello w…');
    assert.equal(truncate('hello world', 7), 'hello…');
    assert.equal(truncate('ab😀cd', 4), 'ab…');
    assert.equal(truncate('ab😀cd', 5), 'ab😀…');
    assert.equal(truncate('abc', 1), '…');
    assert.equal(truncate('abc', 0), '');
  });
  it('clean bounds huge inputs cheaply and marks the cut', () => {
    assert.equal(clean('a\n'.repeat(100_000), 10), 'a a a a a…');
    assert.equal(clean(`${'x'.repeat(10)}${'\n'.repeat(100_000)}y`, 20), 'xxxxxxxxxx…');
    assertSafe(clean('😀'.repeat(100_000), 7), 7);
    assert.equal(clean('😀'.repeat(100_000), 6), '😀😀…');
  });
  it('formatList', () => {
    assert.equal(formatList([]), '');
    assert.equal(formatList(['a']), 'a');
    assert.equal(formatList(['a', 'b', 'c'], { maxItems: 2 }), 'a, b … and 1 more');
    assert.equal(formatList(['a'.repeat(100), 'b'], { maxItem: 10 }), 'aaaaaaaaa…, b');
    assert.equal(formatList(['a'.repeat(100), 'b'], { maxItem: 10, maxItems: 1 }), 'aaaaaaaaa… and 1 more');
  });
  it('dates are parsed strictly and shown in UTC', () => {
    assert.equal(parseIsoUtc('2025-01-01T00:00:00.000Z'), Date.UTC(2025, 0, 1));
    assert.equal(parseIsoUtc('2025-01-01'), Date.UTC(2025, 0, 1));
    assert.equal(parseIsoUtc('2025-01-01T00:00:00'), undefined);
    assert.equal(parseIsoUtc('2025-13-01T00:00:00Z'), undefined);
    assert.equal(parseIsoUtc('1/2/2025'), undefined);
    assert.equal(utcDateTime(Date.UTC(2025, 0, 1, 9, 5)), '2025-01-01 09:05 UTC');
    assert.equal(utcDateTime(Date.UTC(2025, 0, 1, 9, 5, 7, 8)), '2025-01-01 09:05:07.008 UTC');
  });
});
