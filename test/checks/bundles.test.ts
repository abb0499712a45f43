/**
 * The extension ships as two files (esbuild.js): dist/extension.js, which every window loads, with the modules both
 * use; dist/core.js, the code that talks to servers and reads export files (undici, zod), loaded on first need.
 * Built here with the production options into a temporary folder, then:
 *   - what a window loads is one file holding neither undici nor zod, which reaches core.js only through a dynamic
 *     import; core.js takes the modules both use from it (one copy of each);
 *   - the first and last statements of extension.js record when loading started and ended, where activate() reads it;
 *   - activated over the 'vscode' stand-in on a workspace with an export file, the bundle loads no core.js until the
 *     flags are needed; the first need (the Flags view's list) loads it and the flags show.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { build, type Metafile } from 'esbuild';
import { BUNDLE_TIMES, extensionBuild, workerBuild } from '../../esbuild';
import { BUNDLE_TIMES_GLOBAL } from '../../src/base/constants';
import type { ExtensionApi } from '../../src/extension';
import { installFakeVscode } from '../support/fakeVscode';

const root = path.join(__dirname, '..', '..');

/** The npm packages with code in an output of the build. */
function packagesIn(metafile: Metafile, output: string): Set<string> {
  const inputs = Object.keys(metafile.outputs[output]?.inputs ?? {});
  return new Set(inputs.flatMap((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? []));
}

describe('the bundles: what every window loads, and the core loaded on first need', () => {
  let dir = '';
  let metafile: Metafile;
  const out = (name: string) => path.relative(root, path.join(dir, name)).split(path.sep).join('/');

  // As in the package: the bundles in dist/ of the extension's folder (activate() starts dist/worker.js from there).
  let extensionPath = '';
  let workerMetafile: Metafile;
  before(async () => {
    extensionPath = fs.mkdtempSync(path.join(tmpdir(), 'unleash-bundles-'));
    dir = path.join(extensionPath, 'dist');
    const result = await build({ ...extensionBuild(true, dir), absWorkingDir: root, logLevel: 'silent' });
    metafile = result.metafile as Metafile;
    workerMetafile = (await build({ ...workerBuild(true, dir), absWorkingDir: root, logLevel: 'silent' })).metafile as Metafile;
  });

  after(() => fs.rmSync(extensionPath, { recursive: true, force: true }));

  it('writes extension.js, core.js and worker.js, and the notices of the packages they bundle', () => {
    assert.deepEqual(fs.readdirSync(dir).sort(), ['THIRD-PARTY-NOTICES.md', 'core.js', 'extension.js', 'worker.js']);
    // The notices are written from the extension's build: the worker's packages must be among core.js's.
    const core = packagesIn(metafile, out('core.js'));
    assert.deepEqual([...packagesIn(workerMetafile, out('worker.js'))].filter((name) => !core.has(name) && name !== '@vscode/l10n'), []);
  });

  it('loads neither undici nor zod at start-up: they are in core.js, which extension.js imports only dynamically', () => {
    // The ESM build's outputs (its metafile): the extension entry, and the chunk both use that extension.js holds.
    const atStartUp = new Set([...packagesIn(metafile, out('extension.js')), ...packagesIn(metafile, out('shared.js'))]);
    assert.deepEqual([...atStartUp], ['@vscode/l10n']);
    assert.deepEqual([...packagesIn(metafile, out('core.js'))].sort(), ['undici', 'zod']);
    const imports = metafile.outputs[out('extension.js')]?.imports ?? [];
    assert.deepEqual(
      imports.filter((entry) => !entry.external).map((entry) => `${entry.kind} ${path.basename(entry.path)}`).sort(),
      ['dynamic-import core.js', 'import-statement shared.js'],
    );
    const ownRequires = (name: string) => [...fs.readFileSync(path.join(dir, name), 'utf8').matchAll(/\brequire\("(\.\/[^"]+)"\)/g)].map((m) => m[1]);
    assert.deepEqual(ownRequires('extension.js'), ['./core.js']);
    assert.deepEqual(ownRequires('core.js'), ['./extension.js'], 'core.js takes the modules both use from extension.js');
  });

  it('reads vscode and Node\'s modules as they are: no copy of their members made at start-up', () => {
    const bundle = fs.readFileSync(path.join(dir, 'extension.js'), 'utf8');
    const modules = [...bundle.matchAll(/([\w$]+\()?require\("((?:vscode|node:[^"]+))"\)/g)];
    assert.ok(modules.some((m) => m[2] === 'vscode'), 'extension.js requires vscode');
    assert.deepEqual(modules.filter((m) => m[1] !== undefined).map((m) => `${m[1]}require("${m[2]}")`), [], 'wrapped in a helper that copies it: add the module to ONE_NAMESPACE in esbuild.js');
    assert.equal(modules.filter((m) => m[2] === 'vscode').length, 1, 'vscode is required once');
  });

  it('records when loading started and ended in its first and last statements, where activate() reads them', () => {
    assert.equal(BUNDLE_TIMES, BUNDLE_TIMES_GLOBAL);
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
    const extension = (await import(pathToFileURL(path.join(dir, 'extension.js')).href)) as { activate(context: unknown): ExtensionApi };
    const context = { subscriptions: [] as Array<{ dispose(): unknown }>, secrets: fake.secretStorage, globalState: fake.globalState, extensionPath };
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
