// Bundles the extension the way the official esbuild sample does:
// CommonJS, `vscode` external, minified with --production, source maps in development, --watch to rebuild.
// bundleOptions() is shared with the benchmark's copy of the extension and the e2e suite's bundle.
// Legal comments are left out of the bundle; dist/THIRD-PARTY-NOTICES.md, written beside it at every build from the
// metafile (scripts/thirdPartyNotices.js), carries the licence texts and notices of every bundled package instead.
const esbuild = require('esbuild');
const { thirdPartyNoticesPlugin } = require('./scripts/thirdPartyNotices');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

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

const builds = [
  {
    ...bundleOptions(production),
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    metafile: true,
    plugins: [thirdPartyNoticesPlugin],
  },
];

async function main() {
  if (watch) {
    const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
    await Promise.all(contexts.map((context) => context.watch()));
    console.log('[esbuild] watching for changes');
    return;
  }
  await Promise.all(builds.map((options) => esbuild.build(options)));
}

module.exports = { bundleOptions };

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
