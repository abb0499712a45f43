/**
 * Hover content benchmark: the time to build a hover's markdown (`hoverMarkdown`), per call, for
 * - the seeded flag with its details (test/fixtures/feature-7.5.1.json + search-page.json),
 * - the same flag from its summary only (what the first hover shows while details load),
 * - a heavy flag (12 environments × 4 strategies with constraints, segments and variants, tags, links),
 * - a hostile flag (10,000-character markdown/HTML strings in every field: the bounded worst case),
 * - a whole hover without the editor: `findFlagAt` on a line, the catalog lookup among 10,000 flags, and the
 *   markdown (what `provideHover` does once the details are cached).
 *
 *   npx tsx bench/hoverContent.bench.ts [--iterations 5000] [--warmup 500] [--no-write] [--out file]
 *
 * Writes bench/results/hoverContent.json. `runHoverContentBench` is exported for an aggregator.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { featureSchema, featureSearchSchema, type Feature, type FeatureSummary, type Strategy } from '../src/api/schemas';
import { Catalog } from '../src/model/store/catalog';
import { FlagNameIndex } from '../src/model/code/flagNameIndex';
import { findFlagAt } from '../src/model/code/flagNames';
import { hoverMarkdown, type HoverMatch } from '../src/model/content/hoverContent';

export interface HoverContentBenchOptions {
  /** Timed calls per case (default 5,000). */
  iterations?: number;
  /** Untimed calls per case first (default 500). */
  warmup?: number;
  /** Where to write the JSON result; false to skip. Default bench/results/hoverContent.json. */
  outFile?: string | false;
  /** Print the table (default true). */
  log?: boolean;
}

/** Microseconds per call. */
export interface CaseResult {
  name: string;
  median: number;
  p99: number;
  max: number;
  mean: number;
  /** Length of the markdown built, in characters. */
  chars: number;
}

export interface HoverContentBenchResult {
  name: 'hoverContent';
  timestamp: string;
  node: string;
  iterations: number;
  cases: CaseResult[];
  outFile?: string;
}

const NOW = new Date('2026-11-25T10:00:00.000Z');
const HOST = 'unleash.example.com';
const webUrl = (project: string, name: string) =>
  `https://${HOST}/projects/${encodeURIComponent(project)}/features/${encodeURIComponent(name)}`;

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(path.join(__dirname, '..', 'test', 'fixtures', name), 'utf8'));
}

function heavyFlag(base: Feature): Feature {
  const strategy = (i: number): Strategy => ({
    id: `s${i}`,
    name: i % 2 === 0 ? 'flexibleRollout' : 'userWithId',
    title: i % 3 === 0 ? `Wave ${i}` : null,
    parameters: i % 2 === 0 ? { rollout: String(10 * i), stickiness: 'userId', groupId: 'g' } : { userIds: '1,2,3,4,5,6,7,8,9,10,11,12' },
    constraints: [
      { contextName: 'country', operator: 'IN', values: ['DE', 'FR', 'NL', 'BE', 'AT', 'CH'] },
      { contextName: 'appVersion', operator: 'SEMVER_GT', value: '2.1.0' },
    ],
    segments: [1, 2],
    variants: [
      { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'userId', payload: { type: 'json', value: '{"color": "blue"}' } },
      { name: 'green', weight: 500, weightType: 'variable', stickiness: 'userId' },
    ],
  });
  return {
    ...base,
    environments: Array.from({ length: 12 }, (_, e) => ({
      name: `env-${e}`,
      enabled: e % 2 === 0,
      lastSeenAt: '2026-11-20T10:00:00.000Z',
      strategies: Array.from({ length: 4 }, (_, i) => strategy(i)),
      variants: [{ name: 'control', weight: 1000, weightType: 'variable', stickiness: 'default' }],
    })),
    tags: Array.from({ length: 12 }, (_, i) => ({ type: 'team', value: `team-${i}` })),
    dependencies: [{ feature: 'parent-flag', enabled: true, variants: ['blue'] }],
    children: Array.from({ length: 5 }, (_, i) => `child-${i}`),
  };
}

function hostileFlag(base: Feature): Feature {
  const evil = '**bold** <img src=x onerror=alert(1)> [x](command:workbench.action.terminal.new) \u202e&amp; ' + '<'.repeat(10_000);
  const strategies = Array.from({ length: 6 }, () => ({ name: evil, title: evil, parameters: { [evil]: evil }, constraints: [{ contextName: evil, operator: 'IN', values: [evil] }] }));
  return {
    ...base,
    name: evil,
    description: evil,
    type: evil,
    environments: Array.from({ length: 30 }, () => ({ name: evil, enabled: true, lastSeenAt: evil, strategies, variants: [{ name: evil, weight: 1, payload: { type: 'json', value: evil } }] })),
    tags: Array.from({ length: 100 }, () => ({ type: evil, value: evil })),
    dependencies: Array.from({ length: 10 }, () => ({ feature: evil })),
    children: Array.from({ length: 100 }, () => evil),
    links: Array.from({ length: 20 }, () => ({ url: `https://evil.example/${'a'.repeat(1000)}`, title: evil })),
  };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

function measure(name: string, fn: () => string, iterations: number, warmup: number): CaseResult {
  let chars = 0;
  for (let i = 0; i < warmup; i++) chars = fn().length;
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = process.hrtime.bigint();
    const out = fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1000);
    chars = out.length;
  }
  samples.sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 100) / 100;
  return {
    name,
    median: r(percentile(samples, 0.5)),
    p99: r(percentile(samples, 0.99)),
    max: r(samples[samples.length - 1]!),
    mean: r(samples.reduce((s, x) => s + x, 0) / samples.length),
    chars,
  };
}

export async function runHoverContentBench(options: HoverContentBenchOptions = {}): Promise<HoverContentBenchResult> {
  const iterations = options.iterations ?? 5_000;
  const warmup = options.warmup ?? 500;
  const log = options.log ?? true;
  const outFile = options.outFile === undefined ? path.join(__dirname, 'results', 'hoverContent.json') : options.outFile;

  const details = featureSchema.parse(fixture('feature-7.5.1.json'));
  const summary = featureSearchSchema.parse(fixture('search-page.json')).features[0] as FeatureSummary;
  const heavy = heavyFlag(details);
  const hostile = hostileFlag(details);
  const hostileSummary: FeatureSummary = { ...summary, name: hostile.name, description: hostile.description };

  // A 10,000-flag catalog holding the seeded flag, for the whole-hover case.
  const others: FeatureSummary[] = Array.from({ length: 9_999 }, (_, i) => ({ ...summary, name: `area-${i % 97}-feature-${i}` }));
  const catalog = new Catalog([summary, ...others]);
  const index = new FlagNameIndex(catalog.names());
  const cachedDetails = new Map([[summary.name, details]]);
  const line = "    if (unleash.isEnabled('new-checkout-flow', { userId: user.id })) {";
  const column = line.indexOf('checkout');

  const render = (matches: HoverMatch[]) => () => hoverMarkdown({ matches, sourceLabel: HOST, webUrl, now: NOW });
  const cases = [
    measure('seeded flag, with details', render([{ summary, details }]), iterations, warmup),
    measure('seeded flag, summary only', render([{ summary }]), iterations, warmup),
    measure('heavy flag (12 env × 4 strategies)', render([{ summary, details: heavy }]), iterations, warmup),
    measure('hostile flag (10k strings everywhere)', render([{ summary: hostileSummary, details: hostile }]), Math.max(1, Math.floor(iterations / 5)), Math.max(1, Math.floor(warmup / 5))),
    measure(
      'whole hover: find + lookup + markdown (10k flags)',
      () => {
        const match = findFlagAt(line, column, index);
        if (!match) throw new Error('the seeded flag was not recognised');
        const matches = catalog.byName(match.name).map((s) => ({ summary: s, details: cachedDetails.get(s.name) }));
        return hoverMarkdown({ matches, sourceLabel: HOST, webUrl, now: NOW });
      },
      iterations,
      warmup,
    ),
  ];

  const result: HoverContentBenchResult = {
    name: 'hoverContent',
    timestamp: new Date().toISOString(),
    node: process.version,
    iterations,
    cases,
  };
  if (outFile !== false) {
    await mkdir(path.dirname(outFile), { recursive: true });
    await writeFile(outFile, JSON.stringify(result, null, 2) + '\n');
    result.outFile = outFile;
  }
  if (log) {
    const fmt = (x: number) => x.toFixed(2).padStart(10);
    console.log(`hover content bench: ${iterations} calls per case (hostile: ${Math.floor(iterations / 5)}), node ${process.version}`);
    console.log(`${'µs per hover markdown'.padEnd(52)}${'median'.padStart(10)}${'p99'.padStart(10)}${'max'.padStart(10)}${'chars'.padStart(10)}`);
    for (const c of cases) console.log(`${c.name.padEnd(52)}${fmt(c.median)}${fmt(c.p99)}${fmt(c.max)}${String(c.chars).padStart(10)}`);
    if (result.outFile) console.log(`wrote ${path.relative(process.cwd(), result.outFile)}`);
  }
  return result;
}

function parseArgs(argv: readonly string[]): HoverContentBenchOptions {
  const opts: HoverContentBenchOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i]!.replace(/^--/, '');
    if (key === 'no-write') opts.outFile = false;
    else if (key === 'out') opts.outFile = argv[++i];
    else if (key === 'iterations' || key === 'warmup') {
      const value = Number(argv[++i]);
      if (!Number.isFinite(value) || value < 1) throw new Error(`--${key} needs a positive number`);
      opts[key] = value;
    } else throw new Error(`unknown option ${argv[i]}`);
  }
  return opts;
}

if (require.main === module) {
  runHoverContentBench(parseArgs(process.argv.slice(2))).catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
