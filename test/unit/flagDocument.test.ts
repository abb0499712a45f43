/**
 * The flag details document: every value in full (a 5,000-character description, a long JSON payload indented, every
 * constraint value, segments with their constraints), the lifecycle as the row says it, hostile characters visible
 * as escapes.
 *   node --import tsx --test test/unit/flagDocument.test.ts
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Feature, FeatureSummary, Segment } from '../../src/api/schemas';
import { flagDocument } from '../../src/model/content/flagDocument';
import { isJson } from '../../src/model/text/jsonSyntax';
import { jsonPreview } from '../../src/model/text/jsonPreview';
import { MAX_JSON_DEPTH, prettyJson } from '../../src/model/text/jsonText';
import { visibleText } from '../../src/model/text/plainText';
import { CONTROL } from '../support/hostileFlags';

const NOW = new Date('2026-11-23T10:00:00.000Z');
const DESCRIPTION = `${'Long description. '.repeat(300).slice(0, 4997)}END`;
// A number past double precision, written as the server sends it (a number literal would be rounded).
const PAYLOAD = `${JSON.stringify({ theme: { colors: Array.from({ length: 40 }, (_, i) => `#${String(i).padStart(6, '0')}`) } }).slice(0, -1)},"big":12345678901234567890}`;

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
  let text = '';
  let lines: string[] = [];
  before(async () => {
    text = await flagDocument({ summary, details, segments: new Map([['s1', [segment]]]), sourceLabel: 'unleash.example.com', now: NOW });
    lines = text.split('\n');
  });

  it('heads with the facts, the lifecycle as the details say it', () => {
    assert.deepEqual(lines.slice(0, 10), [
      'checkout\\u{202E}flow (not a valid Unleash name)',
      '===============================================',
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

  it('holds a constraint of 150,000 values and 150,000 tags (lines are appended one by one, never as call arguments)', async () => {
    const values = Array.from({ length: 150_000 }, (_, i) => `v${i}`);
    const tags = Array.from({ length: 150_000 }, (_, i) => ({ type: 'team', value: `t${i}` }));
    const strategy = { id: 'big', name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values }] };
    const big: Feature = { ...details, environments: [{ name: 'production', enabled: true, strategies: [strategy] }], tags };
    const bigLines = (await flagDocument({ summary, details: big, segments: new Map(), sourceLabel: 'unleash.example.com', now: NOW })).split('\n');
    assert.ok(bigLines.includes('          v149999'), 'the last constraint value');
    assert.equal(bigLines.filter((line) => line.startsWith('team:t')).length, 150_000);
  });

  it('stops at its budget, at the end of a line, and says where and why', async () => {
    const values = Array.from({ length: 150_000 }, (_, i) => `v${i}`);
    const strategy = { id: 'big', name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values }] };
    const big: Feature = { ...details, environments: [{ name: 'production', enabled: true, strategies: [strategy] }] };
    const input = { summary, details: big, segments: new Map(), sourceLabel: 'unleash.example.com', now: NOW };
    const bySize = await flagDocument(input, { budget: { chars: 10_000, ms: 60_000 } });
    assert.ok(bySize.length < 10_300, String(bySize.length));
    assert.match(bySize, /\n {10}v\d+\n\n… The document stops here: it reached 10,000 characters, the most the editor is given to show\. Open the flag in Unleash to read the rest\.\n$/);
    const byTime = await flagDocument(input, { budget: { chars: 8_000_000, ms: 0 } });
    assert.match(byTime, /\n\n… The document stops here: writing it took longer than 0 s\. Open the flag in Unleash to read the rest\.\n$/);
  });

  it('writes hostile characters as visible escapes, keeping line breaks in multi-line values', async () => {
    assert.equal(visibleText('a\u0007b\u0085c\u2066d\ud800'), 'a\\u{0007}b\\u{0085}c\\u{2066}d\\u{D800}');
    const hostile = await flagDocument({
      details: { ...details, description: 'line one\r\nline\u202etwo\u001b[31m', environments: [] },
      segments: new Map(),
      sourceLabel: 'x',
      now: NOW,
    });
    assert.ok(hostile.includes('\nline one\nline\\u{202E}two\\u{001B}[31m\n'));
    assert.ok(!CONTROL.test(hostile.replace(/[\t\n]/g, '')));
  });
});

describe('JSON shown to people (payloads)', () => {
  const valid = (text: string | undefined) => {
    assert.equal(typeof text, 'string');
    return JSON.parse(text as string) as unknown;
  };

  it('indents small JSON with two spaces, empty containers kept, numbers and strings exactly as written', () => {
    assert.equal(prettyJson('{"a":[1,{"b":{}}],"c":[ ],"big":12345678901234567890,"s":"x\\"y"}'), [
      '{',
      '  "a": [',
      '    1,',
      '    {',
      '      "b": {}',
      '    }',
      '  ],',
      '  "c": [],',
      '  "big": 12345678901234567890,',
      '  "s": "x\\"y"',
      '}',
    ].join('\n'));
    assert.equal(prettyJson('{"a":1,}'), undefined);
    assert.equal(prettyJson('not json'), undefined);
  });

  it('writes invisible characters inside strings as JSON escapes, so the payload stays the same valid JSON', () => {
    const raw = '{"k\u200b":"a\u202eb\u00adc\u{E0041}d\u2028e\u0085f\ud800"}';
    const shown = prettyJson(raw) as string;
    assert.equal(shown, '{\n  "k\\u200b": "a\\u202eb\\u00adc\\udb40\\udc41d\\u2028e\\u0085f\\ud800"\n}');
    assert.deepEqual(valid(shown), JSON.parse(raw));
  });

  it(`indents ${MAX_JSON_DEPTH} levels; a container nested deeper is written as it is, on one line`, () => {
    const nested = `{"a":${'['.repeat(25)}1, 2${']'.repeat(25)},"b":2}`;
    const lines = (prettyJson(nested) as string).split('\n');
    assert.deepEqual(lines.slice(0, 2), ['{', '  "a": [']);
    assert.equal(lines[MAX_JSON_DEPTH], `${'  '.repeat(MAX_JSON_DEPTH)}${'['.repeat(6)}1, 2${']'.repeat(6)}`);
    assert.deepEqual(lines.slice(-3), ['  ],', '  "b": 2', '}']);
    assert.deepEqual(valid(lines.join('\n')), JSON.parse(nested));
  });

  it('isJson(): the same verdict as JSON.parse, brackets and separators in every position', () => {
    const cases = [
      '1', '-0.5e+3', '"a\\u00e9\\n"', 'true', 'null', ' [ ] ', '{}', '[1,[2,{}],{"a":[]}]', '{"a":{"b":[1,2]},"c":"d"}',
      '', ' ', '[', ']', '{', '}', '[}', '{]', '[1,]', '[,1]', '{"a":1,}', '{,}', '{"a"}', '{"a":}', '{1:2}', '[1 2]',
      '{"a":1 "b":2}', '[]]', '{}}', '[][]', '1 2', '01', '1.', '.5', 'tru', 'nul', '"a', '"\\x"', '"\u0001"',
      '["a":1]', '{"a":1]', '[1}', '{"a":[}]', '[{]}', ':', ',', '[:]',
    ];
    for (const text of cases) {
      let parsed = true;
      try {
        JSON.parse(text);
      } catch {
        parsed = false;
      }
      assert.equal(isJson(text), parsed, JSON.stringify(text));
    }
  });

  it('a 1 MB payload nested 500,000 deep: valid JSON, 20 levels indented, the rest as written', () => {
    const deep = `${'['.repeat(500_000)}${']'.repeat(500_000)}`;
    assert.equal(isJson(deep), true);
    assert.equal(isJson(`${deep}]`), false);
    assert.equal(isJson(`${'['.repeat(500_000)}${']'.repeat(499_999)}`), false);
    const shown = prettyJson(deep) as string;
    const lines = shown.split('\n');
    assert.equal(lines.length, 2 * MAX_JSON_DEPTH + 1);
    assert.equal(lines[MAX_JSON_DEPTH], `${'  '.repeat(MAX_JSON_DEPTH)}${'['.repeat(500_000 - MAX_JSON_DEPTH)}${']'.repeat(500_000 - MAX_JSON_DEPTH)}`);
    assert.equal(shown.replace(/\s/g, ''), deep);
  });

  it('stops indenting once it has added 500,000 characters: the rest as written, still valid JSON', () => {
    const items = Array.from({ length: 300_000 }, (_, i) => i % 10);
    const flat = `[\r\n${items.join(',\r')}]`;
    const shown = prettyJson(flat) as string;
    assert.ok(shown.length < flat.length + 520_000, String(shown.length));
    assert.ok(shown.startsWith('[\n  0,\n  1,\n'));
    assert.ok(shown.endsWith(',\n7,\n8,\n9]'), 'the rest as written, a lone CR as a line break');
    assert.deepEqual(valid(shown), items);
  });

  it('the details document shows a deep payload valid and bounded', async () => {
    const payload = { type: 'json', value: `{"deep":${'['.repeat(100_000)}"\u202e"${']'.repeat(100_000)}}` };
    const document = await flagDocument({
      details: { name: 'deep', environments: [{ name: 'production', enabled: true, variants: [{ name: 'v', weight: 1000, payload }] }] },
      segments: new Map(),
      sourceLabel: 'x',
      now: NOW,
    });
    const lines = document.split('\n');
    const start = lines.indexOf('      Payload (json):') + 1;
    const end = lines.findIndex((line, i) => i > start && !line.startsWith(' '.repeat(8)));
    const json = lines.slice(start, end).join('\n');
    assert.equal(end - start, 2 * MAX_JSON_DEPTH + 1);
    valid(json);
    // The same JSON (compared as text: deepEqual recurses), the U+202E as a JSON escape.
    assert.equal(json.replace(/\s/g, ''), payload.value.replace('\u202e', '\\u202e'));
    assert.ok(document.length < payload.value.length + 10_000, String(document.length));
  });

  it('a setting value quoted in a message: bounded JSON, however deep or long', () => {
    assert.equal(jsonPreview('loud', 40), '"loud"');
    assert.equal(jsonPreview({ a: [1, 'x\u202e', null, true, {}] }, 80), '{"a":[1,"x\\u202e",null,true,{}]}');
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    assert.equal(jsonPreview(deep, 10), '[[[[[[[[[…');
    assert.equal(jsonPreview(Array(1_000_000).fill(7), 12), '[7,7,7,7,7,…');
    assert.equal(jsonPreview('x'.repeat(1_000_000), 8), '"xxxxxx…');
  });
});
