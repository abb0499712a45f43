/**
 * What the e2e tests and the demo share: the host install, the packaged .vsix (built once, under a lock, when missing
 * or older than its sources), the extension as code-server installs it, the in-editor suite bundle, temporary copies
 * of the demo workspace, and the activate() figure for the benchmark.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRunDirs, installExtension } from '../../tools/editor/codeServer';

export const ROOT = path.resolve(__dirname, '..', '..');
/** Git-ignored build output of the e2e layer (suite bundle, locks). */
export const OUT_DIR = path.join(ROOT, 'out', 'e2e');
export const DEMO_WORKSPACE = path.join(ROOT, 'demo', 'workspace');
export const SCREENSHOTS_DIR = path.join(ROOT, 'docs', 'screenshots');
const BENCH_RESULTS = path.join(ROOT, 'bench', 'results');

const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  publisher: string;
  version: string;
};
/** `publisher.name`, as vscode.extensions.getExtension() takes it. */
export const EXTENSION_ID = `${manifest.publisher}.${manifest.name}`;
export const VSIX_PATH = path.join(ROOT, 'dist', `${manifest.name}-${manifest.version}.vsix`);

export type Log = (line: string) => void;

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

// ------------------------------------------------------------------------------------------------ the host

/**
 * `node tools/editor/install.mjs`: a few ms when complete, ~1.5 min the first time. Under a lock: the e2e test files
 * run in parallel, and two installs into the same folder at once would break each other. `browser: false` (the
 * demo, which only prints a URL) does not require Chromium.
 */
export async function ensureHost(options: { browser?: boolean } = {}): Promise<void> {
  const args = [path.join(ROOT, 'tools', 'editor', 'install.mjs'), ...(options.browser === false ? ['--no-browser'] : [])];
  await withLock('host-install', 900_000, async () => {
    const install = spawnSync(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    if (install.status !== 0) throw new Error(`node tools/editor/install.mjs failed (exit ${install.status ?? install.signal})`);
  });
}

// ------------------------------------------------------------------------------------------------ the .vsix

/** Files whose change makes the packaged .vsix stale. */
function sourcesOfVsix(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.push(full);
    }
  };
  walk(path.join(ROOT, 'src'));
  walk(path.join(ROOT, 'media'));
  walk(path.join(ROOT, 'scripts'));
  for (const name of ['package.json', 'package.nls.json', 'esbuild.js', 'README.md', 'CHANGELOG.md', '.vscodeignore']) {
    const file = path.join(ROOT, name);
    if (fs.existsSync(file)) files.push(file);
  }
  return files;
}

/** Why the .vsix must be (re)built, or undefined when it is current. */
export function vsixStaleness(): string | undefined {
  if (!fs.existsSync(VSIX_PATH)) return `${path.relative(ROOT, VSIX_PATH)} is missing`;
  const built = fs.statSync(VSIX_PATH).mtimeMs;
  const newer = sourcesOfVsix().find((file) => fs.statSync(file).mtimeMs > built);
  return newer ? `${path.relative(ROOT, newer)} is newer than ${path.relative(ROOT, VSIX_PATH)}` : undefined;
}

/** Runs a command in the repository; fails when it fails, or when it has not finished in 10 minutes (killed). */
function run(command: string, args: string[], log: Log, timeoutMs = 10 * 60_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    const take = (chunk: Buffer): void => {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(line);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish within ${timeoutMs / 1000} s (killed):\n${lines.slice(-40).join('\n')}`));
    }, timeoutMs);
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      for (const line of lines.slice(-5)) log(`  ${line}`);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} failed (exit ${code}):\n${lines.slice(-40).join('\n')}`));
    });
  });
}

/**
 * Runs `work` while holding a lock folder (other test files of the same `node --test` run package at the same
 * time otherwise). A lock whose owner died is taken over.
 */
async function withLock<T>(name: string, timeoutMs: number, work: () => Promise<T>): Promise<T> {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const lock = path.join(OUT_DIR, `${name}.lock`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(path.join(lock, 'pid'), { encoding: 'utf8', flag: 'a+' }) || 0);
      let alive = false;
      if (owner > 0) {
        try {
          process.kill(owner, 0);
          alive = true;
        } catch {
          alive = false;
        }
      }
      if (!alive && owner > 0) fs.rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      else await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

interface VsixResult {
  /** A private copy of dist/*.vsix taken under the lock (removed when this process exits). */
  path: string;
  /** Why it was built, or undefined when the existing one was reused. */
  built?: string;
  ms: number;
}

const snapshots: string[] = [];

/**
 * The packaged extension: `npm run package` when dist/*.vsix is missing or older than its sources. Returns a private
 * copy, so that another test file repackaging later (because someone edited src/ meanwhile) never rewrites the file
 * this one is installing.
 */
export async function ensureVsix(log: Log = () => undefined, options: { force?: boolean } = {}): Promise<VsixResult> {
  const t0 = Date.now();
  return withLock('package', 300_000, async () => {
    const why = options.force ? 'asked to repackage' : vsixStaleness();
    if (why) {
      log(`Building and packaging the extension (${why}): npm run package`);
      await run('npm', ['run', '--silent', 'package'], log);
      const still = vsixStaleness();
      if (still) throw new Error(`npm run package did not produce a current .vsix: ${still}`);
    }
    const dir = path.join(OUT_DIR, 'vsix');
    fs.mkdirSync(dir, { recursive: true });
    const copy = path.join(dir, `${path.basename(VSIX_PATH, '.vsix')}-${process.pid}-${snapshots.length + 1}.vsix`);
    fs.copyFileSync(VSIX_PATH, copy);
    if (!snapshots.length) process.on('exit', () => snapshots.forEach((file) => fs.rmSync(file, { force: true })));
    snapshots.push(copy);
    return { path: copy, ms: Date.now() - t0, ...(why ? { built: why } : {}) };
  });
}

export interface StagedExtension {
  /** The installed extension's folder: what the .vsix holds, laid out by code-server's own installer. */
  dir: string;
  ms: number;
  remove(): void;
}

/**
 * Installs the .vsix with code-server's `--install-extension` into a temporary extensions folder and returns the
 * installed extension's folder. The run() contract of VS Code only runs a test suite in an extension development
 * host, so the suite loads this folder as the extensionDevelopmentPath: what is tested is what ships, installed the
 * way a user installs it.
 */
export async function stageExtension(vsix: string, log?: Log): Promise<StagedExtension> {
  const t0 = Date.now();
  const dirs = createRunDirs('e2e-stage-');
  const remove = (): void => fs.rmSync(dirs.tmp, { recursive: true, force: true });
  try {
    await installExtension(vsix, dirs, log ? { log } : {});
    const folder = fs
      .readdirSync(dirs.extensionsDir)
      .find((name) => name.toLowerCase().startsWith(`${EXTENSION_ID.toLowerCase()}-`));
    if (!folder) throw new Error(`${EXTENSION_ID} not found in ${dirs.extensionsDir} after --install-extension`);
    const dir = path.join(dirs.extensionsDir, folder);
    if (!fs.existsSync(path.join(dir, 'dist', 'extension.js'))) throw new Error(`${dir} has no dist/extension.js`);
    return { dir, ms: Date.now() - t0, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

// ------------------------------------------------------------------------------------------------ workspaces

/** A fresh copy of demo/workspace (sources in several languages and the `.unleash/*.json` export files). */
export function copyDemoWorkspace(prefix = 'e2e-workspace-'): { dir: string; remove(): void } {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const dir = path.join(parent, 'demo-workspace');
  fs.cpSync(DEMO_WORKSPACE, dir, { recursive: true });
  return { dir, remove: () => fs.rmSync(parent, { recursive: true, force: true }) };
}

// ------------------------------------------------------------------------------------------------ results

export interface ActivationRun {
  phase: string;
  /** Activation as the extension measured it, loading the bundle included (the `Activated in N ms` figure). */
  ms: number;
  /** The part of it spent loading the bundle (from its first statement to activate()). */
  bundleLoadMs?: number;
  /** The machine's 1-minute load average when the phase's editor had activated. */
  loadAverage?: number;
}

/** Writes bench/results/activate.json (read by bench/artifacts.ts activateTime: the median of `runs[].ms`). */
export function recordActivation(runs: ActivationRun[]): string {
  const file = path.join(BENCH_RESULTS, 'activate.json');
  fs.mkdirSync(BENCH_RESULTS, { recursive: true });
  const sorted = runs.map((r) => r.ms).sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  fs.writeFileSync(
    file,
    `${JSON.stringify(
      {
        recordedAt: new Date().toISOString(),
        host: 'code-server 4.100.3 (VS Code 1.100.3), remote extension host, Node ' + process.versions.node,
        what: 'activation of the packaged extension: loading dist/extension.js (from its first statement to its last) and activate(), as it logs "Activated in N ms" (ExtensionApi.activationMs)',
        medianMs: median,
        runs,
      },
      null,
      2,
    )}\n`,
  );
  return file;
}

/** The `[suite] activate-ms=N bundle-load-ms=M` line the in-editor suite logs. */
export function activationFromLogs(logs: string[]): { ms: number; bundleLoadMs?: number } | undefined {
  for (const line of logs) {
    const m = /\[suite\] activate-ms=([\d.]+)(?: bundle-load-ms=([\d.]+))?/.exec(line);
    if (m) return { ms: Number(m[1]), ...(m[2] === undefined ? {} : { bundleLoadMs: Number(m[2]) }) };
  }
  return undefined;
}
