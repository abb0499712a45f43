/**
 * TopLevelMembers (src/base/jsonMembers.ts): the members of a top-level object found in a stream cut anywhere, each
 * value's bytes handed on whole, what JSON.parse would read; and every structural fault refused with where it is.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonTooDeepError } from '../../src/base/jsonBytes';
import { JsonShapeError, TopLevelMembers } from '../../src/base/jsonMembers';

/** Reads `text` cut into pieces of `size` bytes (or at `cuts`), rebuilding the object from what the scanner reports. */
function read(text: string | Uint8Array, size = 1 << 20, maxDepth?: number): { value: Record<string, unknown>; events: string[] } {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  const value: Record<string, unknown> = {};
  const events: string[] = [];
  let key = '';
  let array = false;
  const decoder = new TextDecoder();
  const scanner = new TopLevelMembers(
    {
      member(k, isArray) {
        key = k;
        array = isArray;
        events.push(`${isArray ? 'list' : 'member'} ${k}`);
        Object.defineProperty(value, k, { value: isArray ? [] : undefined, enumerable: true, writable: true, configurable: true });
      },
      value(part, offset) {
        const text = decoder.decode(part);
        // The offset is where the value starts in the stream.
        assert.equal(decoder.decode(bytes.subarray(offset, offset + part.length)), text);
        const parsed = JSON.parse(text) as unknown;
        if (array) (value[key] as unknown[]).push(parsed);
        else value[key] = parsed;
        events.push(`value ${text.length}`);
      },
    },
    maxDepth,
  );
  for (let i = 0; i < bytes.length; i += size) scanner.push(bytes.subarray(i, i + size));
  scanner.end();
  return { value, events };
}

const SAMPLE = JSON.stringify({
  features: [{ name: 'a"b\\c', description: 'line\nbreak \u202e é 😀', tags: [{ type: 't', value: '}]' }] }, { name: '[{' }],
  featureStrategies: [],
  count: -12.5e3,
  flag: true,
  nothing: null,
  text: 'plain',
  nested: { deep: [[1, [2, { three: '3' }]]] },
  'key with \\"escapes\\" \u00e9': 1,
  segments: [1, 'two', null, false, { id: 3 }, [4]],
});

describe('TopLevelMembers', () => {
  it('reads what JSON.parse reads, whatever the chunk size (down to one byte)', () => {
    const expected = JSON.parse(SAMPLE) as unknown;
    for (const size of [1, 2, 3, 7, 64, 1 << 20]) assert.deepEqual(read(SAMPLE, size).value, expected, `chunks of ${size}`);
  });

  it('reads pretty-printed text and a byte-order mark, and hands each list element on alone', () => {
    const text = `\ufeff${JSON.stringify({ features: [{ name: 'x' }, { name: 'y' }], tagTypes: [] }, null, 2)}\n`;
    for (const size of [1, 5, 1 << 20]) {
      const { value, events } = read(text, size);
      assert.deepEqual(value, { features: [{ name: 'x' }, { name: 'y' }], tagTypes: [] });
      assert.deepEqual(events, ['list features', 'value 25', 'value 25', 'list tagTypes']);
    }
  });

  it('reports a key given twice twice (the reader keeps the last, as JSON.parse does)', () => {
    assert.deepEqual(read('{"a":[1],"a":{"b":2}}').events, ['list a', 'value 1', 'member a', 'value 7']);
  });

  it('refuses what is not one JSON object of members, saying where', () => {
    const cases: Array<[string, RegExp]> = [
      ['[1,2]', /not a JSON object at byte 0/],
      ['', /the answer is empty/],
      ['   ', /the answer is empty/],
      ['{"a":1', /the object is not closed/],
      ['{"a":[1,2}', /"," or "\]" was expected at byte 9/],
      ['{"a":1 "b":2}', /"," or "}" was expected at byte 7/],
      ['{"a":1,}', /a member name was expected at byte 7/],
      ['{"a":[1,]}', /a value was expected at byte 8/],
      ['{"a" 1}', /":" was expected at byte 5/],
      ['{a:1}', /a member name was expected at byte 1/],
      ['{"a":1}x', /nothing may follow the object at byte 7/],
      ['{"a":"unterminated}', /the object is not closed/],
      ['{"\\x":1}', /a member name is not a valid JSON string/],
    ];
    for (const [text, message] of cases) {
      for (const size of [1, 1 << 20]) assert.throws(() => read(text, size), (error: unknown) => error instanceof JsonShapeError && message.test(error.message), `${text} (${size})`);
    }
  });

  it('leaves a value whose own syntax is wrong to the reader (it fails in JSON.parse, not silently)', () => {
    assert.throws(() => read('{"a":[{"b":]}]}'), SyntaxError);
    assert.throws(() => read('{"a":tru}'), SyntaxError);
  });

  it('refuses nesting deeper than allowed, counting the object and the list', () => {
    const deep = (levels: number) => `{"a":[${'['.repeat(levels)}${']'.repeat(levels)}]}`;
    assert.doesNotThrow(() => read(deep(62), 1 << 20, 64));
    assert.throws(() => read(deep(63), 1 << 20, 64), JsonTooDeepError);
    assert.throws(() => read(`{"a":${'{"b":'.repeat(100)}1${'}'.repeat(100)}}`, 3, 64), JsonTooDeepError);
  });
});
