/**
 * The flag details document: every value in full (a 5,000-character description, a long JSON payload indented, every
 * constraint value, segments with their constraints), the lifecycle as the row says it, hostile characters visible
 * as escapes.
 *   node --import tsx --test test/unit/flagDocument.test.ts
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Feature, FeatureSummary, Segment } from '../../src/api/schemas';
import { flagDocument } from '../../src/model/flagDocument';
import { prettyJson, visibleText } from '../../src/model/wording';

const NOW = new Date('2026-11-23T10:00:00.000Z');
const DESCRIPTION = `${'Long description. '.repeat(300).slice(0, 4997)}END`;
const PAYLOAD = JSON.stringify({ theme: { colors: Array.from({ length: 40 }, (_, i) => `#${String(i).padStart(6, '0')}`) }, big: 12345678901234567890 }).replace('"big":12345678901234567000', '"big":12345678901234567890');

const details: Feature = {
  name: 'checkout\u202eflow',
  project: 'default',
  type: 'release',
  description: DESCRIPTION,
  stale: false,
  archived: false,
  createdAt: '2026-11-01T09:30:00.000Z',
  lifecycle: { stage: 'completed', status: 'kept', enteredStageAt: '2026-11-20T08:00:00.000Z' },
  environments: [
    {
      name: 'production',
      enabled: true,
      lastSeenAt: null,
      strategies: [
        {
          id: 's1',
          name: 'flexibleRollout',
          title: 'EU first',
          parameters: { rollout: '25', stickiness: 'userId', groupId: 'checkout' },
          constraints: [
            { contextName: 'country', operator: 'IN', values: ['DE', 'FR', 'x'.repeat(300)] },
            { contextName: 'email', operator: 'STR_ENDS_WITH', values: ['@example.com'], caseInsensitive: true },
          ],
          segments: [7],
          variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'userId', payload: { type: 'json', value: PAYLOAD } }],
        },
      ],
    },
    { name: 'development', enabled: false, strategies: [] },
  ],
  tags: [{ type: 'team', value: 'payments' }],
  links: [{ url: 'https://example.com/doc', title: 'Docs' }],
  dependencies: [{ feature: 'parent-flag', enabled: true, variants: ['a'] }],
  children: ['child-flag'],
};
const segment: Segment = {
  id: 7,
  name: 'EU users',
  description: 'Users in the EU',
  constraints: [{ contextName: 'region', operator: 'IN', values: ['eu-west', 'eu-central'] }],
  createdAt: '2026-01-01T00:00:00.000Z',
};
const summary: FeatureSummary = { name: details.name, project: 'default', lifecycle: { stage: 'initial', enteredStageAt: '2026-11-20T08:00:00.000Z' } };

describe('flag details document', () => {
  const text = flagDocument({ summary, details, segments: new Map([['s1', [segment]]]), sourceLabel: 'unleash.example.com', now: NOW });
  const lines = text.split('\n');

  it('heads with the facts, the lifecycle as the details say it', () => {
    assert.deepEqual(lines.slice(0, 10), [
      'checkout\\u{202E}flow',
      '====================',
      'Project: default',
      'Type: release',
      'Lifecycle: completed (kept) since 2026-11-20',
      'Stale: no',
      'Archived: no',
      'Created: 2026-11-01 09:30 UTC',
      'Source: unleash.example.com',
      '',
    ]);
  });

  it('holds the 5,000-character description and the JSON payload in full', () => {
    assert.equal(DESCRIPTION.length, 5000);
    assert.equal(lines[10], 'Description');
    assert.equal(lines[12], DESCRIPTION);
    const payload = prettyJson(PAYLOAD) as string;
    assert.ok(payload.includes('"big": 12345678901234567890'));
    assert.ok(text.includes(`      Payload (json):\n          ${payload.split('\n').join('\n          ')}\n`));
  });

  it('lists strategies, every constraint value, segments, variants, tags, dependencies and links', () => {
    const start = lines.indexOf('Environments');
    assert.deepEqual(lines.slice(start, start + 22), [
      'Environments',
      '------------',
      '',
      'production: enabled · last seen never',
      '  Strategy 1: Gradual rollout: 25% of userId',
      '    Title: EU first',
      '    Parameters',
      '      groupId: checkout',
      '      rollout: 25',
      '      stickiness: userId',
      '    Constraints',
      '      - country is one of (3 values)',
      '          DE',
      '          FR',
      `          ${'x'.repeat(300)}`,
      '      - email ends with (1 value) (case-insensitive)',
      '          @example.com',
      '    Segments',
      '      EU users (#7, global)',
      '        Users in the EU',
      '        - region is one of (2 values)',
      '            eu-west',
    ]);
    const tail = lines.slice(lines.indexOf('development: disabled · last seen never'));
    assert.deepEqual(tail, [
      'development: disabled · last seen never',
      '  No strategies',
      '',
      'Tags',
      '----',
      'team:payments',
      '',
      'Dependencies',
      '------------',
      'requires parent-flag enabled (variants: a)',
      'child-flag depends on this flag',
      '',
      'Links',
      '-----',
      'Docs: https://example.com/doc',
      '',
    ]);
  });

  it('holds a constraint of 150,000 values and 150,000 tags (lines are appended one by one, never as call arguments)', () => {
    const values = Array.from({ length: 150_000 }, (_, i) => `v${i}`);
    const tags = Array.from({ length: 150_000 }, (_, i) => ({ type: 'team', value: `t${i}` }));
    const strategy = { id: 'big', name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values }] };
    const big: Feature = { ...details, environments: [{ name: 'production', enabled: true, strategies: [strategy] }], tags };
    const bigLines = flagDocument({ summary, details: big, segments: new Map(), sourceLabel: 'unleash.example.com', now: NOW }).split('\n');
    assert.ok(bigLines.includes('          v149999'), 'the last constraint value');
    assert.equal(bigLines.filter((line) => line.startsWith('team:t')).length, 150_000);
  });

  it('writes hostile characters as visible escapes, keeping line breaks in multi-line values', () => {
    assert.equal(visibleText('a\u0007b\u0085c\u2066d\ud800'), 'a\\u{0007}b\\u{0085}c\\u{2066}d\\u{D800}');
    const hostile = flagDocument({
      details: { ...details, description: 'line one\r\nline\u202etwo\u001b[31m', environments: [] },
      segments: new Map(),
      sourceLabel: 'x',
      now: NOW,
    });
    assert.ok(hostile.includes('\nline one\nline\\u{202E}two\\u{001B}[31m\n'));
    assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(hostile));
  });
});
