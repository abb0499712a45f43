/**
 * Loads the code under test (bench/subject.ts): bundled with esbuild as the extension ships (default), or the
 * TypeScript source as tsx runs it (`--source`).
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { bundleOptions, workerBuild } from '../esbuild';

export type Subject = typeof import('./subject');

interface LoadedSubject {
  subject: Subject;
  /** 'bundle' (esbuild, minified, as `npm run package`) or 'source' (tsx). */
  form: 'bundle' | 'source';
  buildMs?: number;
  /** The worker thread's script the subject's WorkerJobs start: dist/worker.js as it ships, or the source under tsx. */
  worker: { script: string; eval: boolean };
}

/**
 * Bundles bench/subject.ts of the checkout at `root` (this one unless told) with the options of esbuild.js into
 * `outfile`, and loads it. `minified: false` keeps the functions' names (a CPU profile's).
 */
export async function bundleSubject(outfile: string, options: { minified: boolean; root?: string }): Promise<Subject> {
  const root = options.root ?? path.join(__dirname, '..');
  await build({ ...bundleOptions(options.minified), entryPoints: [path.join(root, 'bench', 'subject.ts')], outfile, absWorkingDir: root });
  return (await import(pathToFileURL(outfile).href)) as Subject;
}

export async function loadSubject(form: 'bundle' | 'source', outDir: string): Promise<LoadedSubject> {
  if (form === 'source') {
    const source = path.join(__dirname, '..', 'src', 'worker.ts');
    return { subject: await import('./subject'), form, worker: { script: `require('tsx/cjs'); require(${JSON.stringify(source)});`, eval: true } };
  }
  const started = performance.now();
  const subject = await bundleSubject(path.join(outDir, 'subject.js'), { minified: true });
  await build({ ...workerBuild(true, outDir), absWorkingDir: path.join(__dirname, '..'), logLevel: 'silent' });
  return { subject, form, buildMs: performance.now() - started, worker: { script: path.join(outDir, 'worker.js'), eval: false } };
}
