/**
 * The extension ships as three files (esbuild.js): dist/extension.js, which every window loads; dist/core.js, the code
 * that talks to servers and reads export files (undici, zod), loaded on first need; dist/shared.js, what both use.
 * Built here with the production options into a temporary folder, then:
 *   - what a window loads holds neither undici nor zod, and reaches core.js only through a dynamic import;
 *   - the first and last statements of extension.js record when loading started and ended, where activate() reads it;
 *   - activated over the 'vscode' stand-in on a workspace with an export file, the bundle loads no core.js until the
 *     flags are needed; the first need (the Flags view's list) loads it and the flags show.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { BUNDLE_TIMES_GLOBAL } from '../../src/base/constants';
import type { ExtensionApi } from '../../src/extension';
import { installFakeVscode } from '../support/fakeVscode';

const root = path.join(__dirname, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const esbuildJs = require('../../esbuild') as { extensionBuild(minified: boolean, outdir: string): BuildOptions; BUNDLE_TIMES: string };

/** The npm packages with code in an output of the build. */
function packagesIn(metafile: Metafile, output: string): Set<string> {
  const inputs = Object.keys(metafile.outputs[output]?.inputs ?? {});
  return new Set(inputs.flatMap((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? []));
}

describe('the bundles: what every window loads, and the core loaded on first need', () => {
  let dir = '';
  let metafile: Metafile;
  const out = (name: string) => path.relative(root, path.join(dir, name)).split(path.sep).join('/');

  before(async () => {
    dir = fs.mkdtempSync(path.join(tmpdir(), 'unleash-bundles-'));
    const result = await build({ ...esbuildJs.extensionBuild(true, dir), absWorkingDir: root, logLevel: 'silent' });
    metafile = result.metafile as Metafile;
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('builds extension.js, core.js and shared.js, and the notices of all three', () => {
    assert.deepEqual(fs.readdirSync(dir).sort(), ['THIRD-PARTY-NOTICES.md', 'core.js', 'extension.js', 'shared.js']);
    assert.deepEqual(Object.keys(metafile.outputs).sort(), [out('core.js'), out('extension.js'), out('shared.js')]);
  });

  it('loads neither undici nor zod at start-up: they are in core.js, which extension.js imports only dynamically', () => {
    const atStartUp = new Set([...packagesIn(metafile, out('extension.js')), ...packagesIn(metafile, out('shared.js'))]);
    assert.deepEqual([...atStartUp], ['@vscode/l10n']);
    assert.deepEqual([...packagesIn(metafile, out('core.js'))].sort(), ['undici', 'zod']);
    const imports = metafile.outputs[out('extension.js')]?.imports ?? [];
    assert.deepEqual(
      imports.filter((entry) => !entry.external).map((entry) => `${entry.kind} ${path.basename(entry.path)}`).sort(),
      ['dynamic-import core.js', 'import-statement shared.js'],
    );
    const bundle = fs.readFileSync(path.join(dir, 'extension.js'), 'utf8');
    const required = [...bundle.matchAll(/\brequire\("(\.\/[^"]+)"\)/g)].map((m) => m[1]);
    assert.deepEqual(required.sort(), ['./core.js', './shared.js']);
  });

  it('records when loading started and ended in its first and last statements, where activate() reads them', () => {
    assert.equal(esbuildJs.BUNDLE_TIMES, BUNDLE_TIMES_GLOBAL);
    const bundle = fs.readFileSync(path.join(dir, 'extension.js'), 'utf8');
    assert.ok(bundle.startsWith(`globalThis.${BUNDLE_TIMES_GLOBAL}={start:performance.now()};`), bundle.slice(0, 80));
    assert.ok(bundle.trimEnd().endsWith(`globalThis.${BUNDLE_TIMES_GLOBAL}.loaded=performance.now();`), bundle.slice(-80));
  });

  it('activated, loads core.js only when the flags are first needed', async () => {
    const folder = fs.mkdtempSync(path.join(tmpdir(), 'unleash-bundles-ws-'));
    fs.mkdirSync(path.join(folder, '.unleash'));
    fs.copyFileSync(path.join(root, 'test', 'fixtures', 'export-development.json'), path.join(folder, '.unleash', 'development.json'));
    const fake = installFakeVscode(folder);
    const coreLoaded = () => Object.keys(require.cache).includes(path.join(dir, 'core.js'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const extension = require(path.join(dir, 'extension.js')) as { activate(context: unknown): ExtensionApi };
    const context = { subscriptions: [] as Array<{ dispose(): unknown }>, secrets: fake.secretStorage, globalState: fake.globalState };
    try {
      const api = extension.activate(context);
      assert.ok(api.bundleLoadMs > 0 && api.activationMs > api.bundleLoadMs, `${api.bundleLoadMs} ms loading, ${api.activationMs} ms in all`);
      for (let waited = 0; api.store.currentSource === undefined && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(api.store.state, 'idle');
      assert.equal(api.statusBar.content().text, '$(circle-outline) Unleash: offline: 1 export file');
      assert.equal(coreLoaded(), false, 'nothing needed the flags: core.js is not loaded');
      assert.deepEqual(fake.reads, [], 'nor is any export file read');

      await api.store.load();
      assert.equal(coreLoaded(), true);
      assert.deepEqual(api.store.catalog.flags.map((flag) => flag.name), ['new-checkout-flow', 'new-checkout-flow-ui', 'pricing-experiment']);
      assert.equal(api.statusBar.content().text, '$(check) Unleash: offline: 1 export file · 3 flags');
    } finally {
      for (const disposable of context.subscriptions) disposable.dispose();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
