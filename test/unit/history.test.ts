/**
 * A flag's history in words (src/model/activity/): each event type as people read it, names from the server shown as
 * the plain text they are, and the details document's section with its bound.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeatureEvent } from '../../src/api/activitySchemas';
import { describeEvent, historyEntry } from '../../src/model/activity/eventWording';
import { historySection, latestChangeMarkdown } from '../../src/model/activity/historyText';
import { activityMarkdown, activitySections } from '../../src/model/activity/activityText';

const AT = '2026-11-26T06:37:28.557Z';
const NOW = new Date('2026-11-26T08:40:00Z');

function event(type: string, extra: Partial<FeatureEvent> = {}): FeatureEvent {
  return { id: 1, type, createdBy: 'alice@example.com', createdAt: AT, featureName: 'new-checkout-flow', project: 'default', ...extra };
}

const staff = {
  name: 'flexibleRollout',
  title: 'Staff e-mail addresses',
  constraints: [{ contextName: 'userId', operator: 'STR_ENDS_WITH', values: ['@Example.com'] }],
  parameters: { rollout: '10', stickiness: 'default', groupId: 'new-checkout-flow' },
  segments: [],
  variants: [],
  disabled: false,
};

describe('describeEvent', () => {
  it('words each kind of change with its environment, strategy and tag', () => {
    const cases: Array<[FeatureEvent, string]> = [
      [event('feature-created'), 'created the flag'],
      [event('feature-environment-enabled', { environment: 'production' }), 'enabled in production'],
      [event('feature-environment-disabled', { environment: 'development' }), 'disabled in development'],
      [event('feature-strategy-add', { environment: 'production', data: staff }), 'added strategy “Staff e-mail addresses” in production'],
      [event('feature-strategy-add', { environment: 'production', data: { name: 'default' } }), 'added strategy Standard in production'],
      [event('feature-strategy-remove', { environment: 'production', preData: staff }), 'removed strategy “Staff e-mail addresses” from production'],
      [
        event('feature-strategy-update', {
          environment: 'production',
          preData: staff,
          data: { ...staff, constraints: [{ ...staff.constraints[0], values: ['@example.org'] }] },
        }),
        'changed the constraints of “Staff e-mail addresses” in production',
      ],
      [
        event('feature-strategy-update', { environment: 'production', preData: staff, data: { ...staff, parameters: { ...staff.parameters, rollout: '25' } } }),
        'changed the rollout (10% → 25%) of “Staff e-mail addresses” in production',
      ],
      [event('feature-strategy-update', { environment: 'production', preData: staff, data: { ...staff, disabled: true } }), 'turned off strategy “Staff e-mail addresses” in production'],
      [event('feature-strategy-update', { environment: 'production', preData: staff, data: staff }), 'changed strategy “Staff e-mail addresses” in production'],
      [event('feature-tagged', { data: { type: 'team', value: 'payments' } }), 'tagged team:payments'],
      [event('feature-untagged', { preData: { type: 'jira', value: 'PAY-123' } }), 'removed tag jira:PAY-123'],
      [event('feature-stale-on'), 'marked the flag stale'],
      [event('feature-archived'), 'archived the flag'],
      [event('feature-environment-variants-updated', { environment: 'production' }), 'changed the variants in production'],
      [event('feature-project-change', { data: { newProject: 'checkout' } }), 'moved the flag to project checkout'],
    ];
    for (const [input, what] of cases) assert.equal(describeEvent(input).what, what, input.type);
  });

  it('a type it does not know reads as the server label, else the type', () => {
    assert.equal(describeEvent(event('feature-impression-data-on', { label: 'Impression data on' })).what, 'Impression data on');
    assert.equal(describeEvent(event('feature-something-new')).what, 'feature-something-new');
  });

  it('who and when: the creator cleaned, someone when none, the time parsed', () => {
    assert.deepEqual(describeEvent(event('feature-created')), { who: 'alice@example.com', what: 'created the flag', at: Date.parse(AT) });
    assert.equal(describeEvent(event('feature-created', { createdBy: null })).who, 'someone');
    assert.equal(describeEvent(event('feature-created', { createdBy: 'a\u202eb\nc' })).who, 'a b c');
  });

  it('a change nested 6,000 deep is worded like any other: no RangeError', () => {
    let deep: unknown = {};
    for (let i = 0; i < 6_000; i++) deep = { a: deep };
    const update = event('feature-strategy-update', { environment: 'production', preData: { ...staff, constraints: [] }, data: { ...staff, constraints: deep } });
    assert.equal(describeEvent(update).what, 'changed the constraints of “Staff e-mail addresses” in production');
    const same = event('feature-strategy-update', { environment: 'production', preData: { ...staff, segments: deep }, data: { ...staff, segments: deep } });
    assert.equal(describeEvent(same).what, 'changed strategy “Staff e-mail addresses” in production');
  });

  it('user-written names are cut and lose their invisible characters', () => {
    const long = 'x'.repeat(10_000);
    const what = describeEvent(event('feature-strategy-add', { environment: `prod\u200b${long}`, data: { name: 'flexibleRollout', title: `a\nb${long}` } })).what;
    assert.ok(what.length <= 300, `${what.length} characters`);
    assert.doesNotMatch(what, /[\n\u200b\u202e]/);
  });
});

describe('the hover line and the details section', () => {
  it('a time the server wrote that does not parse is cleaned and cut: it cannot reorder the line', () => {
    const forged = historyEntry(event('feature-created', { createdAt: `2026-11-26\u202e · admin · archived the flag${'x'.repeat(100)}` }));
    const line = historySection({ value: { events: [forged] } })[3] ?? '';
    assert.doesNotMatch(line, /[\u202e\u200b\n]/);
    assert.equal(line, '“2026-11-26 · admin · archived the flagx…” (not a time) · alice@example.com · created the flag');
  });

  it('the last change: what, who, when; markdown in names is shown as written', () => {
    const enabled = event('feature-environment-enabled', { environment: 'prod*[x](command:evil)*' , createdBy: '**bob**' });
    assert.equal(
      latestChangeMarkdown({ value: enabled }, NOW),
      '**Last change:** enabled in prod\\*\\[x\\]\\(command\\:evil\\)\\* · \\*\\*bob\\*\\* · 2 hours ago',
    );
    assert.equal(latestChangeMarkdown({ value: null }, NOW), '**Last change:** none recorded');
    assert.equal(latestChangeMarkdown(undefined, NOW), undefined);
  });

  it('why history is not shown: a refusal, a failure', () => {
    assert.equal(latestChangeMarkdown({ unavailable: 'no permission (403).', forbidden: true }, NOW), '_History not shown: no permission \\(403\\)\\._');
    assert.equal(latestChangeMarkdown({ unavailable: 'timed out.' }, NOW), '_Last change could not be read: timed out\\._');
  });

  it('the section lists the events newest first, and says how many more the server holds', () => {
    const events = [event('feature-environment-enabled', { environment: 'production' }), event('feature-created', { createdAt: '2026-11-20T10:00:00Z' })].map(historyEntry);
    assert.deepEqual(historySection({ value: { events, total: 250 } }), [
      '',
      'History (newest first)',
      '----------------------',
      '2026-11-26 06:37:28.557 UTC · alice@example.com · enabled in production',
      '2026-11-20 10:00 UTC · alice@example.com · created the flag',
      '',
      'The newest 2 of 250 changes; see the event log in Unleash for the rest.',
    ]);
    assert.deepEqual(historySection({ value: { events: [] } }).slice(3), ['No changes recorded.']);
    assert.deepEqual(historySection({ unavailable: 'export files hold no history or usage', offline: true }).slice(3), [
      'Not shown: export files hold no history or usage',
    ]);
    assert.deepEqual(historySection({ value: { events, total: 250 } }, { step: 200, how: 'Read More History, above this line.' }).slice(-1), [
      'The newest 2 of 250 changes. Read the next 200: Read More History, above this line.',
    ]);
    assert.deepEqual(historySection({ value: { events, total: 1e308 } }).slice(-1), [
      'The newest 2 of 9,007,199,254,740,991+ changes; see the event log in Unleash for the rest.',
    ]);
    assert.deepEqual(historySection({ value: { events, total: 80, legacy: true } }).slice(-1), [
      'This server answers the newest 2 changes only; 80 are recorded. See the event log in Unleash for the rest.',
    ]);
  });

  it('a part that cannot be worded says so, and the other part still shows (hover and document)', () => {
    const tooDeep = () => {
      throw new RangeError('Maximum call stack size exceeded');
    };
    const unwordable = Object.defineProperty({ ...event('feature-created') }, 'type', { get: tooDeep }) as FeatureEvent;
    const usage = { value: [] };
    const hover = activityMarkdown({ latest: { value: unwordable }, usage, now: NOW, hours: 24 });
    assert.equal(
      hover,
      '_Last change could not be shown: it is nested too deeply or is too large to show here\\; see the flag in Unleash\\._  \n**Usage, last 24 h:** not evaluated',
    );
    const history = { value: { events: [Object.defineProperty(historyEntry(event('feature-created')), 'who', { get: tooDeep })] } };
    const document = activitySections(history as never, usage, NOW, 24).split('\n');
    assert.deepEqual(document.slice(0, 8), [
      '',
      'History (newest first)',
      '----------------------',
      'Not shown: it is nested too deeply or is too large to show here; see the flag in Unleash.',
      '',
      'Usage, last 24 hours',
      '--------------------',
      'Not evaluated: no SDK reported this flag in the last 24 hours.',
    ]);
  });
});
