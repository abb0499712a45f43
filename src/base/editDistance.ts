/**
 * The Levenshtein distance of two strings up to a limit (typo suggestions): only the band of cells within `limit` of
 * the diagonal is computed, and the work stops once the distance must exceed it, so a pair costs length × (2 × limit + 1)
 * steps at most.
 */

/** Rows reused between calls (grown when a longer string comes). */
let previousRow = new Int32Array(64);
let currentRow = new Int32Array(64);

/** Levenshtein distance, or `limit + 1` once it must exceed `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  const n = a.length;
  const m = b.length;
  const over = limit + 1;
  if (Math.abs(n - m) > limit) return over;
  if (previousRow.length <= m + 1) {
    previousRow = new Int32Array(m + 2);
    currentRow = new Int32Array(m + 2);
  }
  let previous = previousRow;
  let current = currentRow;
  for (let j = 0; j <= m; j++) previous[j] = Math.min(j, over);
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - limit);
    const hi = Math.min(m, i + limit);
    // The cell left of the band: the first column (i deletions), or out of reach.
    current[lo - 1] = lo === 1 ? Math.min(i, over) : over;
    let rowMin = current[lo - 1]!;
    const ca = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      const cell = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost, over);
      current[j] = cell;
      if (cell < rowMin) rowMin = cell;
    }
    // The cell right of the band, which the next row reads above its own last cell.
    if (hi < m) current[hi + 1] = over;
    if (rowMin > limit) return over;
    const swap = previous;
    previous = current;
    current = swap;
  }
  return previous[m]!;
}
