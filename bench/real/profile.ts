/**
 * A CPU profile of `exportToFile()` against the real server: the extension's code bundled like the shipped one but
 * NOT minified (so functions keep their names), profiled in this process with the inspector (the server is another
 * process: its time shows here as idle). Reports self time by function, the inclusive time of the export's steps,
 * and the time by area (module of the bundle, JSON, GC).
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { Session, type Profiler } from 'node:inspector';
import * as path from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { Pool } from 'undici';
import type { Subject } from '../subject-build';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { bundleOptions } = require('../../esbuild') as { bundleOptions(minified: boolean): BuildOptions };

export interface ExportProfile {
  flags: number;
  runs: number;
  /** Wall time of the profiled runs, ms. */
  wallMs: number;
  /** Time this process was idle (waiting for the server), ms. */
  idleMs: number;
  /** Self time by function, the top entries: `| function | module | self ms | % of busy |`. */
  top: Array<{ fn: string; module: string; selfMs: number; percent: number }>;
  /** Inclusive time of the export's steps (any sample with the function on its stack). */
  steps: Array<{ fn: string; ms: number; percent: number }>;
  areas: Array<{ area: string; ms: number; percent: number }>;
  table: string;
}

const STEPS = ['exportToFile', 'exportFeatures', 'postExport', 'parse', 'serializeExport', 'canonicalExport', 'stringify', 'exportSummary', 'replaceFileAtomic', 'readRegularFile'];

/** The module (`src/model/export/exportLayout.ts`, `node_modules/zod/…`) that line `line` (0-based) of the bundle belongs to. */
function moduleIndex(bundle: string): (line: number) => string {
  const marks: Array<[number, string]> = [];
  bundle.split('\n').forEach((text, i) => {
    // esbuild marks each module with its path (node_modules through the symlink: `../main/node_modules/zod/…`).
    const m = /^\/\/ (\S+\.(?:ts|js|mjs|cjs|json))$/.exec(text);
    if (!m) return;
    const file = m[1]!;
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
    marks.push([i, pkg ? `node_modules/${pkg[1]}` : file.replace(/^(\.\.\/)+/, '')]);
  });
  return (line) => {
    let found = '';
    for (const [at, name] of marks) {
      if (at > line) break;
      found = name;
    }
    return found;
  };
}

function areaOf(fn: string, module: string, url: string): string {
  if (fn === '(garbage collector)') return 'GC';
  if (fn === '(program)') return 'V8 other';
  if (fn === 'parse' && !url) return 'JSON.parse';
  if (fn === 'stringify' && !url) return 'JSON.stringify';
  if (module.startsWith('node_modules/zod')) return 'zod';
  if (module.startsWith('node_modules/undici')) return 'undici';
  if (module.startsWith('src/')) return module;
  if (url.startsWith('node:')) return 'node internals';
  if (!url) return `native (${fn})`;
  return module || 'other';
}

export async function profileExport(options: { url: string; token: string; outDir: string; log: (line: string) => void; runs?: number }): Promise<ExportProfile> {
  const outfile = path.join(options.outDir, 'subject-profile.js');
  await build({ ...bundleOptions(false), minify: false, entryPoints: [path.join(__dirname, '..', 'subject.ts')], outfile });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const S = require(outfile) as Subject;
  const bundleUrl = `file://${outfile}`;
  const moduleOf = moduleIndex(fs.readFileSync(outfile, 'utf8'));
  const dispatcher = new Pool(new URL(options.url).origin, { connections: 8, keepAliveTimeout: 10_000 });
  const client = new S.UnleashClient({ baseUrl: options.url, getToken: () => options.token, timeoutMs: 180_000, dispatcher });
  const folder = await fsp.mkdtemp(path.join(options.outDir, 'profile-export-'));
  const file = path.join(folder, '.unleash', 'development.json');
  const runs = options.runs ?? 3;
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object): Promise<T> =>
    new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T))));
  try {
    const once = async () => {
      await fsp.rm(file, { force: true });
      return S.exportToFile({ client, environment: 'development', scope: { kind: 'all' }, folder });
    };
    const warm = await once();
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 200 });
    await post('Profiler.start');
    const started = performance.now();
    for (let i = 0; i < runs; i++) await once();
    const wallMs = performance.now() - started;
    const { profile } = await post<{ profile: Profiler.Profile }>('Profiler.stop');
    await post('Profiler.disable');

    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const parent = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    const self = new Map<number, number>();
    const inclusive = new Map<string, number>();
    const samples = profile.samples ?? [];
    const deltas = profile.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i++) {
      const id = samples[i]!;
      const dt = (deltas[i + 1] ?? deltas[i] ?? 0) / 1000; // µs → ms; a sample's time is the gap to the next one
      self.set(id, (self.get(id) ?? 0) + dt);
      const names = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const frame = nodes.get(at)!.callFrame;
        if (STEPS.includes(frame.functionName) && (frame.url === bundleUrl || (frame.functionName === 'stringify' && !frame.url) || (frame.functionName === 'parse' && frame.url === bundleUrl))) {
          names.add(frame.functionName);
        }
      }
      for (const name of names) inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
    }
    const byFunction = new Map<string, { fn: string; module: string; selfMs: number; area: string }>();
    let idleMs = 0;
    for (const [id, ms] of self) {
      const frame = nodes.get(id)!.callFrame;
      if (frame.functionName === '(idle)') {
        idleMs += ms;
        continue;
      }
      const module = frame.url === bundleUrl ? moduleOf(frame.lineNumber) : frame.url.replace(/^.*\/node_modules\//, 'node_modules/');
      const fn = frame.functionName || '(anonymous)';
      const key = `${fn}@${module}:${frame.url === bundleUrl ? frame.lineNumber + 1 : ''}`;
      const entry = byFunction.get(key) ?? { fn: `${fn}${frame.url === bundleUrl ? ` (bundle line ${frame.lineNumber + 1})` : ''}`, module: module || frame.url || 'native', selfMs: 0, area: areaOf(fn, module, frame.url) };
      entry.selfMs += ms;
      byFunction.set(key, entry);
    }
    const busy = [...byFunction.values()].reduce((a, b) => a + b.selfMs, 0);
    const pct = (ms: number) => Math.round((ms / busy) * 1000) / 10;
    const top = [...byFunction.values()]
      .sort((a, b) => b.selfMs - a.selfMs)
      .slice(0, 15)
      .map((e) => ({ fn: e.fn, module: e.module, selfMs: Math.round(e.selfMs / runs), percent: pct(e.selfMs) }));
    const areas = new Map<string, number>();
    for (const e of byFunction.values()) areas.set(e.area, (areas.get(e.area) ?? 0) + e.selfMs);
    const areaList = [...areas].sort((a, b) => b[1] - a[1]).map(([area, ms]) => ({ area, ms: Math.round(ms / runs), percent: pct(ms) }));
    const steps = STEPS.filter((fn) => inclusive.has(fn)).map((fn) => ({ fn, ms: Math.round(inclusive.get(fn)! / runs), percent: pct(inclusive.get(fn)!) }));
    const table = [
      `per run: wall ${Math.round(wallMs / runs)} ms, busy ${Math.round(busy / runs)} ms, idle (waiting for the server) ${Math.round(idleMs / runs)} ms`,
      `inclusive (per run): ${steps.map((s) => `${s.fn} ${s.ms} ms`).join(', ')}`,
      '| function | module | self ms per run | % of busy |',
      '|---|---|---|---|',
      ...top.map((e) => `| ${e.fn} | ${e.module} | ${e.selfMs} | ${e.percent} |`),
    ].join('\n');
    options.log(`  profiled ${runs} exports of ${warm.flags} flags`);
    return { flags: warm.flags, runs, wallMs: Math.round(wallMs / runs), idleMs: Math.round(idleMs / runs), top, steps, areas: areaList, table };
  } finally {
    session.disconnect();
    await client.close();
    await fsp.rm(folder, { recursive: true, force: true });
  }
}
