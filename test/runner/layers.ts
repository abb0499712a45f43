/**
 * The test layers, in the order `npm test` runs them: what each runs, where its files are, and its bounds. A bound
 * is there so that a hang becomes a failure with a name, never to judge speed (bench/ measures that): each leaves
 * room for a 2-core machine running two whole suites at once (CONTRIBUTING.md quotes the times measured so).
 */
import { readdirSync } from 'node:fs';
import * as path from 'node:path';

export type LayerName = 'unit' | 'checks' | 'hostile' | 'contract' | 'e2e';

export interface LayerSpec {
  name: LayerName;
  /** What it runs, in a few words. */
  what: string;
  /** Test files at once. */
  concurrency: number;
  /** One file's bound: then the file is killed and the test it was in fails. */
  fileMs: number;
  /** The layer's bound: then every file still running is killed, and the files not started are not run. */
  layerMs: number;
}

const MINUTE = 60_000;

export const LAYERS: LayerSpec[] = [
  { name: 'unit', what: 'plain Node, fake servers on 127.0.0.1', concurrency: 2, fileMs: 4 * MINUTE, layerMs: 12 * MINUTE },
  {
    name: 'checks',
    what: 'the repository as a whole: linter and dead code, translations, layers, manifest, bundles, the .vsix, validate() against zod',
    concurrency: 2,
    fileMs: 6 * MINUTE,
    layerMs: 15 * MINUTE,
  },
  { name: 'hostile', what: 'bench/hostile/ scenarios, each in a fresh Node with a 256 MB heap', concurrency: 1, fileMs: 12 * MINUTE, layerMs: 30 * MINUTE },
  { name: 'contract', what: 'a real Unleash on PostgreSQL, once per server generation', concurrency: 2, fileMs: 6 * MINUTE, layerMs: 15 * MINUTE },
  // One editor at a time: each file drives code-server and Chromium, whose waits for the screen suffer most from a
  // busy machine.
  { name: 'e2e', what: 'the packaged extension in a real VS Code (code-server, Chromium) against a real Unleash', concurrency: 1, fileMs: 15 * MINUTE, layerMs: 35 * MINUTE },
];

const TEST_ROOT = path.resolve(__dirname, '..');

/** A layer's test files, `test/<layer>/*.test.ts`, relative to the repository. */
export function testFiles(layer: LayerName): string[] {
  return readdirSync(path.join(TEST_ROOT, layer))
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => path.join('test', layer, name));
}
