/**
 * parseJsonSliced: JSON.parse of UTF-8 bytes in time slices. Proven against JSON.parse itself: the same value (key
 * order, `__proto__` as a plain key, the last of two equal keys) on the repository's fixtures and on thousands of
 * generated documents, and the same error on thousands of broken ones, with batches small enough that every
 * container is built member by member; and it gives the event loop its turns.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { mulberry32 } from '../../bench/data';
import { JsonTooDeepError } from '../../src/base/jsonBytes';
import { JsonPartError } from '../../src/base/jsonPartError';
import { parseJsonSliced } from '../../src/base/slicedJson';
import { TimeSlices } from '../../src/base/timeSlices';

const fixtures = path.join(__dirname, '..', 'fixtures');
const encode = (text: string) => new TextEncoder().encode(text);
/** Slices that yield as often as they can, without waiting for the event loop (the tests need not give it turns). */
const eager = () => new TimeSlices(0, async () => undefined);

/** JSON.parse of the text the bytes hold, as the extension read files before (TextDecoder, then a U+FEFF strip). */
function reference(bytes: Uint8Array): { value?: unknown; error?: string } {
  const text = new TextDecoder().decode(bytes);
  try {
    return { value: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

async function sliced(bytes: Uint8Array, batchBytes?: number): Promise<{ value?: unknown; error?: string }> {
  try {
    return { value: await parseJsonSliced(bytes, { batchBytes, slices: eager() }) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** The same value as JSON.parse, down to key order and own `__proto__` keys. */
function assertSame(actual: { value?: unknown; error?: string }, expected: { value?: unknown; error?: string }, what: string): void {
  assert.equal(actual.error, expected.error, what);
  assert.deepStrictEqual(actual.value, expected.value, what);
  assert.equal(JSON.stringify(actual.value), JSON.stringify(expected.value), `${what}: key order`);
}

/** A random JSON text: nested arrays and objects, escapes, non-ASCII, `__proto__` and repeated keys. */
function randomJson(next: () => number, depth = 0): string {
  const roll = next();
  if (depth > 5 || roll < 0.3) {
    const leaves = ['1', '-2.5e3', '"a\\"b\\\\"', '"é😀\\u0041"', 'true', 'null', '""', '0', '"__proto__"'];
    return leaves[Math.floor(next() * leaves.length)] as string;
  }
  const count = Math.floor(next() * 6);
  const space = next() < 0.5 ? '' : ' \n';
  if (roll < 0.65) return `[${space}${Array.from({ length: count }, () => randomJson(next, depth + 1)).join(`,${space}`)}${space}]`;
  const keys = ['"a"', '"b"', '"__proto__"', '"1"', '"é"', '"a"', '"constructor"'];
  const members = Array.from({ length: count }, () => `${keys[Math.floor(next() * keys.length)]}${space}:${space}${randomJson(next, depth + 1)}`);
  return `{${space}${members.join(`,${space}`)}${space}}`;
}

/** The text with one character inserted or removed: mostly invalid JSON. */
function breakJson(text: string, next: () => number): string {
  const at = Math.floor(next() * (text.length + 1));
  const inserts = [',', ']', '}', '[', '{', ':', '"', ' ', '1', 'x', '\\', '\u0001'];
  return next() < 0.5 ? text.slice(0, at) + (inserts[Math.floor(next() * inserts.length)] as string) + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
}

describe('parseJsonSliced (JSON.parse in slices)', () => {
  for (const name of readdirSync(fixtures).filter((file) => file.endsWith('.json'))) {
    it(`reads the fixture ${name} as JSON.parse does, in batches of any size`, async () => {
      const bytes = readFileSync(path.join(fixtures, name));
      for (const batchBytes of [1, 7, 100, 4096, undefined]) assertSame(await sliced(bytes, batchBytes), reference(bytes), `${name}, batches of ${batchBytes}`);
    });
  }

  it('reads 3,000 generated documents as JSON.parse does, and refuses 3,000 broken ones with its error', async () => {
    const next = mulberry32(27);
    let refused = 0;
    for (let i = 0; i < 3_000; i++) {
      const text = randomJson(next);
      for (const candidate of [text, breakJson(text, next)]) {
        const bytes = encode(candidate);
        const expected = reference(bytes);
        if (expected.error) refused++;
        for (const batchBytes of [1, 5, 64]) assertSame(await sliced(bytes, batchBytes), expected, `document ${i}, batches of ${batchBytes}: ${candidate}`);
      }
    }
    assert.ok(refused > 1_500, `${refused} of 3,000 broken documents refused`);
  });

  it('refuses what is not one JSON value with JSON.parse’s error', async () => {
    for (const text of ['', ' ', '[1,\ufeff2]', '{"a":\ufeff1}', '[1,]', '[,1]', '{"a":1,}', '{"a" 1}', '[1 2]', '"abc', '[[1],[2]] x', '1, 2', '{} {}', ']', '{"a":[1]]']) {
      const bytes = encode(text);
      for (const batchBytes of [1, 2, 100]) assertSame(await sliced(bytes, batchBytes), reference(bytes), `${JSON.stringify(text)}, batches of ${batchBytes}`);
    }
  });

  it('skips one or two byte-order marks, as reading the text and stripping U+FEFF did', async () => {
    for (const text of ['\ufeff{"a":[1,2]}', '\ufeff\ufeff{"a":[1,2]}', '\ufeff\ufeff\ufeff{}']) {
      const bytes = encode(text);
      for (const batchBytes of [1, 100]) assertSame(await sliced(bytes, batchBytes), reference(bytes), JSON.stringify(text));
    }
  });

  it('keeps `__proto__` a plain key and never changes a prototype, in a container built member by member', async () => {
    const value = (await parseJsonSliced(encode('{"__proto__": {"polluted": true}, "list": [{"__proto__": 1}]}'), { batchBytes: 1, slices: eager() })) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.deepEqual(Object.keys(value), ['__proto__', 'list']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('gives the event loop a turn while it reads a large document, and no native parse reads more than a batch', async () => {
    const document = JSON.stringify({
      features: Array.from({ length: 20_000 }, (_, i) => ({ name: `flag-${i}`, tags: [{ type: 't', value: `v${i}` }] })),
      huge: { nested: Array.from({ length: 5_000 }, (_, i) => ({ i, list: [i, [i], { i }] })) },
    });
    let yields = 0;
    const slices = new TimeSlices(0, async () => {
      yields++;
    });
    const parse = JSON.parse;
    let longest = 0;
    JSON.parse = (text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
      longest = Math.max(longest, text.length);
      return parse(text, reviver);
    };
    let value: unknown;
    try {
      value = await parseJsonSliced(encode(document), { batchBytes: 4096, slices });
    } finally {
      JSON.parse = parse;
    }
    assert.deepStrictEqual(value, parse(document));
    assert.ok(yields > 10, `${yields} yields`);
    // A batch ends at the first member boundary past the batch size: one member more at most (here under 100 bytes).
    assert.ok(longest < 4096 + 200, `one JSON.parse call read ${longest} characters`);
  });

  it('names the line and JSON.parse’s error of the part that fails in a text too large to parse whole', async () => {
    const lines = Array.from({ length: 2_000 }, (_, i) => `  {"name": "flag-${i}", "tags": [{"type": "t", "value": "v${i}"}]}`);
    const broken = (at: number, line: string) => `{"features": [\n${lines.map((text, i) => (i === at ? line : text)).join(',\n')}\n]}`;
    const cases: Array<[string, string]> = [
      [broken(1_500, '  {"name": "flag-1500" "tags": []}'), "Expected ',' or '}' after property value"],
      [broken(1_200, '  {"name": "flag-1200", "tags": [1,,2]}'), 'Unexpected token \',\''],
      [broken(1_700, '  {"name": "flag-1700"},,'), 'Unexpected token \',\''],
      [`${broken(-1, '')} x`, 'Unexpected non-whitespace character after JSON'],
    ];
    for (const [text, detail] of cases) {
      const errorLine = text.split('\n').findIndex((line) => /"tags": \[\]|,,|x$/.test(line)) + 1;
      const error = await parseJsonSliced(encode(text), { batchBytes: 256, exactBytes: 0, slices: eager() }).then(
        () => assert.fail('accepted'),
        (failure: unknown) => failure,
      );
      assert.ok(error instanceof JsonPartError, String(error));
      assert.ok(error.detail.startsWith(detail), `${error.detail} (expected ${detail})`);
      assert.ok(error.line <= errorLine && errorLine - error.line < 10, `the part from line ${error.line}, the error on line ${errorLine}`);
    }
  });

  it('refuses nesting deeper than asked, before building anything', async () => {
    await assert.rejects(parseJsonSliced(encode(`${'['.repeat(65)}${']'.repeat(65)}`), { maxDepth: 64 }), JsonTooDeepError);
    assert.deepEqual(await parseJsonSliced(encode(`${'['.repeat(64)}${']'.repeat(64)}`), { maxDepth: 64 }), JSON.parse(`${'['.repeat(64)}${']'.repeat(64)}`));
  });
});
