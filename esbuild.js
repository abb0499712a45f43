// Bundles the extension the way the official esbuild sample does (CommonJS, `vscode` external, minified with
// --production, source maps in development, --watch to rebuild), in three files:
//   dist/extension.js  what every window loads: activate() and what registering the providers needs;
//   dist/core.js       src/model/core.ts, what talks to servers and reads export files (undici, zod), loaded with
//                      `import()` the first time something needs the flags (services/connection.ts);
//   dist/shared.js     the modules both use, loaded once, so that both see one copy (one ConfigError class, one
//                      translation bundle);
// and one for the browser (package.json `browser`: vscode.dev, github.dev, web worker extension hosts):
//   dist/web/extension.js  src/extension.browser.ts, offline mode from the workspace's export files, one file with
//                      platform 'browser', so that a Node built-in anywhere in its graph fails the build.
// esbuild splits code only for ESM output, so the bundles are built as ESM with splitting, then each output file is
// turned into CommonJS (esbuild's transform, `import()` becoming a `require` on first need), which VS Code loads.
// bundleOptions() is shared with the benchmark's copy of the extension and the e2e suite's bundle (one file each).
// Legal comments are left out of the bundles; dist/THIRD-PARTY-NOTICES.md, written beside them at every build from
// the metafile (scripts/thirdPartyNotices.js), carries the licence texts and notices of every bundled package instead.
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');
const { thirdPartyNoticesPlugin } = require('./scripts/thirdPartyNotices');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/**
 * The global where dist/extension.js records `performance.now()` at its first statement (`start`) and its last
 * (`loaded`), for activate() (src/base/constants.ts BUNDLE_TIMES_GLOBAL).
 */
const BUNDLE_TIMES = '__unleashFlagsBundle';

/**
 * The options every bundle of this repository uses (the extension, the benchmark's copy of it, the e2e suite).
 * @param {boolean} minified minified, no source maps (the shipped form)
 * @returns {import('esbuild').BuildOptions}
 */
const bundleOptions = (minified) => ({
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['vscode'],
  minify: minified,
  sourcemap: minified ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: 'none',
});

/**
 * Writes each output of an ESM build as CommonJS: `import()` of a sibling becomes `require` (run on first need),
 * source maps carried through (the ESM build's inline map is the transform's input). The entry `extension` gets a
 * first and a last statement that record when it started and finished loading.
 * @param {boolean} minified
 * @returns {import('esbuild').Plugin}
 */
const commonJsOutput = (minified) => ({
  name: 'commonjs-output',
  setup(build) {
    build.onEnd(async (result) => {
      if (result.errors.length || !result.outputFiles) return;
      for (const file of result.outputFiles) {
        const name = path.basename(file.path);
        const converted = await esbuild.transform(file.text, {
          format: 'cjs',
          platform: 'node',
          target: 'node20',
          supported: { 'dynamic-import': false },
          minify: minified,
          sourcemap: minified ? false : 'external',
          sourcesContent: false,
          sourcefile: name,
          legalComments: 'none',
          banner: name === 'extension.js' ? `globalThis.${BUNDLE_TIMES}={start:performance.now()};` : undefined,
          footer: name === 'extension.js' ? `globalThis.${BUNDLE_TIMES}.loaded=performance.now();` : undefined,
          logLevel: 'warning',
        });
        fs.mkdirSync(path.dirname(file.path), { recursive: true });
        const map = `${name}.map`;
        fs.writeFileSync(file.path, converted.code + (converted.map ? `//# sourceMappingURL=${map}\n` : ''));
        if (converted.map) fs.writeFileSync(path.join(path.dirname(file.path), map), converted.map);
      }
    });
  },
});

/**
 * One `vscode` for the whole bundle: every `import * as vscode from 'vscode'` resolves to one module that re-exports
 * it, so the CommonJS form copies the API's few hundred members into a namespace object once, not once per module
 * that imports it (31 copies took about 10 ms of every window's start-up).
 * @type {import('esbuild').Plugin}
 */
const oneVscode = {
  name: 'one-vscode',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'one-vscode' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'one-vscode' },
    );
    build.onLoad({ filter: /.*/, namespace: 'one-vscode' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
  },
};

/**
 * The extension's build: the options of bundleOptions() as ESM with code splitting (see above), into `outdir`.
 * @param {boolean} minified
 * @param {string} [outdir]
 * @returns {import('esbuild').BuildOptions}
 */
const extensionBuild = (minified, outdir = 'dist') => ({
  ...bundleOptions(minified),
  format: 'esm',
  splitting: true,
  entryPoints: { extension: 'src/extension.ts', core: 'src/model/core.ts' },
  outdir,
  chunkNames: 'shared',
  sourcemap: minified ? false : 'inline',
  write: false,
  metafile: true,
  plugins: [oneVscode, commonJsOutput(minified), thirdPartyNoticesPlugin],
});

/**
 * The browser build: one CommonJS file (a web worker extension host evaluates it as a module of its own), with the
 * same first and last statements as dist/extension.js, so that activate() measures its loading the same way. Its
 * packages are a subset of the desktop bundles' (a unit test checks), whose notices cover them.
 * @param {boolean} minified
 * @param {string} [outdir]
 * @returns {import('esbuild').BuildOptions}
 */
const webBuild = (minified, outdir = 'dist/web') => ({
  ...bundleOptions(minified),
  platform: 'browser',
  target: 'es2022',
  entryPoints: { extension: 'src/extension.browser.ts' },
  outdir,
  metafile: true,
  banner: { js: `globalThis.${BUNDLE_TIMES}={start:performance.now()};` },
  footer: { js: `globalThis.${BUNDLE_TIMES}.loaded=performance.now();` },
  plugins: [oneVscode],
});

async function main() {
  const builds = [extensionBuild(production), webBuild(production)];
  if (watch) {
    for (const options of builds) await (await esbuild.context(options)).watch();
    console.log('[esbuild] watching for changes');
    return;
  }
  await Promise.all(builds.map((options) => esbuild.build(options)));
}

module.exports = { bundleOptions, extensionBuild, webBuild, BUNDLE_TIMES };

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
