// Bundles the extension the way the official esbuild sample does (CommonJS, `vscode` external, minified with
// --production, source maps in development, --watch to rebuild), in two files:
//   dist/extension.js  what every window loads: activate(), what registering the providers needs, and the modules
//                      core.js uses too (one ConfigError class, one translation bundle), exported to it as `shared`;
//   dist/core.js       src/model/core.ts, what talks to servers and reads export files (undici, zod), loaded with
//                      `import()` the first time something needs the flags (services/connection.ts);
//   dist/worker.js     src/worker.ts, the worker thread that reads export files (services/workerJobs.ts);
// and one for the browser (package.json `browser`: vscode.dev, github.dev, web worker extension hosts):
//   dist/web/extension.js  src/extension.browser.ts, offline mode from the workspace's export files, one file with
//                      platform 'browser', so that a Node built-in anywhere in its graph fails the build.
// esbuild splits code only for ESM output, so the desktop bundles are built as ESM with splitting (extension, core and
// the chunk both use), then bundled again as CommonJS, which VS Code loads (commonJsOutput below). A window reads and
// compiles one file at start-up: a second one (the shared chunk on its own) cost about 2 ms of every activation.
// Modules imported as namespaces are imported once (oneNamespace), and vscode and Node's modules are then read as they
// are: the copies of their members that ESM-to-CommonJS output makes cost another 1.7 ms (externalsThemselves).
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

/** The bundles of the ESM build that are written (the shared chunk goes into extension.js). */
const ENTRIES = ['extension.js', 'core.js'];

/**
 * Writes the ESM build as two CommonJS files, with a second esbuild pass over its outputs in memory:
 *   extension.js  the `extension` chunk with the shared chunk bundled into it (one file to read and compile at
 *                 start-up, not two), exporting the shared chunk's namespace as `shared`;
 *   core.js       the `core` chunk, whose imports of the shared chunk read that namespace
 *                 (`require('./extension.js').shared`, the module VS Code already loaded), so both see one copy.
 * `import()` of core.js becomes a `require` run on first need; source maps are carried through (the ESM outputs'
 * inline maps are the second pass's input maps). extension.js gets a first and a last statement that record when it
 * started and finished loading.
 * @param {boolean} minified
 * @returns {import('esbuild').Plugin}
 */
const commonJsOutput = (minified) => ({
  name: 'commonjs-output',
  setup(build) {
    build.onEnd(async (result) => {
      if (result.errors.length || !result.outputFiles) return;
      const outdir = path.dirname(result.outputFiles[0]?.path ?? '.');
      const esm = new Map(result.outputFiles.map((file) => [path.basename(file.path), file.text]));
      const names = [...esm.keys()].sort().join(', ');
      if (names !== 'core.js, extension.js, shared.js') throw new Error(`esbuild.js expects core.js, extension.js and shared.js from the ESM build, not ${names}`);
      for (const name of ENTRIES) {
        const out = path.join(outdir, name);
        const second = await esbuild.build({
          ...bundleOptions(minified),
          stdin: {
            contents: name === 'extension.js' ? "export * from './extension.js'; export * as shared from './shared.js';" : "export * from './core.js';",
            resolveDir: outdir,
            sourcefile: `${name} (CommonJS)`,
          },
          outfile: out,
          sourcemap: minified ? false : 'linked',
          supported: { 'dynamic-import': false },
          write: false,
          banner: name === 'extension.js' ? { js: `globalThis.${BUNDLE_TIMES}={start:performance.now()};` } : undefined,
          footer: name === 'extension.js' ? { js: `globalThis.${BUNDLE_TIMES}.loaded=performance.now();` } : undefined,
          plugins: [fromEsmOutputs(esm, name)],
        });
        fs.mkdirSync(outdir, { recursive: true });
        for (const file of second.outputFiles) fs.writeFileSync(file.path, file.contents);
      }
      // What an earlier layout of this build wrote (dist/shared.js) would otherwise be packaged.
      for (const name of ['shared.js', 'shared.js.map', ...(minified ? ENTRIES.map((entry) => `${entry}.map`) : [])]) {
        fs.rmSync(path.join(outdir, name), { force: true });
      }
    });
  },
});

/**
 * Resolves the second pass's imports of the ESM outputs: the shared chunk from core.js to extension.js's `shared`
 * export, core.js from extension.js to the file beside it (external), everything else to the ESM output in memory,
 * whose namespaces of vscode and Node's modules become the modules themselves (externalsThemselves).
 * @param {Map<string, string>} esm
 * @param {string} bundling
 * @returns {import('esbuild').Plugin}
 */
const fromEsmOutputs = (esm, bundling) => ({
  name: 'from-esm-outputs',
  setup(build) {
    build.onResolve({ filter: /^\.\/[\w-]+\.js$/ }, (args) => {
      const name = args.path.slice(2);
      if (name === 'extension.js' && args.namespace === 'shared-of-extension') return { path: args.path, external: true };
      if (name === 'shared.js' && bundling === 'core.js') return { path: name, namespace: 'shared-of-extension' };
      if (name !== bundling && name !== 'shared.js') return { path: args.path, external: true };
      return { path: name, namespace: 'esm-output' };
    });
    build.onLoad({ filter: /.*/, namespace: 'esm-output' }, (args) => {
      const text = esm.get(args.path) ?? '';
      return { contents: externalsThemselves(text), loader: 'js', resolveDir: build.initialOptions.stdin?.resolveDir };
    });
    build.onLoad({ filter: /.*/, namespace: 'shared-of-extension' }, () => ({ contents: "module.exports = require('./extension.js').shared;", loader: 'js' }));
  },
});

/**
 * The modules imported as a namespace (`import * as vscode from 'vscode'`) in many files: each file's import would be
 * a copy of the module's members (one getter each), made at start-up, so every import of one of them resolves to one
 * module that re-exports it (oneNamespace below): 67 imports of @vscode/l10n made 52 copies, 31 of vscode about 10 ms.
 */
const ONE_NAMESPACE = ['vscode', '@vscode/l10n', 'node:fs/promises', 'node:net', 'node:path', 'node:tls', 'node:zlib'];

/**
 * One namespace per module of ONE_NAMESPACE for the whole build: the files' imports of it resolve to one module that
 * re-exports it (what the module's own files, and undici's `require` calls, import is left alone).
 * @type {import('esbuild').Plugin}
 */
const oneNamespace = {
  name: 'one-namespace',
  setup(build) {
    const filter = new RegExp(`^(${ONE_NAMESPACE.map((name) => name.replace(/[/@.]/g, '\\$&')).join('|')})$`);
    build.onResolve({ filter }, (args) =>
      args.namespace === 'one-namespace' || args.kind !== 'import-statement' || args.importer.includes('node_modules')
        ? undefined
        : { path: args.path, namespace: 'one-namespace' },
    );
    build.onLoad({ filter: /.*/, namespace: 'one-namespace' }, (args) => ({
      contents: `export * from '${args.path}';`,
      loader: 'js',
      resolveDir: build.initialOptions.absWorkingDir ?? process.cwd(),
    }));
  },
};

/**
 * The one namespace of an external module (vscode, node:path…) made the module itself in the second pass: as ESM it
 * is a copy (`var ns = {}; __reExport(ns, mod)`), which CommonJS output would copy once more
 * (`__toESM(require('vscode'))`): two copies of the vscode API's 300 members, made in every window at start-up. The
 * extension only reads them.
 * @param {string} text an output of the ESM build
 */
function externalsThemselves(text) {
  let out = text;
  const externals = ONE_NAMESPACE.filter((name) => name === 'vscode' || name.startsWith('node:'));
  for (const [, name] of text.matchAll(/\bfrom\s*"([^"]+)"/g)) {
    if (!externals.includes(name)) continue;
    const quoted = JSON.stringify(name).replace(/[/$.]/g, '\\$&');
    const shim = new RegExp(`var ([\\w$]+)\\s*=\\s*\\{\\};\\s*([\\w$]+)\\(\\1,\\s*([\\w$]+)\\);\\s*import\\s*\\*\\s*as\\s+\\3\\s+from\\s*${quoted};`);
    const found = shim.exec(out);
    if (!found) throw new Error(`esbuild.js: ${name} is imported other than through oneNamespace's one module`);
    out = out.replace(found[0], () => `var ${found[1]} = require(${JSON.stringify(name)});`);
  }
  return out;
}

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
  plugins: [oneNamespace, commonJsOutput(minified), thirdPartyNoticesPlugin],
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
  plugins: [oneNamespace],
});

/**
 * The desktop's worker thread (src/worker.ts: reading export files, away from the extension host's thread), one
 * CommonJS file that services/workerJobs.ts starts on first need. It bundles what core.js does of zod and l10n, whose
 * notices cover it.
 * @param {boolean} minified
 * @param {string} [outdir]
 * @returns {import('esbuild').BuildOptions}
 */
const workerBuild = (minified, outdir = 'dist') => ({
  ...bundleOptions(minified),
  entryPoints: { worker: 'src/worker.ts' },
  outdir,
  metafile: true,
});

async function main() {
  const builds = [extensionBuild(production), webBuild(production), workerBuild(production)];
  if (watch) {
    for (const options of builds) await (await esbuild.context(options)).watch();
    console.log('[esbuild] watching for changes');
    return;
  }
  await Promise.all(builds.map((options) => esbuild.build(options)));
}

module.exports = { bundleOptions, extensionBuild, webBuild, workerBuild, BUNDLE_TIMES };

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
