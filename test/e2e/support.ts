/**
 * What only the e2e tests need: the extension as code-server installs it, where the suite bundle and screenshots go,
 * and the activate() figure for the benchmark. The editor, the .vsix and the demo workspace are in tools/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRunDirs, installExtension } from '../../tools/editor/codeServer';
import type { Log } from '../../tools/log';
import { EXTENSION_ID, ROOT } from '../../tools/vsix';

/** Git-ignored build output of the e2e layer (the suite bundle). */
export const OUT_DIR = path.join(ROOT, 'out', 'e2e');
export const SCREENSHOTS_DIR = path.join(ROOT, 'docs', 'screenshots');
const BENCH_RESULTS = path.join(ROOT, 'bench', 'results');

// ------------------------------------------------------------------------------------------------ the extension

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
