/**
 * A large answer parsed on the host at the bounds its scan found (src/base/jsonScan.ts, src/base/batchedJson.ts): the
 * same value JSON.parse gives, for any text and any chunks it arrives in, and never a value where JSON.parse refuses
 * the text; the shape's budget figures as the intake counts them.
 *   node --import tsx --test test/unit/batchedJson.test.ts
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseInBatches } from '../../src/base/batchedJson';
import { JsonScan, type JsonShape } from '../../src/base/jsonScan';
import { TimeSlices } from '../../src/base/timeSlices';
import { mulberry32 } from '../../bench/data';

function shapeOf(bytes: Uint8Array, chunk = bytes.length): JsonShape | undefined {
  const scan = new JsonScan();
  for (let at = 0; at < bytes.length; at += chunk) scan.feed(bytes.subarray(at, at + chunk));
  return scan.finish();
}

/** The value the batched parse gives (undefined: the scan found no shape), or the error it threw. */
async function batched(text: string, batchBytes: number, chunk?: number): Promise<{ value?: unknown; error?: unknown }> {
  const bytes = Buffer.from(text);
  const shape = shapeOf(bytes, chunk);
  if (!shape) return {};
  try {
    return { value: await parseInBatches(bytes, shape.bounds, new TimeSlices(), { batchBytes }) };
  } catch (error) {
    return { error };
  }
}

/** Asserts the batched parse agrees with JSON.parse: the same value, or no value where JSON.parse throws. */
async function agrees(text: string, batchBytes: number, chunk?: number): Promise<void> {
  let expected: unknown;
  let valid = true;
  try {
    // As the bytes read (a lone surrogate is written as U+FFFD), a byte-order mark skipped, as every answer's parser does.
    expected = JSON.parse(new TextDecoder().decode(Buffer.from(text)));
  } catch {
    valid = false;
  }
  const got = await batched(text, batchBytes, chunk);
  if (!valid) {
    assert.equal(got.value, undefined, `batched parse accepted invalid JSON: ${JSON.stringify(text)}`);
    if (got.error !== undefined) assert.ok(got.error instanceof SyntaxError, String(got.error));
    return;
  }
  const isObject = typeof expected === 'object' && expected !== null && !Array.isArray(expected);
  if (!isObject) return assert.equal(got.value, undefined, `not an object: ${text}`);
  assert.equal(got.error, undefined, `${String(got.error)} for ${JSON.stringify(text)}`);
  assert.deepEqual(got.value, expected, JSON.stringify(text));
  assert.deepEqual(Object.keys(got.value as object), Object.keys(expected as object), `key order of ${JSON.stringify(text)}`);
}

const STRINGS = ['', 'a', 'features', '__proto__', 'x"y', 'back\\slash', 'é😀', '[not, {a} list]', ' , ', '\u2028'];

function value(next: () => number, depth: number): unknown {
  const roll = next();
  if (depth > 4 || roll < 0.35) {
    const leaf = Math.floor(next() * 6);
    return [0, -1.5e3, true, null, STRINGS[Math.floor(next() * STRINGS.length)], 42][leaf];
  }
  const size = Math.floor(next() * 6);
  if (roll < 0.65) return Array.from({ length: size }, () => value(next, depth + 1));
  const object: Record<string, unknown> = {};
  for (let i = 0; i < size; i++) {
    const key = next() < 0.3 ? (STRINGS[Math.floor(next() * STRINGS.length)] as string) : `k${Math.floor(next() * 8)}`;
    Object.defineProperty(object, key, { value: value(next, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return object;
}

/** The value as text, with spaces here and there (JSON.stringify's indent, or none). */
function text(next: () => number, root: unknown): string {
  return JSON.stringify(root, null, next() < 0.5 ? undefined : Math.floor(next() * 3));
}

/** The text with one thing broken: a byte dropped, doubled, or replaced by a bracket, comma, quote or letter. */
function mutated(next: () => number, source: string): string {
  const at = Math.floor(next() * source.length);
  const kind = Math.floor(next() * 4);
  const stray = [',', ']', '}', '[', '{', '"', ':', 'x', ' '][Math.floor(next() * 9)] as string;
  if (kind === 0) return source.slice(0, at) + source.slice(at + 1);
  if (kind === 1) return source.slice(0, at) + source[at] + source.slice(at);
  if (kind === 2) return source.slice(0, at) + stray + source.slice(at + 1);
  return source.slice(0, at) + stray + source.slice(at);
}

describe('batched parse at the bounds of a scan', () => {
  it('gives what JSON.parse gives for these texts, in any batches and chunks', async () => {
    const texts = [
      '{}',
      ' \n{ } \n',
      '\ufeff{"a":1}',
      '{"features":[]}',
      '{"features":[{"name":"a","tags":[]},{"name":"b"}],"total":2}',
      '{"a":{"b":{"c":[1,2,{"d":"}]"}]}},"e":[[],[[]]],"f":"x\\"y"}',
      '{"__proto__":{"polluted":true},"list":[{"__proto__":1}]}',
      '{"dup":1,"other":[1,2,3],"dup":[4,5]}',
      '{"emoji":"é😀","escaped":"\\u0041\\n","big":[' + Array.from({ length: 300 }, (_, i) => `{"i":${i},"s":"${'x'.repeat(i % 17)}"}`).join(',') + ']}',
    ];
    for (const source of texts) for (const batch of [1, 8, 64, 1 << 20]) for (const chunk of [1, 3, 16, undefined]) await agrees(source, batch, chunk);
  });

  it('never gives a value for a text JSON.parse refuses', async () => {
    const texts = [
      '{"a":[1,2,]}',
      '{"a":[1,,2]}',
      '{"a":[1,2],}',
      '{,"a":1}',
      '{"a":[1,2] "b":3}',
      '{"a" [1,2]}',
      '{"a":"x"[1,2]}',
      '{"a":[1,2]]',
      '{"a":[1,2}}',
      '{"a":1} {}',
      '{"a":1}x',
      'x{"a":1}',
      '{"a":[1,2]',
      '{"a":"unclosed}',
      '[{"a":1}]',
      '{"a":[{"b":1}{"c":2}]}',
    ];
    for (const source of texts) for (const batch of [1, 4, 1 << 20]) await agrees(source, batch);
  });

  it('agrees with JSON.parse on random values, and on each broken by one byte', async () => {
    for (let seed = 1; seed <= 400; seed++) {
      const next = mulberry32(seed);
      const root: Record<string, unknown> = { features: Array.from({ length: Math.floor(next() * 8) }, () => value(next, 2)) };
      for (let i = 0; i < 3; i++) root[`m${i}`] = value(next, 1);
      const source = text(next, root);
      const batch = [1, 16, 128, 1 << 20][seed % 4] as number;
      await agrees(source, batch, 1 + (seed % 7));
      for (let m = 0; m < 5; m++) await agrees(mutated(next, source), batch, 1 + ((seed + m) % 5));
    }
  });
});

describe('the shape a scan reports', () => {
  it('counts what the intake budgets: nesting, entries below the top level, the longest text', () => {
    const shape = shapeOf(Buffer.from(JSON.stringify({ top: [1, 2, 3, 4, 5, 6, 7], nested: { list: [1, 2, 3], object: { a: 1, b: 2, c: 3, d: 4 } }, text: 'x'.repeat(50) })));
    assert.ok(shape);
    assert.equal(shape.depth, 3);
    // The top level's own list (`top`, 7 entries) is the caller's: the budget counts the lists below it.
    assert.equal(shape.largestList, 3);
    assert.equal(shape.largestObject, 4);
    assert.equal(shape.longestText, 50);
  });

  it('has no shape for a text nested past its limit, nor for a top-level list', () => {
    assert.equal(shapeOf(Buffer.from(`{"a":${'['.repeat(70)}${']'.repeat(70)}}`)), undefined);
    assert.ok(shapeOf(Buffer.from(`{"a":${'['.repeat(60)}${']'.repeat(60)}}`)));
    assert.equal(shapeOf(Buffer.from('[1,2]')), undefined);
  });
});
