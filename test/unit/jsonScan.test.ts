/**
 * The scan of JSON bytes (src/base/jsonScan.ts): the rows of an answer's `features` array, counted from its bytes as
 * they arrive, and the shape a batched parse and the intake's budget read, whatever the chunks, nesting, strings and
 * escapes.
 *   node --import tsx --test test/unit/jsonScan.test.ts
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonScan } from '../../src/base/jsonScan';

const scanned = (text: string, chunk = text.length) => {
  const scan = new JsonScan();
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += chunk) scan.feed(bytes.subarray(at, at + chunk));
  return scan;
};
const count = (text: string, chunk = text.length) => scanned(text, chunk).rows;

describe('JSON scan: rows', () => {
  it('counts each value directly inside the top-level features array, in any chunks', () => {
    const page = JSON.stringify({
      version: 2,
      other: [{ features: [1, 2, 3] }],
      features: [
        { name: 'a', environments: [{ name: 'dev' }, { name: 'prod' }], description: 'a "quoted" [x] {y}, \\ and , more' },
        { name: 'b\u00e9\u{1f600}', tags: [] },
        'a string row',
        42,
        null,
        [1, 2],
      ],
      total: 6,
    });
    for (const chunk of [1, 2, 3, 7, 64, page.length]) assert.equal(count(page, chunk), 6, `chunks of ${chunk}`);
    assert.equal(count(' \n{ "features" : [ ] , "total": 0 }'), 0);
  });

  it('counts nothing outside the top-level features key', () => {
    assert.equal(count('{"x":{"features":[1,2]},"features":[7]}'), 1);
    assert.equal(count('{"a":"features","features":[1]}'), 1);
    assert.equal(count('{"features":"[1,2]"}'), 0);
    assert.equal(count('[{"features":[1,2]}]'), 0);
    assert.equal(count('{"featuresX":[1,2],"feature":[1]}'), 0);
  });

  it('leaves a key written with escapes to the count after parsing', () => {
    assert.equal(count('{"feat\\u0075res":[1,2]}'), 0);
  });
});
