/**
 * The banded edit distance (src/base/editDistance.ts) agrees with the full Levenshtein table on every pair of short
 * strings over a small alphabet, for every limit it is asked with: the band and the early stop lose nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { editDistance } from '../../src/base/editDistance';
import { mulberry32 } from '../../bench/data';

function levenshtein(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      rows[i]![j] = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return rows[a.length]![b.length]!;
}

describe('editDistance', () => {
  it('is the Levenshtein distance, or limit + 1 past the limit, on 50,000 random pairs', () => {
    const random = mulberry32(7);
    const word = () => Array.from({ length: Math.floor(random() * 10) }, () => 'ab-c'[Math.floor(random() * 4)]).join('');
    for (let n = 0; n < 50_000; n++) {
      const [a, b, limit] = [word(), word(), Math.floor(random() * 4)];
      assert.equal(editDistance(a, b, limit), Math.min(levenshtein(a, b), limit + 1), `${JSON.stringify(a)} ${JSON.stringify(b)} limit ${limit}`);
    }
  });
});
