/**
 * Loads the code under test (bench/subject.ts): bundled with esbuild as the extension ships (default), or the
 * TypeScript source as tsx runs it (`--source`).
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { bundleOptions } from '../esbuild';

export type Subject = typeof import('./subject');

interface LoadedSubject {
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
  const subject = (await import(pathToFileURL(outfile).href)) as Subject;
  return { subject, form, buildMs: performance.now() - started };
}
