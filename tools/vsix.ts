/**
 * The packaged extension as the demo and the e2e tests install it: dist/*.vsix, built with `npm run package` (once,
 * under a lock) when it is missing or older than its sources, and handed out as a private copy.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withLock } from './lock';
import type { Log } from './log';

/** The repository. */
export const ROOT = path.resolve(__dirname, '..');

const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  publisher: string;
  version: string;
};
/** `publisher.name`, as vscode.extensions.getExtension() takes it. */
export const EXTENSION_ID = `${manifest.publisher}.${manifest.name}`;
export const VSIX_PATH = path.join(ROOT, 'dist', `${manifest.name}-${manifest.version}.vsix`);

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
    const dir = path.join(ROOT, 'out', 'vsix');
    fs.mkdirSync(dir, { recursive: true });
    const copy = path.join(dir, `${path.basename(VSIX_PATH, '.vsix')}-${process.pid}-${snapshots.length + 1}.vsix`);
    fs.copyFileSync(VSIX_PATH, copy);
    if (!snapshots.length) process.on('exit', () => snapshots.forEach((file) => fs.rmSync(file, { force: true })));
    snapshots.push(copy);
    return { path: copy, ms: Date.now() - t0, ...(why ? { built: why } : {}) };
  });
}
