/**
 * The offline mode as a user meets it: export files on a real disk, read by the Connection through the editor's file
 * system (the 'vscode' stand-in of test/support/fakeVscode.ts), shown by the Flags view. A file that fails or is past
 * the budget is named in the view's message with why and what to do, and never read when its size alone rules it
 * out; the other files still show.
 *   node --import tsx --test test/unit/offlineMode.test.ts
 */
import assert from 'node:assert/strict';
import { promises as fsp, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TreeNode } from '../../src/model/tree/node';
import { editorConnection } from '../support/editorConnection';
import { installFakeVscode, type FakeTreeView } from '../support/fakeVscode';
import { recordingLogger } from '../support/recordingLogger';
import { workerReads } from '../support/jobs';
import { FlagStore } from '../../src/model/store/flagStore';
import { segmentDefinitionMissing } from '../../src/model/store/offlineSource';

installFakeVscode();
let registerFlagsView: typeof import('../../src/views/flagsTree').registerFlagsView;
let registerStatusBar: typeof import('../../src/views/statusBar').registerStatusBar;
let bindStoreToConnection: typeof import('../../src/services/binding').bindStoreToConnection;
// Loaded once the stand-in answers `require('vscode')`.
before(async () => {
  registerFlagsView = (await import('../../src/views/flagsTree')).registerFlagsView;
  registerStatusBar = (await import('../../src/views/statusBar')).registerStatusBar;
  bindStoreToConnection = (await import('../../src/services/binding')).bindStoreToConnection;
});

const FIXTURE = readFileSync(path.join(__dirname, '..', 'fixtures', 'export-development.json'));
const folders: string[] = [];
after(() => Promise.all(folders.map((folder) => fsp.rm(folder, { recursive: true, force: true }))));

/** A workspace holding these `.unleash/` files (a number: a sparse file of that many bytes, which nothing may read). */
async function workspace(files: Record<string, Uint8Array | string | number>): Promise<string> {
  const folder = await fsp.mkdtemp(path.join(tmpdir(), 'unleash-offline-'));
  folders.push(folder);
  await fsp.mkdir(path.join(folder, '.unleash'));
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(folder, '.unleash', name);
    await fsp.writeFile(file, typeof content === 'number' ? '' : content);
    if (typeof content === 'number') await fsp.truncate(file, content);
  }
  return folder;
}

/**
 * The Flags view once the Connection has read the workspace's export files: its rows, description and message. The
 * store follows the connection as in the extension (the files are read when the view needs them).
 */
async function flagsView(folder: string) {
  const fake = installFakeVscode(folder);
  const { logger, lines } = recordingLogger();
  const { connection } = await editorConnection(fake, logger);
  const readBefore = workerReads.length;
  const store = new FlagStore(logger);
  const view = registerFlagsView({ store, logger });
  const statusBar = registerStatusBar(store);
  const treeView = fake.treeViews.at(-1) as FakeTreeView<TreeNode>;
  const status = fake.statusBarItems.at(-1);
  const binding = bindStoreToConnection(connection, store);
  await connection.update();
  await store.load();
  const rows = (await view.provider.getChildren()).map((node) => node.label);
  const shown = { rows, description: treeView.description, message: treeView.message, status: `${status?.text} | ${status?.tooltip?.split('\n')[0]}` };
  binding.dispose();
  connection.dispose();
  view.disposable.dispose();
  statusBar.dispose();
  // The files read: by the editor's file system, or by the worker thread (local files).
  return { ...shown, reads: [...fake.reads, ...workerReads.slice(readBefore)].map((file) => path.basename(file)), log: lines };
}

describe('offline mode: the export files a workspace holds', () => {
  it('shows the flags of the files it reads, and names the others with why and what to do', async () => {
    const folder = await workspace({
      'development.json': FIXTURE,
      'broken.json': '{"features": [',
      'huge.json': 200 * 1024 * 1024,
    });
    const view = await flagsView(folder);
    assert.deepEqual(view.rows, ['new-checkout-flow', 'new-checkout-flow-ui', 'pricing-experiment']);
    assert.equal(view.description, 'offline: .unleash/development.json');
    assert.equal(view.status, '$(check) Unleash: offline: 1 export file · 3 flags | 3 flags from .unleash/development.json.');
    assert.equal(
      view.message,
      'Not read: .unleash/broken.json (The export file is not valid JSON: Unexpected end of JSON input); .unleash/huge.json (larger than 100 MB). At most 32 files, 100 MB together, are read: move the others out of .unleash/. Export the environment again, or remove the file.',
    );
    assert.deepEqual(view.reads.sort(), ['broken.json', 'development.json'], 'the file past the budget is never read');
    assert.ok(view.log.includes('Skipped .unleash/huge.json: larger than 100 MB, the most one export file may hold.'), view.log.join('\n'));
  });

  it('reads an export\'s segments file beside it (never as an export), and shows the export without it when it fails', async () => {
    const definitions = {
      segmentDefinitions: [
        { id: 1, name: 'internal-users', constraints: [{ contextName: 'email', operator: 'STR_ENDS_WITH', values: ['@example.com'] }] },
        { id: 2, name: 'beta-testers', description: 'Opted in', constraints: [{ contextName: 'group', operator: 'IN', values: ['beta'] }] },
      ],
    };
    const strategy = (JSON.parse(FIXTURE.toString('utf8')) as { featureStrategies: Array<{ id: string; segments: number[] }> }).featureStrategies.find(
      (s) => s.segments.length === 2,
    )!;
    const segmentsOf = async (folder: string) => {
      const fake = installFakeVscode(folder);
      const { logger } = recordingLogger();
      const { connection } = await editorConnection(fake, logger);
      const state = await connection.update();
      connection.dispose();
      const segments = (await state.source?.getStrategySegments(strategy.id)) ?? [];
      return segments.map((segment) => `${segment.name}: ${segment.constraints.map((c) => `${c.contextName} ${c.operator}`).join(', ') || 'no constraints'}${segmentDefinitionMissing(segment) ? ' (not in the file)' : ''}`);
    };

    const paired = await workspace({ 'development.json': FIXTURE, 'development.json.segments': JSON.stringify(definitions) });
    const view = await flagsView(paired);
    assert.equal(view.description, 'offline: .unleash/development.json');
    assert.equal(view.status, '$(check) Unleash: offline: 1 export file · 3 flags | 3 flags from .unleash/development.json.');
    assert.equal(view.message, undefined);
    assert.deepEqual(await segmentsOf(paired), ['beta-testers: group IN', 'internal-users: email STR_ENDS_WITH']);

    const broken = await workspace({ 'development.json': FIXTURE, 'development.json.segments': '{"segmentDefinitions": [{"id": "one"}]}' });
    const shown = await flagsView(broken);
    assert.deepEqual(shown.rows, ['new-checkout-flow', 'new-checkout-flow-ui', 'pricing-experiment']);
    assert.match(String(shown.message), /^Not read: \.unleash\/development\.json\.segments \(The segments file is not valid: segmentDefinitions\[0\]\.id: /);
    assert.deepEqual(await segmentsOf(broken), ['beta-testers: no constraints (not in the file)', 'internal-users: no constraints (not in the file)']);
  });

  it('says why nothing shows when no file could be read', async () => {
    const folder = await workspace({ 'development.json': '[]', 'production.json': 101 * 1024 * 1024 });
    const view = await flagsView(folder);
    assert.deepEqual(view.rows, []);
    assert.match(view.status, /^\$\(error\) Unleash: no flag source \| Loading flags from no flag source failed: Not read: \.unleash\/development\.json /);
    assert.equal(
      view.message,
      'Could not load the flags. Not read: .unleash/development.json (The export file is not a valid Unleash export: the top level: Invalid input: expected object, received array); .unleash/production.json (larger than 100 MB). At most 32 files, 100 MB together, are read: move the others out of .unleash/. Export the environment again, or remove the file.',
    );
  });
});

describe('offline mode: one intake for the export files (issue 39)', () => {
  it('shows at most 100,000 flags of a file of 150,000 rows, and says what it left out', async () => {
    const rows = Array.from({ length: 150_000 }, (_, i) => `{"name":"f${String(i).padStart(6, '0')}","project":"default"}`);
    const folder = await workspace({ 'production.json': `{"features":[${rows.join(',')}],"featureStrategies":[],"tagTypes":[]}` });
    const view = await flagsView(folder);
    assert.equal(view.rows.length, 100, 'a row per page of 1,000 flags');
    assert.equal(view.rows[0], 'f000000 … f000999');
    assert.equal(view.status, '$(check) Unleash: offline: 1 export file · 100000 flags | 100000 flags from .unleash/production.json.');
    assert.equal(
      view.message,
      'Showing part of .unleash/production.json: the first 100,000 of 150,000 flags. The extension reads at most 100,000 flags, 1,000 projects per flag name and 300,000 entries per list of the export files.',
    );
  });

  it('does not read a .unleash folder that is a link (a repository could point it anywhere), and says so', async () => {
    const outside = await workspace({ 'development.json': FIXTURE });
    const folder = await fsp.mkdtemp(path.join(tmpdir(), 'unleash-offline-'));
    folders.push(folder);
    await fsp.symlink(path.join(outside, '.unleash'), path.join(folder, '.unleash'));
    const view = await flagsView(folder);
    assert.deepEqual(view.rows, []);
    assert.deepEqual(view.reads, []);
    assert.equal(
      view.message,
      'Could not load the flags. Not read: .unleash is a symbolic link, which a cloned repository could point anywhere. Move the export files into a real .unleash folder of the workspace.',
    );
  });
});
