/**
 * A flag's usage summed up and shown (src/model/activity/): per environment, yes/no and variants, the per-hour picture,
 * and counts from a hostile server that cannot make the text lie or grow without bound.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeatureMetricsRow } from '../../src/api/activitySchemas';
import { MAX_USAGE_ENVIRONMENTS, summarizeUsage } from '../../src/model/activity/usageSummary';
import { sparkline, usageMarkdown, usageSection } from '../../src/model/activity/usageText';
import { takeAnswer } from '../../src/model/jobs/answerIntake';

const NOW = new Date('2026-11-26T08:40:00Z');

function row(environment: string, hoursAgo: number, yes: number, no: number, extra: Partial<FeatureMetricsRow> = {}): FeatureMetricsRow {
  const hour = Math.floor(NOW.getTime() / 3_600_000) - hoursAgo;
  return { timestamp: new Date(hour * 3_600_000).toISOString(), environment, appName: 'web', yes, no, ...extra };
}

describe('summarizeUsage', () => {
  it('sums per environment, most evaluated first, each hour in its place, quiet rows left out', () => {
    const summary = summarizeUsage(
      [row('development', 0, 30, 12), row('development', 5, 1, 0), row('production', 1, 1100, 100, { appName: 'api' }), row('staging', 3, 0, 0)],
      NOW,
      24,
    );
    assert.deepEqual(
      summary.environments.map((env) => [env.environment, env.yes, env.no]),
      [['production', 1100, 100], ['development', 31, 12]],
    );
    assert.equal(summary.total, 1243);
    assert.deepEqual(summary.applications, ['api', 'web']);
    const development = summary.environments[1]!;
    assert.equal(development.hourly.length, 24);
    assert.equal(development.hourly[23], 42);
    assert.equal(development.hourly[18], 1);
  });

  it('counts that are not whole non-negative numbers count as 0; environments past the bound are added up', () => {
    const hostile = [
      row('a', 0, -5, Number.NaN),
      row('a', 0, Infinity, 2.7),
      ...Array.from({ length: MAX_USAGE_ENVIRONMENTS + 5 }, (_, i) => row(`env-${i}`, 0, 1, 0)),
    ];
    const summary = summarizeUsage(hostile, NOW, 24);
    assert.deepEqual([summary.environments.find((env) => env.environment === 'a')?.yes, summary.environments.find((env) => env.environment === 'a')?.no], [0, 2]);
    assert.equal(summary.environments.length, MAX_USAGE_ENVIRONMENTS);
    assert.deepEqual(summary.others, { environments: 6, evaluations: 6 });
  });
});

describe('hostile counts and names', () => {
  it('counts of 1e308 read as the largest exact count, never ∞ or 308 digits, in the hover and the document', () => {
    const rows = [row('production', 0, 1e308, 1e308, { variants: { a: 1e308, b: 1e308 } }), row('production', 1, 1e308, 0)];
    const line = usageMarkdown({ value: rows }, NOW, 24) ?? '';
    assert.equal(line, '**Usage, last 24 h:** production 9\\,007\\,199\\,254\\,740\\,991\\+ \\(9\\,007\\,199\\,254\\,740\\,991\\+ yes · 9\\,007\\,199\\,254\\,740\\,991\\+ no\\)');
    const section = usageSection({ value: rows }, NOW, 24);
    assert.deepEqual(section.slice(3, 6), [
      'Environment             Evaluations                     Yes                      No  Per hour, oldest first',
      'production   9,007,199,254,740,991+  9,007,199,254,740,991+  9,007,199,254,740,991+  ······················██',
      '  Variants: a 9,007,199,254,740,991+, b 9,007,199,254,740,991+',
    ]);
    assert.doesNotMatch([line, ...section].join('\n'), /∞|\d{17}/);
  });

  it('the document writes environment, variant and application names in full, invisible characters as escapes', () => {
    const app = `checkout-service-for-the-european-region-${'x'.repeat(60)}\u202e`;
    const env = `production-${'e'.repeat(60)}`;
    const section = usageSection({ value: [row(env, 0, 3, 1, { appName: app, variants: { [`variant-${'v'.repeat(60)}`]: 3 } })] }, NOW, 24);
    assert.ok(section.includes(`Applications: checkout-service-for-the-european-region-${'x'.repeat(60)}\\u{202E}`), section.join('\n'));
    assert.ok(section.some((line) => line.startsWith(`${env}  `)), section.join('\n'));
    assert.ok(section.includes(`  Variants: variant-${'v'.repeat(60)} 3`), section.join('\n'));
  });

  it('200,000 variants in one row: its first 10,000 counts read, the ten most evaluated of the first 1,000 names named, the others a least count', () => {
    const variants: Record<string, number> = { top: 1_000 };
    for (let i = 0; i < 200_000; i++) variants[`v${i}`] = i % 7 === 0 ? 2 : 1;
    variants.late = 5_000; // past the counts read: not counted
    const summary = summarizeUsage([row('production', 0, 5, 0, { variants })], NOW, 24);
    const [production] = summary.environments;
    assert.deepEqual(production?.variants.slice(0, 2), [{ name: 'top', count: 1000 }, { name: 'v0', count: 2 }]);
    assert.equal(production?.variants.length, 10);
    const read = Object.values(variants).slice(0, 10_000).reduce((sum, n) => sum + n, 0);
    assert.equal(production!.variants.reduce((sum, v) => sum + v.count, 0) + production!.otherVariants, read);
    assert.equal(production?.otherVariantsUncounted, true);
    const section = usageSection({ value: [row('production', 0, 5, 0, { variants })] }, NOW, 24);
    assert.ok(section.some((line) => /^ {2}Variants: top 1,000, .*, others at least [\d,]+ \(a row of 10,000 variant counts or more: 10,000 are read\)$/.test(line)), section.join('\n'));
  });
});

describe('a usage answer of 200,000 variant counts in one row, as it enters (the worker)', () => {
  it('keeps the first 10,000 counts of the row, so the host never reads the rest; the section says the others are a least count', async () => {
    const variants: Record<string, number> = {};
    for (let i = 0; i < 200_000; i++) variants[`v${i}`] = 1;
    const answer = { version: 1, maturity: 'stable', data: [row('production', 0, 5, 0, { variants })] };
    const taken = await takeAnswer(new TextEncoder().encode(JSON.stringify(answer)), 'featureMetrics');
    const kept = (taken.body as { data: FeatureMetricsRow[] }).data[0]?.variants as Record<string, number>;
    assert.equal(Object.keys(kept).length, 10_000);
    assert.equal(Object.keys(kept).at(-1), 'v9999');
    const section = usageSection({ value: (taken.body as { data: FeatureMetricsRow[] }).data }, NOW, 24);
    assert.ok(section.includes('  Variants: v0 1, v1 1, v10 1, v100 1, v101 1, v102 1, v103 1, v104 1, v105 1, v106 1, others at least 9,990 (a row of 10,000 variant counts or more: 10,000 are read)'), section.join('\n'));
  });
});

describe('sparkline', () => {
  it('one character per hour: a dot for none, bars scaled to the busiest hour', () => {
    assert.equal(sparkline([0, 1, 2, 4, 8, 0]), '·▁▂▄█·');
    assert.equal(sparkline([0, 0]), '··');
  });
});

describe('usage in the hover and the details document', () => {
  it('one line: environments with their split; not evaluated; why not shown', () => {
    const rows = [row('development', 0, 30, 12), row('production', 1, 1100, 100)];
    assert.equal(usageMarkdown({ value: rows }, NOW, 24), '**Usage, last 24 h:** production 1\\,200 \\(1\\,100 yes · 100 no\\) · development 42 \\(30 yes · 12 no\\)');
    assert.equal(usageMarkdown({ value: [row('development', 0, 0, 0)] }, NOW, 24), '**Usage, last 24 h:** not evaluated');
    assert.equal(usageMarkdown({ unavailable: 'no permission.', forbidden: true }, NOW, 24), '_Usage not shown: no permission\\._');
    assert.equal(usageMarkdown(undefined, NOW, 24), undefined);
  });

  it('names from the server cannot form markdown in the hover', () => {
    const line = usageMarkdown({ value: [row('[prod](command:x) **b**', 0, 1, 0)] }, NOW, 24) ?? '';
    assert.equal(line, '**Usage, last 24 h:** \\[prod\\]\\(command\\:x\\) \\*\\*b\\*\\* 1 \\(1 yes · 0 no\\)');
  });

  it('a table per environment with the picture of each hour, its variants and the applications', () => {
    const rows = [
      row('development', 0, 5, 1, { variants: { control: 2, treatment: 3, disabled: 1 }, appName: 'checkout-web' }),
      row('development', 2, 2, 0, { appName: 'checkout-web' }),
      row('production\u202e', 0, 1100, 100, { appName: 'checkout-api' }),
    ];
    assert.deepEqual(usageSection({ value: rows }, NOW, 24), [
      '',
      'Usage, last 24 hours',
      '--------------------',
      'Environment         Evaluations    Yes   No  Per hour, oldest first',
      'production\\u{202E}        1,200  1,100  100  ·······················█',
      'development                   8      7    1  ·····················▃·█',
      '  Variants: treatment 3, control 2, disabled 1',
      '',
      'Applications: checkout-api, checkout-web',
    ]);
    assert.deepEqual(usageSection({ value: [] }, NOW, 24).slice(3), ['Not evaluated: no SDK reported this flag in the last 24 hours.']);
  });
});
