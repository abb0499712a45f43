/**
 * What the real-server bench finds for one size of data, and the tables it prints: the summary against the goals,
 * every candidate, and how each figure grows with the number of flags (bench/real/report.ts prints saved runs).
 */
import { round } from '../measure';
import { markdownTable, mb, ms, n, times } from '../format';
import type { ExportFigures } from './export';
import type { CandidateResult } from './listing';
import type { MemoryFigures } from './memory';

export interface SizeResult {
  flags: number;
  server: { version: string; filledBy: 'cache' | 'import' | 'copies'; fillMs: number; startMs: number; projects: string[] };
  candidates: CandidateResult[];
  /** The client called `onRows` (rows as they arrive). */
  clientOffersRows: boolean;
  /** How the client read the rows (its `listing()` method and request count), when it says. */
  clientHow: string;
  fastestBare: { name: string; ms: number };
  /** The fastest complete bare read that is not told the projects (what a client can do). */
  fastestDiscoverable: { name: string; ms: number };
  fastestBareFirst: { name: string; ms: number };
  /** One search request: the first page of a paged search, when one ran. */
  oneRequestMs?: number;
  ours: { ms: number; firstMs: number; firstRequestSentMs?: number; ratio: number; ratioDiscoverable: number; refreshMs: number; refreshRatio: number; refreshHow: string };
  export: ExportFigures;
  memory?: MemoryFigures;
}

export function candidatesTable(results: SizeResult[]): string {
  const names = [...new Set(results.flatMap((r) => r.candidates.map((c) => c.name)))];
  const head = ['read (median of reps)', ...results.map((r) => `${n(r.flags)} flags: all / first rows`)];
  const rows = names.map((name) => [
    name,
    ...results.map((r) => {
      const c = r.candidates.find((x) => x.name === name);
      if (!c) return 'not run (--skip-large)';
      const first = c.name.startsWith('ours: UnleashClient') && !r.clientOffersRows ? '— (no onRows)' : ms(c.first.median);
      const rowsNote = c.complete ? '' : ` (${n(c.rows)} rows: INCOMPLETE)`;
      return `${ms(c.total.median)} / ${first}${rowsNote}`;
    }),
  ]);
  return markdownTable(head, rows);
}

export function summaryTable(results: SizeResult[]): string {
  const rows: string[][] = [];
  for (const r of results) {
    rows.push([
      `catalog load, ${n(r.flags)} flags`,
      `${ms(r.ours.ms)} (listFeatures${r.clientHow ? `: ${r.clientHow}` : ''})`,
      `${ms(r.fastestBare.ms)} (${r.fastestBare.name})`,
      times(r.ours.ratio),
      '≤ 1.2×',
      r.ours.ratio <= 1.2 ? 'yes' : 'NO',
    ]);
    rows.push([
      `catalog load, ${n(r.flags)} flags, a refresh (projects known)`,
      `${ms(r.ours.refreshMs)} (listFeatures: ${r.ours.refreshHow})`,
      `${ms(r.fastestBare.ms)} (${r.fastestBare.name})`,
      times(r.ours.refreshRatio),
      '≤ 1.2×',
      r.ours.refreshRatio <= 1.2 ? 'yes' : 'NO',
    ]);
    rows.push([
      `catalog load, ${n(r.flags)} flags, vs what a client can discover`,
      ms(r.ours.ms),
      `${ms(r.fastestDiscoverable.ms)} (${r.fastestDiscoverable.name})`,
      times(r.ours.ratioDiscoverable),
      '≤ 1.2×',
      r.ours.ratioDiscoverable <= 1.2 ? 'yes' : 'NO',
    ]);
    const firstOurs = r.clientOffersRows ? r.ours.firstMs : r.ours.ms;
    rows.push([
      `first rows, ${n(r.flags)} flags`,
      r.clientOffersRows
        ? `${ms(r.ours.firstMs)} (onRows${r.ours.firstRequestSentMs === undefined ? '' : `; their request sent at ${ms(r.ours.firstRequestSentMs)}`})`
        : `${ms(r.ours.ms)} (no onRows: the whole list)`,
      `${ms(r.fastestBareFirst.ms)} (${r.fastestBareFirst.name})${r.oneRequestMs === undefined ? '' : `; one search request ${ms(r.oneRequestMs)}`}`,
      times(round(firstOurs / r.fastestBareFirst.ms, 3)),
      'after one request',
      // The first rows came with the answer to a request sent at the start (within 20 ms), in every repetition;
      // a client that does not say (no onEvent) is judged by the time of one search request instead.
      (r.ours.firstRequestSentMs === undefined ? firstOurs <= 1.5 * (r.oneRequestMs ?? Infinity) : r.ours.firstRequestSentMs <= 20) ? 'yes' : 'NO',
    ]);
    rows.push([
      `export, ${n(r.flags)} flags → file (${mb(r.export.bytesWritten)}; peak heap +${mb(r.export.peakExtraBytes)})`,
      `${ms(r.export.ours.median)} (exportToFile)`,
      `${ms(r.export.bareToFile.median)} (request streamed to file, ${mb(r.export.bytesOnWire)})`,
      times(r.export.ratio),
      '≤ 1.5×',
      r.export.ratio <= 1.5 ? 'yes' : 'NO',
    ]);
    if (r.memory) {
      rows.push([
        `store heap, ${n(r.flags)} flags`,
        `${mb(r.memory.storeBytes)} (${n(r.memory.bytesPerFlag)} B/flag)`,
        `${mb(r.memory.parsedSearchBytes)} (search pages JSON.parse'd)`,
        times(round(r.memory.storeBytes / r.memory.parsedSearchBytes, 3)),
        '—',
        '—',
      ]);
    }
  }
  return markdownTable(['measure (real server)', 'ours', 'fastest bare', 'ratio', 'goal', 'met?'], rows);
}

/** How each figure grows from the smallest to the largest size, and a linear extrapolation to 50,000 flags. */
export function growthTable(results: SizeResult[]): string {
  const small = results[0];
  const large = results[results.length - 1];
  if (!small || !large || small === large) return '(one size only: no growth)';
  type Figure = [string, (r: SizeResult) => number, ((value: number) => string)?];
  const figures: Figure[] = [
    ...large.candidates
      .filter((c) => small.candidates.some((x) => x.name === c.name))
      .map((c): Figure => [c.name, (r) => r.candidates.find((x) => x.name === c.name)!.total.median]),
    ['ours: time to the first rows (onRows)', (r) => r.ours.firstMs],
    ['export: exportToFile()', (r) => r.export.ours.median],
    ['export: bare request → file', (r) => r.export.bareToFile.median],
    ['export: peak extra memory', (r) => r.export.peakExtraBytes, mb],
    ['export: canonical layout + stringify (CPU, held whole)', (r) => r.export.steps?.serialize.median ?? NaN],
    ['export: request + JSON.parse + zod (held whole)', (r) => r.export.steps?.requestParseValidate.median ?? NaN],
    ['export: bare request + JSON.parse', (r) => r.export.steps?.bareRequestJsonParse.median ?? NaN],
    ['export: bare request asking gzip + gunzip + JSON.parse', (r) => r.export.steps?.bareGzipRequestJsonParse.median ?? NaN],
  ];
  const rows = figures.map(([name, of, format = ms]) => {
    const a = of(small);
    const b = of(large);
    // value = fixed + perFlag × N through the two measured points.
    const perFlag = (b - a) / (large.flags - small.flags);
    const at50k = b + perFlag * (50_000 - large.flags);
    return [name, format(a), format(b), times(round(b / a, 3)), format(at50k)];
  });
  return markdownTable(['figure', `${n(small.flags)} flags`, `${n(large.flags)} flags`, 'growth', '50,000 flags (linear)'], rows);
}
