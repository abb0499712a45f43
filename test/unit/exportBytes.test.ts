import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { generateDataset, mulberry32 } from '../../bench/data';
import { exportResultSchema } from '../../src/api/exportSchemas';
import { serializeExport, serializeExportBytes } from '../../src/model/export/exportBytes';
import { canonicalExport } from '../../src/model/export/exportLayout';
import { shuffle } from '../support/shuffle';

type Obj = Record<string, unknown>;

const fixtureText = readFileSync(path.join(__dirname, '..', 'fixtures', 'export-development.json'), 'utf8');
const fixture = (): Obj => JSON.parse(fixtureText) as Obj;

/** The reference: the laid-out copy stringified, as the file was written before the one-walk writer. */
function reference(value: object): Buffer {
  return Buffer.from(`${JSON.stringify(canonicalExport(value as Obj), null, 2)}\n`, 'utf8');
}

function assertSameBytes(value: object, label: string): void {
  const expected = reference(value);
  const actual = serializeExportBytes(value as Obj);
  if (!actual.equals(expected)) {
    let at = 0;
    while (at < expected.length && actual[at] === expected[at]) at++;
    assert.fail(`${label}: bytes differ at ${at}: expected …${expected.subarray(Math.max(0, at - 80), at + 80).toString()}… got …${actual.subarray(Math.max(0, at - 80), at + 80).toString()}…`);
  }
}

/** Every object's keys and every list in a random order (the writer must sort what the layout sorts, keep the rest). */
function shuffleAll(value: unknown, random: () => number): unknown {
  if (Array.isArray(value)) return shuffle(value.map((item) => shuffleAll(item, random)), random);
  if (value === null || typeof value !== 'object') return value;
  const out: Obj = {};
  for (const key of shuffle(Object.keys(value), random)) {
    Object.defineProperty(out, key, { value: shuffleAll((value as Obj)[key], random), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Values a server or an edited file could hold that the layout must write exactly as JSON.stringify does. */
function hostile(): Obj {
  const proto = JSON.parse('{"__proto__": {"polluted": true}, "b": 1, "a": {"__proto__": [1, {"z": 1, "a": 2}]}}') as Obj;
  return {
    zeta: { '10': 'ten', '2': 'two', b: [], a: {}, '01': 'not an index', '4294967295': 'too big', '4294967294': 'max' },
    features: [
      { name: 'ünïcödé ✓ \u2028 \u0000 "q" \\ 😀', project: 'p', description: null, extra: { nested: { deeper: [{ y: 1, x: [] }] } } },
      { name: 'same', project: 'b', '__proto__': proto, '7': 'index key', n: 1e21, m: -0, k: 5e-324, big: 1.7976931348623157e308 },
      { name: 'same', project: 'a', lifecycle: { status: 's', stage: 'live', other: 1 }, links: [{ url: 'b' }, { id: 2 }, { id: 1, url: 'z' }, 'odd', null] },
      { name: { an: 'object name', b: 1 }, project: 'p' },
      { name: ['array name'], project: 'p' },
      { project: 'no name' },
      'not an object',
      7,
      null,
      [],
    ],
    featureStrategies: [
      { name: 'default', featureName: 'f', segments: [10, 9, 100, 2, 'x', { b: 1, a: 2 }, null], parameters: { rollout: '50', groupId: 'f' }, constraints: [] },
      { name: 'default', featureName: 'f', segments: 'not a list', constraints: {} },
      { name: 'flexibleRollout', featureName: 'f', id: 'b' },
      { name: 'flexibleRollout', featureName: 'f', id: 'a', variants: [{ weight: 1, name: 'v', payload: { value: 'x', type: 'string', z: 0 }, overrides: [{ values: ['b', 'a'], contextName: 'c' }] }] },
      { featureName: 'f', id: 'a', name: 'flexibleRollout', title: 'tie broken by JSON', z: 2 },
      { featureName: 'f', id: 'a', name: 'flexibleRollout', title: 'tie broken by JSON', z: 1 },
    ],
    featureEnvironments: [{ name: 'f', environment: 'e', enabled: true, strategies: [{ id: 'x', name: 'default' }], variants: [] }, { featureName: 'f', environment: 'd' }],
    contextFields: [{ name: 'c', legalValues: [{ description: 'd', value: 'v' }] }, {}],
    featureTags: [{ featureName: 'f', type: 'simple', value: 'b' }, { featureName: 'f', tagType: 'simple', tagValue: 'a' }],
    segments: [{ id: 2, name: 's' }, { id: 1, constraints: [{ values: [], operator: 'IN', contextName: 'c' }] }],
    tagTypes: [],
    dependencies: [{ feature: 'c', dependencies: [{ feature: 'b', enabled: false }, { feature: 'a', variants: ['x'] }] }],
    links: [{ feature: 'f', links: [{ id: 'b' }, { id: 'a', url: 'u' }] }],
    segmentDefinitions: [{ id: 3, name: 'n', usedInFeatures: 4, createdAt: 'x', constraints: [{ operator: 'IN', contextName: 'c' }] }, { id: 1, description: undefined, project: null }],
    undefinedTop: undefined,
    '1': 'an index key at the top',
    alpha: { undefinedMember: undefined, list: [undefined, 1, Number.NaN, Number.POSITIVE_INFINITY, -0, true, false, null, new Date(0), { toJSON: () => 'custom' }] },
  };
}

describe('serializeExportBytes (the file written a top-level element at a time)', () => {
  it('writes the same bytes as the laid-out copy stringified, for the 7.5.1 fixture', () => {
    assertSameBytes(fixture(), 'fixture');
    assert.equal(serializeExportBytes(fixture()).toString('utf8'), serializeExport(fixture()));
  });

  it('writes the same bytes for the fixture as the schema reads it (zod output)', () => {
    assertSameBytes(exportResultSchema.parse(fixture()), 'parsed fixture');
  });

  it('writes the same bytes, and the same file, whatever the order of keys and lists', () => {
    const once = serializeExportBytes(fixture());
    for (let seed = 1; seed <= 20; seed++) {
      const shuffled = shuffleAll(fixture(), mulberry32(seed)) as Obj;
      assertSameBytes(shuffled, `seed ${seed}`);
    }
    // Top-level lists in any order give the same file as before (inner ordered lists were left as they are).
    const random = mulberry32(99);
    const reordered = fixture();
    for (const key of Object.keys(reordered)) if (Array.isArray(reordered[key])) reordered[key] = shuffle(reordered[key] as unknown[], random);
    assert.ok(serializeExportBytes(reordered).equals(once));
  });

  it('writes the same bytes for hostile values (unicode, __proto__ keys, index keys, unknown fields, odd numbers)', () => {
    assertSameBytes(hostile(), 'hostile');
    for (let seed = 1; seed <= 10; seed++) assertSameBytes(shuffleAll(hostile(), mulberry32(seed)) as object, `hostile seed ${seed}`);
    assertSameBytes({}, 'empty');
    assertSameBytes({ features: [], featureStrategies: [], tagTypes: [] }, 'empty lists');
    assertSameBytes(Object.create(null) as object, 'null prototype');
  });

  it('orders the keys of each object by its own keys, when objects of one kind have different keys', () => {
    const source = {
      features: [
        { name: 'a', zz: 1, project: 'p' },
        { name: 'b', aa: 1, project: 'p' },
        { project: 'p', name: 'c', aa: 1 },
        { name: 'd', aa: 1, type: 't', project: 'p' },
      ],
    };
    const written = JSON.parse(serializeExportBytes(source).toString('utf8')) as { features: Obj[] };
    assert.deepEqual(written.features.map((feature) => Object.keys(feature).join(',')), [
      'name,project,zz',
      'name,project,aa',
      'name,project,aa',
      'name,project,type,aa',
    ]);
    assert.equal(serializeExport(source), serializeExportBytes(source).toString('utf8'));
  });

  it('does not change its input', () => {
    const source = hostile();
    const before = JSON.stringify(source);
    serializeExportBytes(source);
    assert.equal(JSON.stringify(source), before);
  });

  it('writes the same bytes for a generated 10,000-flag export, as sent and shuffled', () => {
    const body = generateDataset(10_000).exportFor('production') as unknown as Obj;
    assertSameBytes(body, '10,000 flags');
    const parsed = exportResultSchema.parse(body);
    assertSameBytes(parsed, '10,000 flags, parsed');
    const random = mulberry32(5);
    const reordered: Obj = { ...body };
    for (const key of Object.keys(reordered)) if (Array.isArray(reordered[key])) reordered[key] = shuffle(reordered[key] as unknown[], random);
    assertSameBytes(reordered, '10,000 flags, top-level lists shuffled');
  });
});
