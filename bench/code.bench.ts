/**
 * Flags where code is written:
 * - completion: `FlagCompletions.items()` for one request (every name, detail, ranking), p99 over typed prefixes,
 *   against the catalog size (1,000 / 10,000 flags, or `--flags N`); and the once-per-catalog build of the per-flag text;
 * - diagnostics: `FlagAnalyzer.analyse()` of a 5,000-line file holding 1,000 flag references (5 % typos, the rest
 *   known, some stale/archived), 10,000 flags: warm (the analyzer of the current catalog, what each edit costs)
 *   and cold (a new analyzer: name index, suggester and "did you mean" searches, what the first analysis after a
 *   refresh costs). The baseline is the naive per-line scan `names.filter(n => line.includes(n))`.
 * - inlay hints: `FlagHints.line()` over the same 5,000-line file (the whole file per request; VS Code asks for the
 *   visible range), warm and cold (a new FlagHints: the name index);
 * - references: `findFlagUsages()` of one flag across a 2,000-file workspace written to a temporary folder, each
 *   file read from disk as Find Usages and Shift+F12 read them.
 *
 *   npx tsx bench/code.bench.ts [--quick] [--no-write]
 *
 * Imports the TypeScript source (tsx): figures are, if anything, pessimistic. Nothing is asserted.
 */
import { TimeSlices } from '../src/base/timeSlices';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { FeatureSummary } from '../src/api/schemas';
import { Catalog } from '../src/model/store/catalog';
import { FlagCompletions } from '../src/model/code/flagCompletion';
import { FlagAnalyzer } from '../src/model/code/flagDiagnostics';
import { FlagHints } from '../src/model/code/flagHints';
import { FlagNameIndex } from '../src/model/code/flagNameIndex';
import { findFlagUsages } from '../src/model/code/flagUsages';
import { generateDataset, mulberry32 } from './data';
import { machine, round } from './measure';

export interface Percentiles {
  median: number;
  p99: number;
  max: number;
}

export interface CodeBenchResult {
  name: 'code';
  completion: Array<{ flags: number; items: number; build: Percentiles; catalogSetupMs: number }>;
  diagnostics: {
    flags: number;
    lines: number;
    references: number;
    diagnostics: number;
    warm: Percentiles;
    cold: Percentiles;
    naive: Percentiles;
  };
  inlayHints: { flags: number; lines: number; hints: number; warm: Percentiles; cold: Percentiles };
  references: { files: number; lines: number; uses: number; search: Percentiles };
}

function percentiles(samples: number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: round(at(0.5), 3), p99: round(at(0.99), 3), max: round(sorted[sorted.length - 1]!, 3) };
}

function time(fn: () => unknown): number {
  const started = performance.now();
  fn();
  return performance.now() - started;
}

function catalogOf(flags: number): Catalog {
  const items = generateDataset(flags).searchItems as unknown as FeatureSummary[];
  return new Catalog(items);
}

/** A 5,000-line file: code lines, and `references` SDK calls spread over it (5 % with a typo). */
function sourceFile(names: readonly string[], lines: number, references: number): string {
  const rnd = mulberry32(42);
  const calls = ['unleash.isEnabled', 'client.getVariant', 'useFlag', 'is_enabled', 'IsEnabled'];
  const out: string[] = [];
  const every = Math.floor(lines / references);
  for (let i = 0; i < lines; i++) {
    if (i % every === 0 && out.length / every < references) {
      let name = names[Math.floor(rnd() * names.length)]!;
      if (rnd() < 0.05) name = `${name.slice(0, -2)}${name.slice(-1)}x`; // a typo
      out.push(`  if (${calls[i % calls.length]}('${name}', context)) { doSomething(${i}); }`);
    } else {
      out.push(`  const value${i} = compute("label ${i}", options.items[${i % 17}]); // note: don't touch`);
    }
  }
  return out.join('\n');
}

/**
 * One flag's uses across a workspace of 2,000 files of 100 lines (every 10th file uses the flag once, every file
 * names other flags), written to a temporary folder and read back from disk per search, as Find Usages reads them.
 */
async function referencesAcrossWorkspace(names: readonly string[], rounds: number): Promise<CodeBenchResult['references']> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'unleash-bench-refs-'));
  try {
    const wanted = names[0]!;
    for (let f = 0; f < 2_000; f++) {
      const body = sourceFile(names, 100, 5).split('\n');
      if (f % 10 === 0) body[50] = `  if (unleash.isEnabled('${wanted}', context)) { go(); }`;
      await writeFile(path.join(dir, `file${f}.ts`), body.join('\n'));
    }
    const index = new FlagNameIndex(names);
    const samples: number[] = [];
    let uses = 0;
    for (let i = 0; i < rounds + 1; i++) {
      const started = performance.now();
      uses = 0;
      for (const file of await readdir(dir)) uses += findFlagUsages(await readFile(path.join(dir, file), 'utf8'), wanted, index).length;
      if (i >= 1) samples.push(performance.now() - started);
    }
    return { files: 2_000, lines: 200_000, uses, search: percentiles(samples) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function runCodeBench(options: { quick?: boolean; log?: boolean; flags?: number } = {}): Promise<CodeBenchResult> {
  const large = options.flags ?? 10_000;
  const requests = options.quick ? 100 : 400;
  const prefixes = ['', 'c', 'che', 'checkout', 'pay', 'zz', 'team', 'new-'];
  const completion: CodeBenchResult['completion'] = [];
  for (const flags of [1_000, large]) {
    const catalog = catalogOf(flags);
    let completions = new FlagCompletions(catalog);
    const setups: number[] = [];
    for (let i = 0; i < (options.quick ? 3 : 10); i++) setups.push(time(() => (completions = new FlagCompletions(catalog))));
    const recent = [...catalog.names()].slice(0, 10);
    const samples: number[] = [];
    let items = 0;
    for (let i = 0; i < requests + 50; i++) {
      const typed = prefixes[i % prefixes.length]!;
      const spent = time(() => (items = completions.list({ typed, quote: "'" }, { preferredProjects: new Set(['default']), recent }).items.length));
      if (i >= 50) samples.push(spent);
    }
    completion.push({ flags, items, build: percentiles(samples), catalogSetupMs: round(percentiles(setups).median, 2) });
  }

  const catalog = catalogOf(large);
  const names = [...catalog.names()];
  const text = sourceFile(names, 5_000, 1_000);
  const analysis = { sourceLabel: 'unleash.example.com', sourceKind: 'server' as const };
  const analyzer = new FlagAnalyzer(catalog);
  const rounds = options.quick ? 10 : 40;
  let found = 0;
  const warm: number[] = [];
  const cold: number[] = [];
  const naive: number[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < rounds + 3; i++) {
    // Unsliced: the CPU the analysis costs (in the editor it yields every 10 ms).
    let started = performance.now();
    found = (await analyzer.analyse(text, analysis, TimeSlices.unsliced())).length;
    const w = performance.now() - started;
    started = performance.now();
    await new FlagAnalyzer(catalog).analyse(text, analysis, TimeSlices.unsliced());
    const c = performance.now() - started;
    const n = i < Math.min(rounds, 8) + 3 ? time(() => lines.map((line) => names.filter((name) => line.includes(name)))) : undefined;
    if (i >= 3) {
      warm.push(w);
      cold.push(c);
      if (n !== undefined) naive.push(n);
    }
  }
  const references = lines.filter((line) => line.includes("', context)")).length;

  // Inlay hints for the whole file: warm (the FlagHints of the current catalog) and cold (a new one).
  const hints = new FlagHints(catalog);
  const hintsOf = (of: FlagHints) => lines.reduce((count, line, i) => count + of.line(line, i).length, 0);
  let hinted = 0;
  const hintWarm: number[] = [];
  const hintCold: number[] = [];
  for (let i = 0; i < rounds * 5 + 3; i++) {
    const w = time(() => (hinted = hintsOf(hints)));
    if (i >= 3) hintWarm.push(w);
    if (i < rounds + 3) {
      const c = time(() => hintsOf(new FlagHints(catalog)));
      if (i >= 3) hintCold.push(c);
    }
  }

  const usages = await referencesAcrossWorkspace(names, options.quick ? 3 : 10);
  const result: CodeBenchResult = {
    name: 'code',
    completion,
    diagnostics: { flags: large, lines: lines.length, references, diagnostics: found, warm: percentiles(warm), cold: percentiles(cold), naive: percentiles(naive) },
    inlayHints: { flags: large, lines: lines.length, hints: hinted, warm: percentiles(hintWarm), cold: percentiles(hintCold) },
    references: usages,
  };
  if (options.log !== false) {
    for (const c of result.completion) {
      console.log(`completion, ${c.flags} flags: ${c.items} items; list build median ${c.build.median} ms, p99 ${c.build.p99} ms; per-catalog setup ${c.catalogSetupMs} ms`);
    }
    const d = result.diagnostics;
    console.log(
      `diagnostics, ${d.lines} lines, ${d.references} references, ${d.flags} flags → ${d.diagnostics} diagnostics: warm median ${d.warm.median} ms, p99 ${d.warm.p99} ms; ` +
        `cold median ${d.cold.median} ms, p99 ${d.cold.p99} ms; naive scan median ${d.naive.median} ms`,
    );
    const h = result.inlayHints;
    console.log(`inlay hints, ${h.lines} lines, ${h.flags} flags → ${h.hints} hints: warm median ${h.warm.median} ms, p99 ${h.warm.p99} ms; cold median ${h.cold.median} ms, p99 ${h.cold.p99} ms`);
    const r = result.references;
    console.log(`references of one flag, ${r.files} files (${r.lines} lines) read from disk → ${r.uses} uses: median ${r.search.median} ms, p99 ${r.search.p99} ms`);
  }
  return result;
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--flags');
  void runCodeBench({ quick: argv.includes('--quick'), flags: at >= 0 ? Number(argv[at + 1]) : undefined }).then(async (result) => {
    const m = machine();
    console.log(`  ${m.cpu}, ${m.cores} cores, node ${m.node}`);
    if (!argv.includes('--no-write')) {
      const dir = path.join(__dirname, 'results');
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'code.json'), `${JSON.stringify({ ...result, machine: m, date: new Date().toISOString() }, null, 2)}\n`);
    }
  });
}
