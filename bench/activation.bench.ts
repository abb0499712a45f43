/**
 * Activation and the first need of the flags, as windows meet them: the production bundles (esbuild.js: extension.js,
 * and core.js loaded on first need) in fresh Node processes over the 'vscode' stand-in
 * (bench/activation.child.ts), one process per window, so every window starts with an empty module cache:
 *   activation   loading the bundle (its first statement to its last) and activate() (ExtensionApi.activationMs), the
 *                figure VS Code counts, and whether core.js (undici, zod) was loaded before anything needed the flags;
 *   first need   `store.load()` (what the Flags view, a hover on a flag name or a command does): with a server of
 *                1,000 flags on 127.0.0.1, to the first listing request it receives and to the flags in the store;
 *                offline, to the flags of the demo's two export files;
 *   browser      the browser build (dist/web/extension.js, esbuild.js webBuild) run with only a web worker's globals
 *                (test/support/webWorker.ts): activation the same way, and the first need to the flags of the same
 *                two files; its size, minified and gzipped.
 * Node's own modules the bundles need at start-up are loaded before the clock starts, as in an extension host. The
 * figures of the editor itself come from the e2e run (bench/results/activate.json).
 *
 *   npx tsx bench/activation.bench.ts [--quick]
 */
import { execFile } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { bundleOptions, extensionBuild, webBuild } from '../esbuild';
import type { WindowResult } from './activation.child';
import { round, stats, type Stats } from './measure';

const ROOT = path.resolve(__dirname, '..');

export interface ActivationBenchResult {
  name: 'activation';
  /** Windows per mode (server, offline). */
  windows: number;
  /** The 1-minute load average before and after the runs. */
  loadAverage: { before: number; after: number };
  /** Every window, both modes. */
  activation: Stats;
  bundleLoad: Stats;
  /** Windows where core.js was loaded before the first need (none, when activation costs nothing). */
  coreLoadedBeforeNeed: number;
  server: { needToRequest: Stats; systemCertificates: Stats; needToFlags: Stats; flags: number };
  offline: { needToFlags: Stats; flags: number };
  /** The browser build, in as many windows. */
  web: { activation: Stats; bundleLoad: Stats; needToFlags: Stats; flags: number; bytes: number; gzipBytes: number };
}

function runWindow(child: string, dist: string, folder: string, mode: WindowResult['mode']): Promise<WindowResult> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [child, dist, folder, mode], { timeout: 60_000, maxBuffer: 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`the ${mode} window failed: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as WindowResult);
    });
  });
}

export async function runActivationBench(options: { quick?: boolean; log?: boolean } = {}): Promise<ActivationBenchResult> {
  const windows = options.quick ? 3 : 11;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unleash-activation-bench-'));
  try {
    const dist = path.join(dir, 'dist');
    await build({ ...extensionBuild(true, dist), absWorkingDir: ROOT, logLevel: 'warning' });
    await build({ ...webBuild(true, path.join(dist, 'web')), absWorkingDir: ROOT, logLevel: 'warning' });
    const webBundle = fs.readFileSync(path.join(dist, 'web', 'extension.js'));
    const child = path.join(dir, 'child.js');
    await build({ ...bundleOptions(false), sourcemap: false, entryPoints: [path.join(__dirname, 'activation.child.ts')], outfile: child, absWorkingDir: ROOT });
    const folder = path.join(dir, 'workspace');
    fs.cpSync(path.join(ROOT, 'demo', 'workspace', '.unleash'), path.join(folder, '.unleash'), { recursive: true });

    const before = os.loadavg()[0] ?? 0;
    const results: WindowResult[] = [];
    for (let i = 0; i < windows; i++) {
      for (const mode of ['server', 'offline', 'web'] as const) {
        const result = await runWindow(child, dist, folder, mode);
        results.push(result);
        if (options.log) console.log(`  ${mode}: activation ${result.activationMs.toFixed(1)} ms, first need → flags ${result.needToFlagsMs.toFixed(1)} ms`);
      }
    }
    const of = (mode: WindowResult['mode']) => results.filter((result) => result.mode === mode);
    const desktop = results.filter((result) => result.mode !== 'web');
    return {
      name: 'activation',
      windows,
      loadAverage: { before: round(before, 2), after: round(os.loadavg()[0] ?? 0, 2) },
      activation: stats(desktop.map((result) => result.activationMs)),
      bundleLoad: stats(desktop.map((result) => result.bundleLoadMs)),
      coreLoadedBeforeNeed: desktop.filter((result) => result.coreLoadedBeforeNeed).length,
      server: {
        needToRequest: stats(of('server').map((result) => result.needToRequestMs ?? Number.NaN)),
        systemCertificates: stats(of('server').map((result) => result.systemCertificatesMs ?? 0)),
        needToFlags: stats(of('server').map((result) => result.needToFlagsMs)),
        flags: of('server')[0]?.flags ?? 0,
      },
      offline: { needToFlags: stats(of('offline').map((result) => result.needToFlagsMs)), flags: of('offline')[0]?.flags ?? 0 },
      web: {
        activation: stats(of('web').map((result) => result.activationMs)),
        bundleLoad: stats(of('web').map((result) => result.bundleLoadMs)),
        needToFlags: stats(of('web').map((result) => result.needToFlagsMs)),
        flags: of('web')[0]?.flags ?? 0,
        bytes: webBundle.length,
        gzipBytes: gzipSync(webBundle, { level: 9 }).length,
      },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The result in a few lines, as run.ts and the command line print it. */
export function activationLines(result: ActivationBenchResult): string[] {
  const range = (s: Stats) => `${s.median.toFixed(1)} ms (${s.min.toFixed(1)}–${s.max.toFixed(1)})`;
  return [
    `activation (bundle + activate()), ${result.windows * 2} windows: ${range(result.activation)}, of it loading the bundle ${range(result.bundleLoad)}; ` +
      `core.js loaded before the first need in ${result.coreLoadedBeforeNeed} of them`,
    `first need → first listing request (server, ${result.server.flags.toLocaleString('en-US')} flags): ${range(result.server.needToRequest)}, ` +
      `of it reading the system's certificates ${range(result.server.systemCertificates)}${process.env.SSL_CERT_DIR ? ` (SSL_CERT_DIR=${process.env.SSL_CERT_DIR}: every hashed file read)` : ''}; ` +
      `→ flags in the store ${range(result.server.needToFlags)}`,
    `first need → flags in the store (offline, ${result.offline.flags} flags of 2 export files): ${range(result.offline.needToFlags)}`,
    `browser build (${(result.web.bytes / 1024).toFixed(1)} KB, ${(result.web.gzipBytes / 1024).toFixed(1)} KB gzipped), a web worker's globals only, ${result.windows} windows: ` +
      `activation ${range(result.web.activation)}, of it loading the bundle ${range(result.web.bundleLoad)}; ` +
      `first need → flags in the store (${result.web.flags} flags of 2 export files) ${range(result.web.needToFlags)}`,
    `load average ${result.loadAverage.before} before, ${result.loadAverage.after} after`,
  ];
}

if (require.main === module) {
  runActivationBench({ quick: process.argv.includes('--quick'), log: true }).then(
    (result) => {
      for (const line of activationLines(result)) console.log(line);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
