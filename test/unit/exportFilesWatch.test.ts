/**
 * The export files followed as they change on disk, without a reload: the watcher (src/services/exportFilesWatch.ts)
 * reports what VS Code's file watcher reports for `.unleash/` of each workspace folder (a plain string glob, matched
 * against absolute paths, would report nothing); the Export Files view follows a new export, a change from outside
 * and the folder moved away; offline mode's Flags view follows a file added or removed; Refresh lists the files again
 * in both. In the 'vscode' stand-in (its watchers decide as VS Code does: test/support/fakeVscode.ts) on a real disk.
 *   node --import tsx --test test/unit/exportFilesWatch.test.ts
 */
import assert from 'node:assert/strict';
import { promises as fsp, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ExportResult } from '../../src/api/exportSchemas';
import type { Feature, FeatureSummary, Segment } from '../../src/api/schemas';
import { Commands } from '../../src/base/constants';
import { serializeExport } from '../../src/model/export/exportBytes';
import type { FlagSource } from '../../src/model/store/flagSource';
import { FlagStore } from '../../src/model/store/flagStore';
import type { TreeNode } from '../../src/model/tree/node';
import { until } from '../support/bounded';
import { editorConnection } from '../support/editorConnection';
import { sourceWorkerJobs } from '../support/jobs';

// The drift check reads the files in a worker, as the desktop does.
const jobs = sourceWorkerJobs();
after(() => jobs.dispose());
import { installFakeVscode, type FakeVscode, type TreeItem } from '../support/fakeVscode';
import { recordingLogger } from '../support/recordingLogger';

installFakeVscode();
let watchExportFiles: typeof import('../../src/services/exportFilesWatch').watchExportFiles;
let ExportDrift: typeof import('../../src/services/exportDrift').ExportDrift;
let registerExportsView: typeof import('../../src/views/exportsView').registerExportsView;
let registerFlagsView: typeof import('../../src/views/flagsTree').registerFlagsView;
let registerFlagCommands: typeof import('../../src/commands/flags').registerFlagCommands;
let bindStoreToConnection: typeof import('../../src/services/binding').bindStoreToConnection;
// Loaded once the stand-in answers `require('vscode')`.
before(async () => {
  watchExportFiles = (await import('../../src/services/exportFilesWatch')).watchExportFiles;
  ExportDrift = (await import('../../src/services/exportDrift')).ExportDrift;
  registerExportsView = (await import('../../src/views/exportsView')).registerExportsView;
  registerFlagsView = (await import('../../src/views/flagsTree')).registerFlagsView;
  registerFlagCommands = (await import('../../src/commands/flags')).registerFlagCommands;
  bindStoreToConnection = (await import('../../src/services/binding')).bindStoreToConnection;
});

const folders: string[] = [];
after(() => Promise.all(folders.map((folder) => fsp.rm(folder, { recursive: true, force: true }))));

async function emptyFolder(): Promise<string> {
  const folder = await fsp.mkdtemp(path.join(tmpdir(), 'unleash-watch-'));
  folders.push(folder);
  return folder;
}

/** Writes a file (its folders made first) and reports it as VS Code's watcher would; answers how many watchers did. */
async function write(fake: FakeVscode, file: string, content: string | Uint8Array): Promise<number> {
  const existed = await fsp.stat(file).then(() => true, () => false);
  const dir = path.dirname(file);
  const newDir = !(await fsp.stat(dir).then(() => true, () => false));
  await fsp.mkdir(dir, { recursive: true });
  await fsp.writeFile(file, content);
  return (newDir ? fake.fileEvent('create', dir) : 0) + fake.fileEvent(existed ? 'change' : 'create', file);
}

/** Removes a folder from outside the editor: the watcher reports the folder alone, as VS Code's does. */
async function removeFolder(fake: FakeVscode, dir: string): Promise<number> {
  await fsp.rm(dir, { recursive: true, force: true });
  return fake.fileEvent('delete', dir);
}

describe('the export files watcher', () => {
  it('reports a change in .unleash/ of each workspace folder, and the folder coming and going; nothing elsewhere', async () => {
    const first = await emptyFolder();
    const second = await emptyFolder();
    const fake = installFakeVscode(first);
    let calls = 0;
    const watcher = watchExportFiles(() => calls++);
    try {
      const reported = async (what: string, change: () => number | Promise<number>) => {
        const before = calls;
        const watchers = await change();
        if (watchers > 0) await until(`the watcher to report ${what}`, () => calls > before);
        return watchers > 0;
      };
      assert.equal(await reported('a new export', () => write(fake, path.join(first, '.unleash', 'production.json'), '{}')), true);
      assert.equal(await reported('a changed export', () => write(fake, path.join(first, '.unleash', 'production.json'), '{"features":[]}')), true);
      assert.equal(await reported('a segments file', () => write(fake, path.join(first, '.unleash', 'production.json.segments'), '{}')), true);
      assert.equal(await reported('a JSON file elsewhere', () => write(fake, path.join(first, 'src', 'data.json'), '{}')), false);
      assert.equal(await reported('.unleash/ moved away', () => removeFolder(fake, path.join(first, '.unleash'))), true);

      // A folder added to the workspace is watched from then on; a removed one no longer.
      assert.equal(await reported('a folder added', () => (fake.addFolder(second), 1)), true);
      assert.equal(await reported('an export in the added folder', () => write(fake, path.join(second, '.unleash', 'development.json'), '{}')), true);
      fake.removeFolder(second);
      await until('the removal reported', () => calls > 0);
      assert.equal(await reported('an export in the removed folder', () => write(fake, path.join(second, '.unleash', 'staging.json'), '{}')), false);
    } finally {
      watcher.dispose();
    }
    assert.equal(fake.fileEvent('change', path.join(first, '.unleash', 'production.json')), 0, 'disposed: no watcher left');
  });

  it('reports a burst of changes (a git pull) once', async () => {
    const folder = await emptyFolder();
    const fake = installFakeVscode(folder);
    let calls = 0;
    const watcher = watchExportFiles(() => calls++);
    try {
      for (const name of ['development.json', 'production.json', 'staging.json']) await write(fake, path.join(folder, '.unleash', name), '{}');
      await until('the watcher to report', () => calls > 0);
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal(calls, 1);
    } finally {
      watcher.dispose();
    }
  });
});

// ------------------------------------------------------------------------------------------------ the Export Files view

/** The server: its flags and their development state. */
const server: Record<string, boolean> = { alpha: true, beta: false };

function exportOf(states: Record<string, boolean>): ExportResult {
  const names = Object.keys(states);
  return {
    features: names.map((name) => ({ name, project: 'default', type: 'release' })),
    featureStrategies: [],
    featureEnvironments: names.map((name) => ({ name, featureName: name, environment: 'development', enabled: states[name] ?? false })),
    tagTypes: [],
  };
}

class Source implements FlagSource {
  readonly kind = 'server' as const;
  readonly label = 'unleash.example.com';
  async listFeatures(): Promise<FeatureSummary[]> {
    return Object.entries(server).map(([name, enabled]) => ({ name, project: 'default', environments: [{ name: 'development', enabled }] }));
  }
  async getFeature(project: string, name: string): Promise<Feature> {
    return { name, project, environments: [] };
  }
  async getStrategySegments(): Promise<Segment[]> {
    return [];
  }
  async listEnvironments(): Promise<string[]> {
    return ['development'];
  }
}

describe('the Export Files view follows the files on disk, without a reload', () => {
  it('a new export, a change from outside, .unleash/ moved away; Refresh finds a file no watcher reported', async () => {
    const folder = await emptyFolder();
    const fake = installFakeVscode(folder);
    const { logger, lines } = recordingLogger();
    const store = new FlagStore(logger);
    void store.load();
    await store.setSource(new Source(), 'ready');
    const drift = new ExportDrift(store, logger, jobs);
    const view = registerExportsView(drift);
    const rows = () =>
      view.provider.getChildren().map((row) => {
        const item = view.provider.getTreeItem(row) as unknown as TreeItem;
        return `${String(item.label)} — ${String(item.description)}`;
      });
    const shows = (what: string, expected: string[]) => until(`the Export Files view to show ${what}: ${JSON.stringify(expected)} (now ${JSON.stringify(rows())})`, () => JSON.stringify(rows()) === JSON.stringify(expected));
    const file = path.join(folder, '.unleash', 'development.json');
    try {
      await drift.check();
      assert.deepEqual(rows(), [], 'no export file yet');

      await write(fake, file, serializeExport(exportOf(server)));
      await shows('the new export', ['.unleash/development.json — matches the server']);

      // Changed from outside the editor (a git pull): the file says beta is on, the server has it off.
      await write(fake, file, serializeExport(exportOf({ ...server, beta: true })));
      await shows('the changed file', ['.unleash/development.json — 1 change on the server']);

      await removeFolder(fake, path.join(folder, '.unleash'));
      await shows('no file', []);
      assert.ok(lines.some((line) => /^Compared 0 export file\(s\) with 2 flags/.test(line)), lines.join('\n'));

      // Written with no event at all (a file system that reports nothing): a refresh lists the files again.
      await fsp.mkdir(path.dirname(file), { recursive: true });
      await fsp.writeFile(file, serializeExport(exportOf(server)));
      await store.refresh();
      await shows('the file after a refresh', ['.unleash/development.json — matches the server']);
    } finally {
      view.disposable.dispose();
      drift.dispose();
      store.dispose();
    }
  });
});

// ------------------------------------------------------------------------------------------------ offline mode

const FIXTURE = readFileSync(path.join(__dirname, '..', 'fixtures', 'export-development.json'));

describe('offline mode follows the export files, without a reload', () => {
  it('a file added from outside shows its flags, a file removed takes them away; Refresh lists the files again', async () => {
    const folder = await emptyFolder();
    await fsp.mkdir(path.join(folder, '.unleash'));
    await fsp.writeFile(path.join(folder, '.unleash', 'development.json'), FIXTURE);
    const fake = installFakeVscode(folder);
    const { logger } = recordingLogger();
    const { connection } = await editorConnection(fake, logger);
    const store = new FlagStore(logger);
    const view = registerFlagsView({ store, logger });
    const binding = bindStoreToConnection(connection, store);
    const commands = registerFlagCommands({ store, view, logger, relistFiles: () => connection.update() });
    const treeView = fake.treeViews.at(-1);
    const flags = async () => (await view.provider.getChildren()).map((node: TreeNode) => node.label);
    const shows = (what: string, expected: string[]) =>
      until(`the Flags view to show ${what}: ${JSON.stringify(expected)}`, async () => store.state === 'ready' && JSON.stringify(await flags()) === JSON.stringify(expected));
    const staging = path.join(folder, '.unleash', 'staging.json');
    try {
      await connection.update();
      await store.load();
      assert.deepEqual(await flags(), ['new-checkout-flow', 'new-checkout-flow-ui', 'pricing-experiment']);

      await write(fake, staging, serializeExport({ ...exportOf({ 'added-outside': true }), featureEnvironments: [{ name: 'added-outside', featureName: 'added-outside', environment: 'staging', enabled: true }] }));
      await shows('the added file\'s flag', ['added-outside', 'new-checkout-flow', 'new-checkout-flow-ui', 'pricing-experiment']);
      assert.equal(treeView?.description, 'offline: .unleash/development.json, .unleash/staging.json');

      await fsp.rm(staging);
      fake.fileEvent('delete', staging);
      await shows('the flags without it', ['new-checkout-flow', 'new-checkout-flow-ui', 'pricing-experiment']);

      // Added with no event at all: Refresh lists the files again.
      await fsp.writeFile(staging, serializeExport(exportOf({ 'found-on-refresh': true })));
      await fake.commands.get(Commands.refresh)?.();
      assert.deepEqual(await flags(), ['found-on-refresh', 'new-checkout-flow', 'new-checkout-flow-ui', 'pricing-experiment']);
    } finally {
      commands.dispose();
      binding.dispose();
      view.disposable.dispose();
      connection.dispose();
    }
  });
});
