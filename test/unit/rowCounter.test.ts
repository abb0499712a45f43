/**
 * The row counter (src/api/rowCounter.ts): the rows of an answer's `features` array, counted from its bytes as they
 * arrive, whatever the chunks, nesting, strings and escapes.
 *   node --import tsx --test test/unit/rowCounter.test.ts
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RowCounter } from '../../src/api/rowCounter';

const count = (text: string, chunk = text.length) => {
  const counter = new RowCounter();
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += chunk) counter.feed(bytes.subarray(at, at + chunk));
  return counter.rows;
};

describe('row counter', () => {
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
