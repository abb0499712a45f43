/**
 * An export file of the workspace against the server, in the 'vscode' stand-in with a real folder on disk: the
 * check at each refresh (the Export Files row, the status bar, the diagnostics on the file), Compare Export with
 * Server (the diff of the file and a fresh export laid out the same way), Update Export (the export command into the
 * same file, which clears it all), and Compare Environments on a flag.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { UnleashClient } from '../../src/api/client';
import type { Feature, FeatureSummary, Segment } from '../../src/api/schemas';
import type { ExportResult } from '../../src/api/exportSchemas';
import type { FlagSource } from '../../src/model/store/flagSource';
import { serializeExport } from '../../src/model/export/exportBytes';
import { installFakeVscode, Uri, type TreeItem } from '../support/fakeVscode';
import { FlagStore } from '../../src/model/store/flagStore';
import { Commands } from '../../src/base/constants';
import { sourceWorkerJobs } from '../support/jobs';
import { INTAKE_BUDGET } from '../../src/base/intakeBudget';

const folder = mkdtempSync(path.join(tmpdir(), 'export-files-'));
after(() => rmSync(folder, { recursive: true, force: true }));
const fake = installFakeVscode(folder);
// The drift check reads the files in a worker, as the desktop does.
const jobs = sourceWorkerJobs();
after(() => jobs.dispose());

let ExportDrift: typeof import('../../src/services/exportDrift').ExportDrift;
let ExportDiagnostics: typeof import('../../src/code/exportDiagnostics').ExportDiagnostics;
let registerExportsView: typeof import('../../src/views/exportsView').registerExportsView;
let registerCompareExport: typeof import('../../src/commands/compareExport').registerCompareExport;
let registerExportCommand: typeof import('../../src/commands/exportEnvironment').registerExportCommand;
let registerCompareEnvironments: typeof import('../../src/commands/compareEnvironments').registerCompareEnvironments;
// Loaded once the stand-in answers `require('vscode')`.
before(async () => {
  ExportDrift = (await import('../../src/services/exportDrift')).ExportDrift;
  ExportDiagnostics = (await import('../../src/code/exportDiagnostics')).ExportDiagnostics;
  registerExportsView = (await import('../../src/views/exportsView')).registerExportsView;
  registerCompareExport = (await import('../../src/commands/compareExport')).registerCompareExport;
  registerExportCommand = (await import('../../src/commands/exportEnvironment')).registerExportCommand;
  registerCompareEnvironments = (await import('../../src/commands/compareEnvironments')).registerCompareEnvironments;
});

const logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, child: () => logger };

/** The server: flags and their development state, changed by the tests. */
const server = { alpha: true, beta: false };

function exportOf(): ExportResult {
  const names = Object.keys(server) as Array<keyof typeof server>;
  return {
    features: names.map((name) => ({ name, project: 'default', type: 'release' })),
    featureStrategies: [],
    featureEnvironments: names.map((name) => ({ name, featureName: name, environment: 'development', enabled: server[name] })),
    tagTypes: [],
  };
}

class Source implements FlagSource {
  readonly kind = 'server' as const;
  readonly label = 'unleash.example.com';
  async listFeatures(): Promise<FeatureSummary[]> {
    return Object.entries(server).map(([name, enabled]) => ({ name, project: 'default', environments: [{ name: 'development', enabled }, { name: 'production', enabled: false }] }));
  }
  async getFeature(project: string, name: string): Promise<Feature> {
    const strategy = { id: 's1', name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'userId' }, constraints: [{ contextName: 'tenant', operator: 'IN', values: ['acme'] }] };
    return {
      name,
      project,
      environments: [
        { name: 'development', enabled: true, strategies: [strategy] },
        { name: 'production', enabled: false, strategies: [{ ...strategy, id: 's2', parameters: { rollout: '10', stickiness: 'userId' } }] },
      ],
    };
  }
  async getStrategySegments(): Promise<Segment[]> {
    return [];
  }
  async listEnvironments(): Promise<string[]> {
    return ['development', 'production'];
  }
}

const client = {
  baseUrl: new URL('http://unleash.example.com'),
  exports: 0,
  async exportFeatures() {
    this.exports++;
    return exportOf();
  },
  async listSegments() {
    return [];
  },
};

async function setUp() {
  const store = new FlagStore({ info() {}, error() {} });
  void store.load(); // needed from the start: setSource reads the list
  await store.setSource(new Source(), 'ready');
  const drift = new ExportDrift(store, logger, jobs);
  const view = registerExportsView(drift);
  const diagnostics = new ExportDiagnostics(drift, logger);
  const connection = { serverClient: async () => client as unknown as UnleashClient, state: { state: 'ready' as const }, settled: async () => ({ state: 'ready' as const }) };
  const deps = { connection, store, logger };
  const commands = [registerExportCommand(deps), registerCompareExport({ ...deps, drift }), registerCompareEnvironments({ store, view: { selected: () => undefined }, logger })];
  return {
    store,
    drift,
    view,
    diagnostics,
    run: (id: string, ...args: unknown[]) => fake.commands.get(id)?.(...args),
    dispose() {
      for (const command of commands) command.dispose();
      diagnostics.dispose();
      view.disposable.dispose();
      drift.dispose();
      store.dispose();
    },
  };
}

const file = path.join(folder, '.unleash', 'development.json');
const fileUri = Uri.file(file).toString();

describe('an export file against the server', () => {
  it('matches after an export; a change on the server shows on the row, the status bar and the file; Compare and Update', async () => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, serializeExport(exportOf()));
    const t = await setUp();
    try {
      await t.drift.check();
      const [row] = t.view.provider.getChildren();
      const item = t.view.provider.getTreeItem(row!) as unknown as TreeItem;
      assert.deepEqual([item.label, item.description, item.contextValue], ['.unleash/development.json', 'matches the server', 'exportFile:current']);
      assert.equal(t.view.statusText(), undefined);

      // Someone enables beta in development; the next refresh sees it.
      server.beta = true;
      await t.store.refresh();
      await t.drift.check();
      await t.diagnostics.settled();
      const [stale] = t.view.provider.getChildren();
      const staleItem = t.view.provider.getTreeItem(stale!) as unknown as TreeItem;
      assert.deepEqual([staleItem.description, staleItem.contextValue], ['1 change on the server', 'exportFile:outOfDate']);
      const changes = t.view.provider.getChildren(stale).map((change) => t.view.provider.getTreeItem(change) as unknown as TreeItem);
      assert.deepEqual(changes.map((change) => [change.label, change.description, change.command?.command]), [['beta', 'enabled in development on the server', Commands.revealFlag]]);
      assert.equal(t.view.statusText(), '$(git-compare) .unleash/development.json out of date');
      const problems = fake.diagnostics(fileUri);
      assert.deepEqual(
        problems.map((d) => [d.range.start.line, d.message]),
        [
          [
            0,
            'This export is out of date with unleash.example.com: 1 flag enabled in development (beta). Run "Unleash: Compare Export with Server…" to see every difference, or "Unleash: Update Export" to write it again.',
          ],
          [readFileSync(file, 'utf8').split('\n').findIndex((line) => line.includes('"name": "beta"')), 'beta is enabled in development on unleash.example.com; this export says disabled.'],
        ],
      );

      // Each diagnostic offers the two ways out, for this file.
      const actions = (fake.providers.codeActions.at(-1)?.provider as { provideCodeActions(d: unknown, r: unknown, c: unknown): Array<{ title: string; command?: { command: string; arguments?: unknown[] } }> })
        .provideCodeActions({ uri: Uri.file(file) }, problems[1]!.range, { diagnostics: [problems[1]] });
      assert.deepEqual(
        actions.map((action) => [action.title, action.command?.command, String(action.command?.arguments?.[0])]),
        [
          ['Compare Export with Server…', Commands.compareExport, fileUri],
          ['Update Export', Commands.updateExport, fileUri],
        ],
      );

      // Compare: the file on the left, a fresh export laid out the same way on the right.
      const compared = (await t.run(Commands.compareExport)) as { file: string; server: string; serverText: string };
      const diff = fake.executed.filter((call) => call.id === 'vscode.diff').at(-1);
      assert.deepEqual(diff?.args.slice(0, 3).map(String), [fileUri, compared.server, '.unleash/development.json ↔ unleash.example.com now · 1 change on the server']);
      const server_ = await fake.vscode.workspace.openTextDocument(Uri.parse(compared.server));
      assert.equal(server_.getText(), serializeExport(exportOf()));
      const before = readFileSync(file, 'utf8').split('\n');
      const after = compared.serverText.split('\n');
      assert.deepEqual(
        before.flatMap((line, i) => (line === after[i] ? [] : [[line.trim(), after[i]?.trim()]])),
        [['"enabled": false', '"enabled": true']],
        'the two sides differ in exactly that change',
      );

      // Update Export: the export command into the same file, and the marks are gone.
      const updated = (await t.run(Commands.updateExport, Uri.parse(compared.server))) as { path: string; changed: boolean };
      assert.deepEqual([updated.path, updated.changed], [file, true]);
      assert.equal(readFileSync(file, 'utf8'), compared.serverText);
      await t.diagnostics.settled();
      const [current] = t.view.provider.getChildren();
      assert.equal((t.view.provider.getTreeItem(current!) as unknown as TreeItem).description, 'matches the server');
      assert.equal(t.view.statusText(), undefined);
      assert.deepEqual(fake.diagnostics(fileUri), []);
    } finally {
      t.dispose();
    }
  });

  it("Update Export writes only what a file's name says it holds: another name is asked about, a name holding ${ refused", async () => {
    const dir = path.join(folder, '.unleash');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // Each declares development inside (the export's featureEnvironments); only their names differ.
    const stale = serializeExport({ ...exportOf(), features: exportOf().features.map((f) => ({ ...f, description: 'old' })) });
    writeFileSync(path.join(dir, 'notes.json'), stale);
    writeFileSync(path.join(dir, '${environment}.json'), stale);
    const t = await setUp();
    try {
      await t.drift.check();
      const before = client.exports;

      // A name that says nothing of development: asked first; dismissed, nothing is asked of the server or written.
      fake.answers.push(undefined);
      assert.equal(await t.run(Commands.updateExport, Uri.file(path.join(dir, 'notes.json'))), undefined);
      assert.deepEqual(fake.messages.at(-1), {
        kind: 'warning',
        modal: true,
        detail: undefined,
        message: 'The name of .unleash/notes.json does not say it holds development, the environment its content declares. Replace its content with the configuration of development from the server?',
        buttons: ['Replace with development'],
      });
      assert.equal(readFileSync(path.join(dir, 'notes.json'), 'utf8'), stale);
      assert.equal(client.exports, before);
      // Confirmed: written into that file, and only there.
      fake.answers.push('Replace with development');
      const confirmed = (await t.run(Commands.updateExport, Uri.file(path.join(dir, 'notes.json')))) as { path: string };
      assert.equal(confirmed.path, path.join(dir, 'notes.json'));
      assert.equal(readFileSync(path.join(dir, 'notes.json'), 'utf8'), serializeExport(exportOf()));

      // A name holding ${ (read as a variable by the export path): refused, no file is written anywhere.
      const refused = (await t.run(Commands.updateExport, Uri.file(path.join(dir, '${environment}.json')))) as { error: string };
      assert.equal(
        refused.error,
        '.unleash/${environment}.json was not updated: its name holds "${", which an export path reads as a variable, and does not say it holds development (its content declares it). Export development with "Unleash: Export Environment…" instead.',
      );
      assert.equal(fake.messages.at(-1)?.message, refused.error);
      assert.equal(readFileSync(path.join(dir, '${environment}.json'), 'utf8'), stale);
      assert.deepEqual(readdirSync(dir).sort(), ['${environment}.json', 'notes.json']);
      assert.equal(client.exports, before + 1, 'only the confirmed update asked the server');
    } finally {
      t.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Update Export refuses a file listing more flags than one export request may name, before asking the server', async () => {
    const dir = path.join(folder, '.unleash');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const names = Array.from({ length: INTAKE_BUDGET.exportNames + 1 }, (_, i) => `flag-${i}`);
    const many = serializeExport({
      features: names.map((name) => ({ name, project: 'default', type: 'release' })),
      featureStrategies: [],
      featureEnvironments: names.map((name) => ({ name, featureName: name, environment: 'development', enabled: false })),
      tagTypes: [],
    });
    writeFileSync(path.join(dir, 'development.selected.json'), many);
    const t = await setUp();
    try {
      await t.drift.check();
      const before = client.exports;
      const refused = (await t.run(Commands.updateExport, Uri.file(path.join(dir, 'development.selected.json')))) as { error: string };
      assert.equal(
        refused.error,
        '.unleash/development.selected.json lists 10001 flags, more than the 10000 one export request may name (the server keeps each request as an audit event): it was not updated. Export development again with "Unleash: Export Environment…", for a project or a tag.',
      );
      assert.equal(client.exports, before, 'no export request');
      assert.equal(readFileSync(path.join(dir, 'development.selected.json'), 'utf8'), many);
    } finally {
      t.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Compare Environments: both sides in the layout of the details document, differing where the environments do', async () => {
    const t = await setUp();
    try {
      const result = (await t.run(Commands.compareEnvironments, { project: 'default', name: 'alpha' })) as { left: string; right: string; environments: string[] };
      assert.deepEqual(result.environments, ['development', 'production']);
      assert.equal(
        result.left,
        'alpha\n  enabled\n  Strategy 1: Gradual rollout: 50% of userId\n    Parameters\n      rollout: 50\n      stickiness: userId\n' +
          '    Constraints\n      - tenant is one of (1 value)\n          acme\n',
      );
      assert.equal(
        result.right,
        'alpha\n  disabled\n  Strategy 1: Gradual rollout: 10% of userId\n    Parameters\n      rollout: 10\n      stickiness: userId\n' +
          '    Constraints\n      - tenant is one of (1 value)\n          acme\n',
      );
      const diff = fake.executed.filter((call) => call.id === 'vscode.diff').at(-1);
      assert.equal(diff?.args[2], 'alpha: development ↔ production');
      const project = (await t.run(Commands.compareEnvironments, { project: 'default', environments: ['production', 'development'] })) as { left: string; flags: number };
      assert.equal(project.flags, 2);
      assert.match(project.left, /^alpha\n {2}disabled\n[\s\S]*\n\nbeta\n {2}disabled\n/);
    } finally {
      t.dispose();
    }
  });
});
