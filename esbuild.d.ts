// The types of esbuild.js (a CommonJS script node runs as is), for the tests and benchmarks that build like it.
import type { BuildOptions } from 'esbuild';

/** The options every bundle of this repository uses; `minified` is the shipped form. */
export function bundleOptions(minified: boolean): BuildOptions;
/** The extension's build (extension.js, and core.js loaded on first need) into `outdir`. */
export function extensionBuild(minified: boolean, outdir?: string): BuildOptions;
/** The browser build (one extension.js for a web worker's extension host) into `outdir`. */
export function webBuild(minified: boolean, outdir?: string): BuildOptions;
/** The desktop's worker thread (worker.js, reading export files) into `outdir`. */
export function workerBuild(minified: boolean, outdir?: string): BuildOptions;
/** The global where dist/extension.js records when it started and finished loading. */
export const BUNDLE_TIMES: string;
