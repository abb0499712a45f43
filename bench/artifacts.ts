/**
 * What the benchmark reads rather than times: the size of the bundle and of the .vsix (packaged with
 * `npm run package` when dist/ has none), and activate() time as the end-to-end run recorded it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

export interface PackageSizes {
  bundlePath: string;
  bundleBytes: number;
  bundleModified: string;
  vsixPath: string;
  vsixBytes: number;
  vsixModified: string;
  /** Uncompressed size of extension/dist/extension.js inside the .vsix (what ships). */
  bundleInVsixBytes?: number;
  /** Entries in the .vsix. */
  vsixFiles?: number;
  /** True when this run packaged (dist/ had no .vsix, or --package). */
  packagedNow: boolean;
  /** Why packaging failed, when it was tried and failed (the sizes are then those of the files already there). */
  packageError?: string;
  /** Files under src/ (or the manifest) changed after the .vsix was built: its size may be out of date. */
  staleSources: string[];
}

/** Sizes of dist/extension.js and the .vsix; runs `npm run package` first when either is missing or `force`. */
export function packageSizes(root: string, force = false): PackageSizes {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { name: string; version: string };
  const dist = path.join(root, 'dist');
  const bundlePath = path.join(dist, 'extension.js');
  const expected = path.join(dist, `${manifest.name}-${manifest.version}.vsix`);
  const findVsix = (): string | undefined => {
    if (existsSync(expected)) return expected;
    if (!existsSync(dist)) return undefined;
    const any = readdirSync(dist).filter((name) => name.endsWith('.vsix')).sort();
    return any.length ? path.join(dist, any[any.length - 1]!) : undefined;
  };
  let packagedNow = false;
  let packageError: string | undefined;
  if (force || !existsSync(bundlePath) || !findVsix()) {
    console.log('Packaging the extension (npm run package)…');
    try {
      execFileSync('npm', ['run', '--silent', 'package'], { cwd: root, stdio: 'inherit' });
      packagedNow = true;
    } catch (error) {
      // A type error elsewhere in the tree must not lose the other figures: read what dist/ holds, and say so.
      packageError = error instanceof Error ? error.message.split('\n')[0] : String(error);
      console.log(`npm run package failed (${packageError}); reading the files already in dist/.`);
    }
  }
  const vsixPath = findVsix();
  if (!vsixPath || !existsSync(bundlePath)) throw new Error(`no .vsix or bundle in dist/${packageError ? ` (npm run package failed: ${packageError})` : ''}`);
  const bundle = statSync(bundlePath);
  const vsix = statSync(vsixPath);
  const entries = zipEntries(readFileSync(vsixPath));
  return {
    bundlePath: path.relative(root, bundlePath),
    bundleBytes: bundle.size,
    bundleModified: bundle.mtime.toISOString(),
    vsixPath: path.relative(root, vsixPath),
    vsixBytes: vsix.size,
    vsixModified: vsix.mtime.toISOString(),
    bundleInVsixBytes: entries?.find((entry) => entry.name === 'extension/dist/extension.js')?.size,
    vsixFiles: entries?.length,
    packagedNow,
    packageError,
    staleSources: newerThan(root, ['src', 'package.json', 'package.nls.json', 'esbuild.js'], vsix.mtimeMs),
  };
}

/** Paths (relative to root) under `entries` modified after `time`. */
function newerThan(root: string, entries: string[], time: number): string[] {
  const found: string[] = [];
  const visit = (relative: string): void => {
    const full = path.join(root, relative);
    if (!existsSync(full)) return;
    const stat = statSync(full);
    if (stat.isDirectory()) {
      for (const name of readdirSync(full)) visit(path.join(relative, name));
    } else if (stat.mtimeMs > time) {
      found.push(relative);
    }
  };
  for (const entry of entries) visit(entry);
  return found.sort();
}

/** Names and uncompressed sizes from a zip's central directory; undefined when it cannot be read. */
function zipEntries(zip: Buffer): Array<{ name: string; size: number }> | undefined {
  for (let eocd = zip.length - 22; eocd >= Math.max(0, zip.length - 65_557); eocd--) {
    if (zip.readUInt32LE(eocd) !== 0x06054b50) continue;
    const count = zip.readUInt16LE(eocd + 10);
    let at = zip.readUInt32LE(eocd + 16);
    const entries: Array<{ name: string; size: number }> = [];
    for (let i = 0; i < count; i++) {
      if (zip.readUInt32LE(at) !== 0x02014b50) return undefined;
      const size = zip.readUInt32LE(at + 24);
      const nameLength = zip.readUInt16LE(at + 28);
      const extra = zip.readUInt16LE(at + 30);
      const comment = zip.readUInt16LE(at + 32);
      entries.push({ name: zip.toString('utf8', at + 46, at + 46 + nameLength), size });
      at += 46 + nameLength + extra + comment;
    }
    return entries;
  }
  return undefined;
}

export interface ActivateTime {
  /** Milliseconds (the median when the file lists several runs). */
  ms: number;
  runs: number;
  source: string;
  recordedAt?: string;
  /** Where it was measured (the e2e run says which editor build and Node). */
  host?: string;
}

/**
 * activate() time from bench/results/activate.json, as the e2e run writes it from the `Activated in N ms` log line
 * (test/e2e/support.ts recordActivation: `{recordedAt, host, medianMs, runs: [{phase, ms}]}`).
 * Also accepted: `{"activateMs": N}`, `{"ms": N}`, `{"runs": [N, …]}` / `{"samples": [N, …]}`, a bare number or
 * array, or the log line itself (`"Activated in 12.3 ms."`) anywhere in the file. Undefined when absent.
 */
export function activateTime(resultsDir: string): ActivateTime | undefined {
  const file = path.join(resultsDir, 'activate.json');
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  const source = path.relative(process.cwd(), file);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  const record = (data && typeof data === 'object' && !Array.isArray(data) ? data : {}) as Record<string, unknown>;
  const recordedAt = [record.timestamp, record.date, record.recordedAt].find((v): v is string => typeof v === 'string');
  const numbers = (value: unknown): number[] =>
    Array.isArray(value) ? value.flatMap((v) => (typeof v === 'number' ? [v] : typeof v === 'object' && v ? numbers((v as Record<string, unknown>).ms ?? (v as Record<string, unknown>).activateMs) : [])) : typeof value === 'number' ? [value] : [];
  let samples = Array.isArray(data) || typeof data === 'number' ? numbers(data) : [];
  const runs = numbers(record.runs);
  for (const key of ['medianMs', 'activateMs', 'activationMs', 'activatedInMs', 'ms', 'median', 'runs', 'samples']) {
    if (samples.length) break;
    samples = numbers(record[key]);
  }
  if (!samples.length) {
    samples = [...text.matchAll(/Activated in ([\d.]+) ms/g)].map((m) => Number(m[1]));
  }
  samples = samples.filter((n) => Number.isFinite(n));
  if (!samples.length) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const ms = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const host = typeof record.host === 'string' ? record.host : undefined;
  return { ms, runs: Math.max(runs.length, samples.length), source, recordedAt, host };
}
