/**
 * Loads the code under test (bench/subject.ts): bundled with esbuild as the extension ships (default), or the
 * TypeScript source as tsx runs it (`--source`).
 */
import * as path from 'node:path';
import { build, type BuildOptions } from 'esbuild';

/** The bundle options of esbuild.js (a CommonJS script), so every bundle is built alike. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { bundleOptions } = require('../esbuild') as { bundleOptions(minified: boolean): BuildOptions };

export type Subject = typeof import('./subject');

export interface LoadedSubject {
  subject: Subject;
  /** 'bundle' (esbuild, minified, as `npm run package`) or 'source' (tsx). */
  form: 'bundle' | 'source';
  buildMs?: number;
}

export async function loadSubject(form: 'bundle' | 'source', outDir: string): Promise<LoadedSubject> {
  if (form === 'source') return { subject: (await import('./subject')) as Subject, form };
  const started = performance.now();
  const outfile = path.join(outDir, 'subject.js');
  // The options of `esbuild.js --production`, with this file as the entry point.
  await build({ ...bundleOptions(true), entryPoints: [path.join(__dirname, 'subject.ts')], outfile });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const subject = require(outfile) as Subject;
  return { subject, form, buildMs: performance.now() - started };
}
