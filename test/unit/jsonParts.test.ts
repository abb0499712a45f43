/**
 * A value sent from a worker in parts (src/base/jsonParts.ts) comes back equal to itself: long lists and large
 * objects anywhere, inside one another, a `__proto__` key kept as a member, and each part small enough for the host
 * to parse at once.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromParts, toParts } from '../../src/base/jsonParts';
import { TimeSlices } from '../../src/base/timeSlices';

/** The value through toParts and fromParts, as a worker's reply crosses to the host. */
const roundTrip = async (value: unknown) => fromParts(toParts(JSON.parse(JSON.stringify(value)) as unknown), new TimeSlices());

describe('a value in parts', () => {
  it('comes back equal: primitives, small values, long lists, large objects, one inside another', async () => {
    const variants = Object.fromEntries(Array.from({ length: 2_500 }, (_, i) => [`v${i}`, i]));
    const rows = Array.from({ length: 3_500 }, (_, i) => ({ name: `f${i}`, values: Array.from({ length: i === 7 ? 1_500 : 2 }, (_, j) => `${i}-${j}`), ...(i === 9 ? { variants } : {}) }));
    for (const value of [1, 'text', null, true, [], {}, { a: [1, 2] }, { features: rows, variants, nested: { deep: [rows.slice(0, 1_200)] } }]) {
      assert.deepEqual(await roundTrip(value), value);
    }
  });

  it('keeps a __proto__ key of a large object as a member, as JSON.parse does', async () => {
    const text = `{${Array.from({ length: 1_500 }, (_, i) => `"k${i}":${i}`).join(',')},"__proto__":{"polluted":true}}`;
    const back = (await fromParts(toParts(JSON.parse(text) as unknown), new TimeSlices())) as Record<string, unknown>;
    assert.deepEqual(Object.getOwnPropertyDescriptor(back, '__proto__')?.value, { polluted: true });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.keys(back).length, 1_501);
  });

  it('sends no part of more than a thousand entries', async () => {
    const parts = toParts({ features: Array.from({ length: 10_500 }, (_, i) => ({ i })) });
    assert.equal(parts.parts.length, 11);
    assert.deepEqual(JSON.parse(parts.skeleton), { features: [] });
  });
});
