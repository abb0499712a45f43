/**
 * Hover recognition benchmark: `findFlagAt` (Set lookups on the token under the cursor)
 * against the naive approach some flag extensions use — for the hovered line,
 * `names.filter(n => line.includes(n))`, then the match covering the cursor.
 *
 *   npx tsx bench/hover.bench.ts [--flags 10000] [--lines 5000] [--hovers 2000] [--seed 42]
 *
 * Writes bench/results/hover.json. `runHoverBench` is exported for an aggregator.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { FlagNameIndex } from '../src/model/code/flagNameIndex';
import { findFlagAt, findFlagInCode } from '../src/model/code/flagNames';
import { mulberry32 } from './data';

export interface HoverBenchOptions {
  /** Number of flags in the catalog (default 10,000). */
  flags?: number;
  /** Lines in the synthetic source file (default 5,000). */
  lines?: number;
  /** Hover positions measured (default 2,000). */
  hovers?: number;
  /** Share of lines that call `unleash.isEnabled('…')` (default 0.02). */
  flagLineRatio?: number;
  /** Share of those calls whose flag name has a typo (default 0.1). */
  typoRatio?: number;
  /** PRNG seed, for reproducible inputs (default 42). */
  seed?: number;
  /** Untimed passes over all hovers before measuring (default 2). */
  warmupRounds?: number;
  /** Timed passes over all hovers (default 3); samples from every pass are pooled. */
  rounds?: number;
  /** Where to write the JSON result; false to skip. Default bench/results/hover.json. */
  outFile?: string | false;
  /** Print the table to stdout (default true). */
  log?: boolean;
}

/** Latencies in microseconds. */
export interface LatencyStats {
  median: number;
  p99: number;
  max: number;
  mean: number;
}

export type HoverKind = 'flag' | 'word' | 'whitespace';

export interface HoverBenchResult {
  name: 'hover';
  timestamp: string;
  node: string;
  config: Required<Omit<HoverBenchOptions, 'outFile' | 'log'>>;
  hoversByKind: Record<HoverKind, number>;
  findFlagAt: LatencyStats;
  /** The hover's default matching (string literals, identifiers through transforms), timed on the same hovers. */
  findFlagInCode: LatencyStats;
  naive: LatencyStats;
  /** naive / findFlagAt for each statistic. */
  speedup: { median: number; p99: number; mean: number };
  byKind: Record<HoverKind, { findFlagAtMedian: number; naiveMedian: number }>;
  accuracy: {
    /** Hovers on a correctly spelled flag that findFlagAt recognised. */
    knownFound: number;
    knownTotal: number;
    /** Hovers on a misspelled flag that findFlagAt reported as known:false in isEnabled. */
    typosReported: number;
    typosTotal: number;
    /** Hovers on ordinary words/whitespace where the naive approach claimed a flag (substring hits). */
    naiveFalsePositives: number;
    /** Same, for findFlagAt. */
    findFlagAtFalsePositives: number;
  };
  outFile?: string;
}

// ---------------------------------------------------------------------------
// Deterministic inputs


const AREAS = [
  'checkout', 'search', 'billing', 'payments', 'onboarding', 'profile', 'cart', 'inventory', 'shipping',
  'notifications', 'auth', 'admin', 'reports', 'dashboard', 'catalog', 'pricing', 'reviews', 'orders',
  'analytics', 'support', 'settings', 'mobile', 'web', 'api', 'gateway', 'ledger', 'invoices', 'tax',
];
const FEATURES = [
  'apple-pay', 'google-pay', 'new-layout', 'dark-mode', 'one-click', 'guest', 'express', 'bulk-edit',
  'export', 'import', 'sso', 'mfa', 'passkeys', 'autocomplete', 'fuzzy', 'facets', 'recommendations',
  'banner', 'tooltips', 'wizard', 'redesign', 'caching', 'rate-limit', 'retry', 'batching', 'streaming',
  'webhooks', 'audit-log', 'csv', 'pdf', 'i18n', 'rtl', 'beta', 'preview', 'sidebar', 'filters', 'sorting',
];
const SUFFIXES = ['', '', '', '-v2', '-v3', '-experiment', '-killswitch', '-rollout', '-beta', '-internal'];
const TEAMS = ['core', 'growth', 'platform', 'mobile', 'data', 'infra', 'fintech', 'ux'];

/** Realistic, unique flag names: kebab (most), snake, dotted, and a few with slashes. */
export function makeCatalog(count: number, rnd: () => number): string[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const names = new Set<string>();
  let serial = 0;
  while (names.size < count) {
    const r = rnd();
    let name: string;
    if (r < 0.6) name = `${pick(AREAS)}-${pick(FEATURES)}${pick(SUFFIXES)}`;
    else if (r < 0.75) name = `${pick(AREAS)}_${pick(FEATURES).replace(/-/g, '_')}`;
    else if (r < 0.95) name = `${pick(TEAMS)}.${pick(AREAS)}.${pick(FEATURES)}`;
    else name = `${pick(TEAMS)}/${pick(AREAS)}-${pick(FEATURES)}`;
    if (names.has(name)) name = `${name}-${++serial}`;
    names.add(name);
  }
  return [...names];
}

const IDENTS = [
  'order', 'cart', 'user', 'price', 'total', 'items', 'result', 'response', 'request', 'payload', 'config',
  'logger', 'session', 'checkout', 'search', 'billing', 'invoice', 'customer', 'product', 'filters', 'export',
  'retry', 'banner', 'profile', 'settings', 'express', 'guest', 'beta', 'preview', 'sidebar', 'sorting',
];
const CODE_TEMPLATES: Array<(a: string, b: string, c: string) => string> = [
  (a, b) => `const ${a} = await ${b}Service.load(${a}Id);`,
  (a, b, c) => `  if (!${a}.${b}) throw new Error('missing ${b} for ${c}');`,
  (a, b) => `    return ${a}.map((x) => x.${b} * 2).filter(Boolean);`,
  (a) => `export function ${a}Handler(req: Request, res: Response): void {`,
  (a, b) => `  logger.info(\`processed \${${a}.length} ${b} entries\`);`,
  () => `  }`,
  () => ``,
  (a, b) => `import { ${a}, ${b} } from './${a}/${b}';`,
  (a, b, c) => `  // TODO: move ${a} handling into the ${b} module (${c} team)`,
  (a, b) => `    ${a}.${b} = ${a}.${b} ?? { enabled: false, retries: 3 };`,
  (a, b, c) => `  const ${a}Total = ${b}.reduce((sum, ${c}) => sum + ${c}.price, 0);`,
  (a) => `describe('${a}', () => {`,
  (a, b) => `    expect(${a}).toEqual(${b});`,
  (a, b) => `  await db.query('SELECT * FROM ${a} WHERE ${b}_id = $1', [id]);`,
];
const FLAG_TEMPLATES: Array<(flag: string) => string> = [
  (f) => `  if (unleash.isEnabled('${f}')) {`,
  (f) => `    const enabled = unleash.isEnabled('${f}', context);`,
  (f) => `  return unleash.isEnabled('${f}', { userId: user.id }) ? renderNew() : renderOld();`,
];

function typo(name: string, rnd: () => number): string {
  for (;;) {
    const i = 1 + Math.floor(rnd() * (name.length - 2));
    const t = name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2);
    if (t !== name) return t;
  }
}

interface Hover {
  line: number;
  character: number;
  kind: HoverKind;
  /** For 'flag' hovers: the name in the source, and whether it is a typo. */
  flag?: string;
  typo?: boolean;
}

function makeSource(
  names: readonly string[],
  config: Required<Omit<HoverBenchOptions, 'outFile' | 'log'>>,
  rnd: () => number,
): { lines: string[]; flagLines: Map<number, { text: string; typo: boolean }> } {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const lines: string[] = [];
  const flagLines = new Map<number, { text: string; typo: boolean }>();
  for (let i = 0; i < config.lines; i++) {
    if (rnd() < config.flagLineRatio) {
      const isTypo = rnd() < config.typoRatio;
      const name = pick(names);
      const text = isTypo ? typo(name, rnd) : name;
      flagLines.set(i, { text, typo: isTypo });
      lines.push(pick(FLAG_TEMPLATES)(text));
    } else {
      lines.push(pick(CODE_TEMPLATES)(pick(IDENTS), pick(IDENTS), pick(IDENTS)));
    }
  }
  return { lines, flagLines };
}

function makeHovers(
  lines: readonly string[],
  flagLines: Map<number, { text: string; typo: boolean }>,
  count: number,
  rnd: () => number,
): Hover[] {
  const flagLineNos = [...flagLines.keys()];
  const hovers: Hover[] = [];
  let guard = 0;
  while (hovers.length < count && guard++ < count * 100) {
    const kind: HoverKind = (['flag', 'word', 'whitespace'] as const)[hovers.length % 3];
    if (kind === 'flag') {
      const lineNo = flagLineNos[Math.floor(rnd() * flagLineNos.length)];
      const { text, typo: isTypo } = flagLines.get(lineNo)!;
      const start = lines[lineNo].indexOf(`'${text}'`) + 1;
      hovers.push({ line: lineNo, character: start + Math.floor(rnd() * text.length), kind, flag: text, typo: isTypo });
      continue;
    }
    const lineNo = Math.floor(rnd() * lines.length);
    if (flagLines.has(lineNo)) continue;
    const line = lines[lineNo];
    const positions: number[] = [];
    for (let c = 0; c < line.length; c++) {
      const isWordChar = /[A-Za-z]/.test(line[c]);
      if (kind === 'word' ? isWordChar : line[c] === ' ') positions.push(c);
    }
    if (positions.length === 0) continue;
    hovers.push({ line: lineNo, character: positions[Math.floor(rnd() * positions.length)], kind });
  }
  return hovers;
}

// ---------------------------------------------------------------------------
// Naive baseline

interface NaiveMatch {
  name: string;
  start: number;
  end: number;
}

/** `names.filter(n => line.includes(n))`, then the (longest) occurrence covering the cursor. */
export function naiveFindFlagAt(line: string, character: number, names: readonly string[]): NaiveMatch | undefined {
  const hits = names.filter((n) => line.includes(n));
  let best: NaiveMatch | undefined;
  for (const name of hits) {
    for (let i = line.indexOf(name); i >= 0; i = line.indexOf(name, i + 1)) {
      if (i <= character && character < i + name.length && (!best || name.length > best.name.length)) {
        best = { name, start: i, end: i + name.length };
      }
    }
  }
  return best;
}

// ---------------------------------------------------------------------------

function stats(samplesNs: readonly bigint[]): LatencyStats {
  const us = samplesNs.map((s) => Number(s) / 1000).sort((a, b) => a - b);
  const q = (p: number): number => us[Math.min(us.length - 1, Math.max(0, Math.ceil(p * us.length) - 1))];
  const mean = us.reduce((s, x) => s + x, 0) / us.length;
  const r = (x: number): number => Math.round(x * 1000) / 1000;
  return { median: r(q(0.5)), p99: r(q(0.99)), max: r(us[us.length - 1]), mean: r(mean) };
}

function median(xs: bigint[]): number {
  return stats(xs).median;
}

export async function runHoverBench(options: HoverBenchOptions = {}): Promise<HoverBenchResult> {
  const config: Required<Omit<HoverBenchOptions, 'outFile' | 'log'>> = {
    flags: options.flags ?? 10_000,
    lines: options.lines ?? 5_000,
    hovers: options.hovers ?? 2_000,
    flagLineRatio: options.flagLineRatio ?? 0.02,
    typoRatio: options.typoRatio ?? 0.1,
    seed: options.seed ?? 42,
    warmupRounds: options.warmupRounds ?? 2,
    rounds: options.rounds ?? 3,
  };
  const log = options.log ?? true;
  const outFile = options.outFile === undefined ? path.join(__dirname, 'results', 'hover.json') : options.outFile;

  const rnd = mulberry32(config.seed);
  const names = makeCatalog(config.flags, rnd);
  const { lines, flagLines } = makeSource(names, config, rnd);
  const hovers = makeHovers(lines, flagLines, config.hovers, rnd);
  const index = new FlagNameIndex(names);

  let sink = 0;
  const consume = (m: { name: string } | undefined): void => {
    sink += m ? m.name.length : 1;
  };

  for (let w = 0; w < config.warmupRounds; w++) {
    for (const h of hovers) {
      consume(findFlagAt(lines[h.line], h.character, index));
      consume(findFlagInCode(lines[h.line], h.character, index));
      consume(naiveFindFlagAt(lines[h.line], h.character, names));
    }
  }

  const fast: bigint[] = [];
  const inCode: bigint[] = [];
  const slow: bigint[] = [];
  const fastByKind: Record<HoverKind, bigint[]> = { flag: [], word: [], whitespace: [] };
  const slowByKind: Record<HoverKind, bigint[]> = { flag: [], word: [], whitespace: [] };
  const accuracy: HoverBenchResult['accuracy'] = {
    knownFound: 0,
    knownTotal: 0,
    typosReported: 0,
    typosTotal: 0,
    naiveFalsePositives: 0,
    findFlagAtFalsePositives: 0,
  };

  // Each method is timed in its own pass over all hovers, so the baseline's allocations
  // (and the GC pauses they cause) are not charged to findFlagAt, and vice versa.
  const found: Array<ReturnType<typeof findFlagAt>> = [];
  const naiveFound: Array<NaiveMatch | undefined> = [];
  for (let round = 0; round < config.rounds; round++) {
    for (const h of hovers) {
      const line = lines[h.line];
      const t0 = process.hrtime.bigint();
      const m = findFlagAt(line, h.character, index);
      const dt = process.hrtime.bigint() - t0;
      consume(m);
      fast.push(dt);
      fastByKind[h.kind].push(dt);
      if (round === 0) found.push(m);
    }
    for (const h of hovers) {
      const line = lines[h.line];
      const t0 = process.hrtime.bigint();
      const m = findFlagInCode(line, h.character, index);
      inCode.push(process.hrtime.bigint() - t0);
      consume(m);
    }
    for (const h of hovers) {
      const line = lines[h.line];
      const t0 = process.hrtime.bigint();
      const n = naiveFindFlagAt(line, h.character, names);
      const dt = process.hrtime.bigint() - t0;
      consume(n);
      slow.push(dt);
      slowByKind[h.kind].push(dt);
      if (round === 0) naiveFound.push(n);
    }
  }

  hovers.forEach((h, i) => {
    const m = found[i];
    if (h.kind === 'flag') {
      if (h.typo) {
        accuracy.typosTotal++;
        if (m && !m.known && m.inSdkCall === 'isEnabled' && m.name === h.flag) accuracy.typosReported++;
      } else {
        accuracy.knownTotal++;
        if (m && m.known && m.name === h.flag) accuracy.knownFound++;
      }
    } else {
      if (naiveFound[i]) accuracy.naiveFalsePositives++;
      if (m) accuracy.findFlagAtFalsePositives++;
    }
  });

  const f = stats(fast);
  const s = stats(slow);
  const ratio = (a: number, b: number): number => (b > 0 ? Math.round((a / b) * 10) / 10 : Infinity);
  const kinds: HoverKind[] = ['flag', 'word', 'whitespace'];
  const result: HoverBenchResult = {
    name: 'hover',
    timestamp: new Date().toISOString(),
    node: process.version,
    config,
    hoversByKind: {
      flag: fastByKind.flag.length / config.rounds,
      word: fastByKind.word.length / config.rounds,
      whitespace: fastByKind.whitespace.length / config.rounds,
    },
    findFlagAt: f,
    findFlagInCode: stats(inCode),
    naive: s,
    speedup: { median: ratio(s.median, f.median), p99: ratio(s.p99, f.p99), mean: ratio(s.mean, f.mean) },
    byKind: Object.fromEntries(
      kinds.map((k) => [k, { findFlagAtMedian: median(fastByKind[k]), naiveMedian: median(slowByKind[k]) }]),
    ) as HoverBenchResult['byKind'],
    accuracy,
  };
  if (sink === -1) console.log(sink); // keep results observable

  if (outFile !== false) {
    await mkdir(path.dirname(outFile), { recursive: true });
    await writeFile(outFile, JSON.stringify(result, null, 2) + '\n');
    result.outFile = outFile;
  }

  if (log) {
    const fmt = (x: number): string => x.toFixed(2).padStart(10);
    console.log(
      `hover bench: ${config.flags} flags, ${config.lines} lines, ${hovers.length} hovers ` +
        `(${result.hoversByKind.flag} flag / ${result.hoversByKind.word} word / ${result.hoversByKind.whitespace} whitespace), ` +
        `${config.rounds} round(s), node ${process.version}`,
    );
    console.log(`${'µs per hover'.padEnd(24)}${'median'.padStart(10)}${'p99'.padStart(10)}${'max'.padStart(10)}${'mean'.padStart(10)}`);
    console.log(`${'findFlagAt'.padEnd(24)}${fmt(f.median)}${fmt(f.p99)}${fmt(f.max)}${fmt(f.mean)}`);
    const c = result.findFlagInCode;
    console.log(`${'findFlagInCode'.padEnd(24)}${fmt(c.median)}${fmt(c.p99)}${fmt(c.max)}${fmt(c.mean)}`);
    console.log(`${'naive filter+includes'.padEnd(24)}${fmt(s.median)}${fmt(s.p99)}${fmt(s.max)}${fmt(s.mean)}`);
    console.log(
      `speed-up: ×${result.speedup.median} (median), ×${result.speedup.p99} (p99), ×${result.speedup.mean} (mean)`,
    );
    for (const k of kinds) {
      console.log(
        `  ${k.padEnd(11)} median  findFlagAt ${result.byKind[k].findFlagAtMedian.toFixed(2)} µs   naive ${result.byKind[k].naiveMedian.toFixed(2)} µs`,
      );
    }
    console.log(
      `accuracy: known ${accuracy.knownFound}/${accuracy.knownTotal}, typos reported ${accuracy.typosReported}/${accuracy.typosTotal}, ` +
        `false positives on words/whitespace: findFlagAt ${accuracy.findFlagAtFalsePositives}, naive ${accuracy.naiveFalsePositives}`,
    );
    if (result.outFile) console.log(`wrote ${path.relative(process.cwd(), result.outFile)}`);
  }
  return result;
}

function parseArgs(argv: readonly string[]): HoverBenchOptions {
  const opts: HoverBenchOptions = {};
  const numeric = ['flags', 'lines', 'hovers', 'seed', 'rounds', 'warmupRounds', 'flagLineRatio', 'typoRatio'] as const;
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, '');
    if (key === 'no-write') opts.outFile = false;
    else if (key === 'out') opts.outFile = argv[++i];
    else if ((numeric as readonly string[]).includes(key)) {
      const value = Number(argv[++i]);
      if (!Number.isFinite(value)) throw new Error(`--${key} needs a number`);
      opts[key as (typeof numeric)[number]] = value;
    } else throw new Error(`unknown option ${argv[i]}`);
  }
  return opts;
}

if (require.main === module) {
  runHoverBench(parseArgs(process.argv.slice(2))).catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
