/**
 * The browser build (package.json `browser`, dist/web/extension.js; esbuild.js webBuild), built here with the
 * production options into a temporary folder:
 *   - it bundles no Node built-in and no HTTP client: its inputs hold no `node:` module, its packages are
 *     @vscode/l10n and zod, its one import from outside is 'vscode'; and the build itself fails on a Node built-in;
 *   - it runs where a web worker extension host runs it: evaluated in a context with only a worker's globals (no
 *     `process`, `require`, `Buffer`, `setImmediate`) over the 'vscode' stand-in, on a workspace with the demo's
 *     committed exports, it activates, reads them when the flags are needed, and the Flags view says where they come
 *     from and how old they are; the hover on a flag name and the log line that reports `typeof process`.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build, type Metafile } from 'esbuild';
import { webBuild } from '../../esbuild';
import type { BrowserExtensionApi } from '../../src/extension.browser';
import { CancellationTokenSource, installFakeVscode, Uri, type Hover } from '../support/fakeVscode';
import { runInWorkerContext } from '../support/webWorker';

type HoverProvider = { provideHover(document: unknown, position: unknown, token: unknown): Promise<unknown> };

const root = path.join(__dirname, '..', '..');

/**
 * Whether a `when` clause of the manifest holds in `context` (the forms it uses: `a || b`, `a && b`, `!key`,
 * `key == value`, `key != value`, `key`, `false`).
 */
function holds(when: string | undefined, context: Record<string, string | boolean>): boolean {
  if (when === undefined) return true;
  return when.split('||').some((alternative) =>
    alternative.split('&&').every((raw) => {
      const term = raw.trim();
      const compared = /^([\w.]+) (==|!=) ([\w.]+)$/.exec(term);
      if (compared) return (String(context[compared[1] as string] ?? '') === compared[3]) === (compared[2] === '==');
      if (term.startsWith('!')) return !context[term.slice(1)];
      return term !== 'false' && Boolean(context[term]);
    }),
  );
}

describe('the browser build', () => {
  let dir = '';
  let metafile: Metafile;

  before(async () => {
    dir = fs.mkdtempSync(path.join(tmpdir(), 'unleash-web-bundle-'));
    const result = await build({ ...webBuild(true, dir), absWorkingDir: root, logLevel: 'silent' });
    metafile = result.metafile as Metafile;
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('bundles no Node built-in and no HTTP client: only @vscode/l10n and zod, and imports only vscode', () => {
    const inputs = Object.keys(metafile.inputs);
    assert.deepEqual(inputs.filter((input) => input.startsWith('node:')), []);
    const packages = new Set(inputs.flatMap((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? []));
    assert.deepEqual([...packages].sort(), ['@vscode/l10n', 'zod']);
    const outside = Object.values(metafile.outputs).flatMap((output) => output.imports.map((entry) => `${entry.external ? 'external' : 'bundled'} ${entry.path}`));
    assert.deepEqual([...new Set(outside)], ['external vscode']);
    assert.ok(!inputs.includes('src/extension.ts') && !inputs.some((input) => input.startsWith('src/api/client')), 'neither the desktop root nor the client');
  });

  it('fails to build when a Node built-in enters its graph', async () => {
    const entry = path.join(dir, 'uses-node.ts');
    fs.writeFileSync(entry, "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n");
    const options = { ...webBuild(true, path.join(dir, 'failing')), entryPoints: [entry], write: false, absWorkingDir: root, logLevel: 'silent' as const };
    await assert.rejects(build(options), (error: Error) => /Could not resolve "node:fs"/.test(error.message));
  });

  it('runs with a web worker\'s globals only: the Flags view, a hover and the log from the committed exports', async () => {
    const folder = fs.mkdtempSync(path.join(tmpdir(), 'unleash-web-ws-'));
    fs.cpSync(path.join(root, 'demo', 'workspace'), folder, { recursive: true });
    const fake = installFakeVscode(folder);
    const code = fs.readFileSync(path.join(dir, 'extension.js'), 'utf8');
    const extension = runInWorkerContext<{ activate(context: unknown): BrowserExtensionApi }>(code, 'extension.js', fake.vscode);
    const context = { subscriptions: [] as Array<{ dispose(): unknown }>, secrets: fake.secretStorage, globalState: fake.globalState, extensionUri: Uri.file(root) };
    try {
      const api = extension.activate(context);
      assert.equal(api.processType, 'undefined');
      assert.ok(api.bundleLoadMs > 0 && api.activationMs > api.bundleLoadMs, `${api.bundleLoadMs} ms loading, ${api.activationMs} ms in all`);
      assert.ok(fake.logLines.includes('info: Browser build; typeof process: undefined.'), fake.logLines.join('\n'));
      assert.ok(fake.logLines.some((line) => /^info: Activated in [\d.]+ ms \([\d.]+ ms of it loading the bundle\)\.$/.test(line)), fake.logLines.join('\n'));
      for (let waited = 0; api.store.currentSource === undefined && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(fake.reads, [], 'nothing is read before the flags are needed');

      await api.store.load();
      assert.equal(api.store.state, 'ready');
      // No Worker among these globals: the files were read on the extension host's thread, in slices, and the log says so.
      assert.ok(fake.logLines.includes("info: [connection] Export files are read on the extension host's thread, in time slices: no web worker (this extension host offers no Worker)."), fake.logLines.join('\n'));
      const names = api.store.catalog.flags.map((flag) => flag.name);
      assert.ok(names.includes('new-checkout-flow') && names.length >= 8, names.join(', '));
      const view = api.flagsView.treeView;
      assert.equal(view.description, 'offline: .unleash/development.json, .unleash/production.json');
      assert.match(
        view.message ?? '',
        /^These are the flags of the export files committed to the workspace \(\.unleash\/\*\.json\); the newest file is dated \d{4}-\d\d-\d\d \d\d:\d\d UTC \((just now|\d+ \w+ ago)\)\. Export again in desktop VS Code to update them\.$/,
      );
      assert.deepEqual(fake.executed.filter((run) => run.id === 'setContext' && run.args[0] === 'unleash.browser').map((run) => run.args[1]), [true]);

      // The palette offers only what the browser build registers, with export files or without.
      const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
        contributes: { commands: Array<{ command: string; enablement?: string }>; menus: { commandPalette: Array<{ command: string; when?: string }> } };
      };
      for (const mode of ['offline', 'none']) {
        const context = { 'unleash.mode': mode, 'unleash.browser': true };
        const offered = manifest.contributes.commands
          .filter((command) => holds(manifest.contributes.menus.commandPalette.find((item) => item.command === command.command)?.when, context))
          .filter((command) => holds(command.enablement, context))
          .map((command) => command.command);
        assert.deepEqual(offered.filter((id) => !fake.commands.has(id)), [], `offered in mode ${mode} but not registered`);
      }

      // A hover on the flag name in the demo's src/checkout.ts, from the export files.
      const line = "  if (unleash.isEnabled('new-checkout-flow', context)) {";
      const document = { uri: Uri.file(path.join(folder, 'src', 'checkout.ts')), languageId: 'typescript', lineCount: 1, lineAt: () => ({ text: line }), getText: () => line };
      const provider = fake.providers.hover.filter((entry) => !entry.disposed).at(-1)?.provider as HoverProvider;
      const hover = (await provider.provideHover(document, { line: 0, character: line.indexOf('checkout') }, new CancellationTokenSource().token)) as Hover | undefined;
      const markdown = hover?.contents[0]?.value ?? '';
      assert.ok(markdown.startsWith('**new\\-checkout\\-flow** · release · project default'), markdown);
      for (const row of ['| development | ●\u00a0enabled | never |', '| production | ○\u00a0disabled | never |', '_Source: \\.unleash\\/development\\.json\\, \\.unleash\\/production\\.json_']) {
        assert.ok(markdown.includes(row), `the hover shows ${row}:\n${markdown}`);
      }
    } finally {
      for (const disposable of context.subscriptions) disposable.dispose();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
