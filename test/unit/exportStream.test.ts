/**
 * An export laid out from its answer file (src/model/export/exportStream.ts): the answer pushed in chunks of any size, each
 * value checked as it arrives, then the file written element by element from the answer file, gives exactly the
 * bytes `serializeExportBytes` gives for the same answer parsed whole; an answer that is not an export is refused
 * naming the first bad field, as the client does.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateDataset, mulberry32 } from '../../bench/data';
import { SchemaError } from '../../src/api/errors';
import { serializeExportBytes } from '../../src/model/export/exportBytes';
import { TimeSlices } from '../../src/base/timeSlices';
import { ExportIndex, TooManyRowsError } from '../../src/model/export/exportIndex';
import { writeLaidOut } from '../../src/model/export/exportStream';
import { sortInSlices } from '../../src/base/sortInSlices';
import { shuffle } from '../support/shuffle';

type Obj = Record<string, unknown>;

const fixtureText = readFileSync(path.join(__dirname, '..', 'fixtures', 'export-development.json'), 'utf8');
let dir: string;

before(async () => {
  dir = await fsp.mkdtemp(path.join(tmpdir(), 'export-stream-'));
});
after(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

/** The answer `text` pushed in chunks of `size` bytes, written to a file and laid out from it. */
async function layOut(text: string, size = 65_536, maxRows = 1_000_000): Promise<{ bytes: Buffer; index: ExportIndex }> {
  const answer = Buffer.from(text, 'utf8');
  const answerPath = path.join(dir, `answer-${size}-${Math.random()}.json`);
  await fsp.writeFile(answerPath, answer);
  const index = new ExportIndex(maxRows);
  for (let i = 0; i < answer.length; i += size) index.push(answer.subarray(i, i + size));
  index.finish();
  const outPath = `${answerPath}.out`;
  const [source, out] = await Promise.all([fsp.open(answerPath, 'r'), fsp.open(outPath, 'w+')]);
  try {
    const written = await writeLaidOut(index, source, out);
    const bytes = await fsp.readFile(outPath);
    assert.equal(written, bytes.length);
    return { bytes, index };
  } finally {
    await Promise.all([source.close(), out.close()]);
  }
}

async function assertSameAsInMemory(text: string, label: string, sizes = [1 << 20, 4096, 7]): Promise<void> {
  const expected = serializeExportBytes(JSON.parse(text) as Obj);
  for (const size of sizes) {
    const { bytes } = await layOut(text, size);
    if (!bytes.equals(expected)) {
      let at = 0;
      while (at < expected.length && bytes[at] === expected[at]) at++;
      assert.fail(`${label} (chunks of ${size}): bytes differ at ${at}: expected …${expected.subarray(Math.max(0, at - 80), at + 80).toString()}… got …${bytes.subarray(Math.max(0, at - 80), at + 80).toString()}…`);
    }
  }
}

/** Every list in a random order, every object's keys too. */
function shuffleAll(value: unknown, random: () => number): unknown {
  if (Array.isArray(value)) return shuffle(value.map((item) => shuffleAll(item, random)), random);
  if (value === null || typeof value !== 'object') return value;
  const out: Obj = {};
  for (const key of shuffle(Object.keys(value), random)) out[key] = shuffleAll((value as Obj)[key], random);
  return out;
}

describe('an export laid out from its answer file', () => {
  it('is serializeExportBytes of the answer: a real export, in order and shuffled, cut anywhere', async () => {
    await assertSameAsInMemory(fixtureText, 'the fixture');
    await assertSameAsInMemory(JSON.stringify(shuffleAll(JSON.parse(fixtureText), mulberry32(3))), 'the fixture shuffled');
    const generated = generateDataset(400, 7).exportFor('development');
    await assertSameAsInMemory(JSON.stringify(shuffleAll(generated, mulberry32(9))), '400 generated flags shuffled', [65_536, 333]);
  });

  it('keeps unknown members (index-like keys first, as JavaScript orders them), the last of a repeated key, and orders equal keys by content', async () => {
    const tie = { featureName: 'f', name: 'flexibleRollout', title: 'same keys', id: 'same-id' };
    const text = [
      '{"zeta": {"b": [], "a": {"2": 1, "10": 2}}, "1": "index key",',
      '"features": [{"name": "b", "project": "p"}, {"name": "a", "project": "p", "future": {"y": 1, "x": 2}}],',
      `"featureStrategies": ${JSON.stringify([{ ...tie, z: 2 }, { ...tie, z: 1 }, { ...tie, z: 3, constraints: [] }, { featureName: 'a', name: 'default' }])},`,
      '"tagTypes": "replaced", "tagTypes": [{"name": "t"}],',
      '"alpha": [3, {"b": 1, "a": [2, 1]}, "x"], "empty": [], "scalar": -0.5e-3,',
      '"contextFields": [{"name": "c", "description": "b"}, {"name": "c", "description": "a"}, {"name": "b"}],',
      '"segments": [{"id": 2, "name": "two"}, {"id": 1, "name": "one"}]}',
    ].join('\n');
    await assertSameAsInMemory(text, 'unknown members and ties');
    const { bytes } = await layOut(text);
    const written = JSON.parse(bytes.toString('utf8')) as Obj;
    assert.deepEqual(Object.keys(written), ['1', 'features', 'featureStrategies', 'contextFields', 'segments', 'tagTypes', 'alpha', 'empty', 'scalar', 'zeta']);
    assert.deepEqual((written.contextFields as Obj[]).map((c) => `${String(c.name)}${String(c.description ?? '')}`), ['b', 'ca', 'cb'], 'equal names: by content');
    assert.equal(written.tagTypes?.constructor, Array, 'the last of a repeated key');
  });

  it('keeps what the layout needs: counts, sort keys, the segments used', async () => {
    const { index } = await layOut(fixtureText);
    const fixture = JSON.parse(fixtureText) as Record<string, Obj[]>;
    assert.equal(index.count('features'), fixture.features!.length);
    assert.equal(index.count('featureStrategies'), fixture.featureStrategies!.length);
    assert.deepEqual(index.sortKeys('features').map((keys) => keys[0]), fixture.features!.map((f) => f.name));
    const used = new Set([...fixture.segments!.map((s) => s.id), ...fixture.featureStrategies!.flatMap((s) => (s.segments as number[] | undefined) ?? [])]);
    assert.deepEqual([...index.segmentIds].sort(), [...used].sort());
  });

  it('refuses an answer that is not an export, naming the first bad field as the client does', async () => {
    const fixture = JSON.parse(fixtureText) as Record<string, Obj[]>;
    const badStrategy = { ...fixture, featureStrategies: fixture.featureStrategies!.map((s, i) => (i === 1 ? { ...s, name: 7 } : s)) };
    const cases: Array<[string, string, RegExp]> = [
      ['a strategy without a name', JSON.stringify(badStrategy), /field `featureStrategies\.1\.name` expected string, received number/],
      ['no features', JSON.stringify({ ...fixture, features: undefined }), /field `features` expected array, received undefined/],
      ['features not a list', JSON.stringify({ ...fixture, features: { a: 1 } }), /field `features` expected array, received object/],
      ['not JSON', '{"features": [', /not valid JSON \(the object is not closed/],
      ['a broken value', '{"features": [{"name": }]}', /the answer is not valid JSON/],
      ['an array', '[]', /not valid JSON \(not a JSON object at byte 0\)/],
    ];
    for (const [label, text, message] of cases) {
      await assert.rejects(layOut(text), (error: unknown) => error instanceof SchemaError && message.test(error.message), label);
    }
  });

  it('refuses more rows than allowed before reading on', async () => {
    await assert.rejects(layOut(fixtureText, 65_536, 3), (error: unknown) => error instanceof TooManyRowsError && error.maxRows === 3);
  });

  it('sorts in slices as the native stable sort does, yielding between them', async () => {
    const random = mulberry32(11);
    let pauses = 0;
    const slices = new TimeSlices(0, async () => void pauses++);
    for (const length of [0, 1, 2, 17, 5_000, 20_000]) {
      for (const shape of ['random', 'sorted', 'reversed', 'runs']) {
        const items = Array.from({ length }, (_, i) => ({
          key: shape === 'sorted' ? i : shape === 'reversed' ? length - i : shape === 'runs' ? (i % 97) : Math.floor(random() * 50),
          at: i,
        }));
        const compare = (a: { key: number }, b: { key: number }) => a.key - b.key;
        const expected = [...items].sort(compare);
        assert.deepEqual(await sortInSlices([...items], compare, slices), expected, `${shape}, ${length}`);
      }
    }
    assert.ok(pauses > 0, 'it yields');
  });
});
