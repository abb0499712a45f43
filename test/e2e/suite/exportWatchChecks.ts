/**
 * The export files followed as they change on disk, with no reload and no Refresh: what VS Code's own file watcher
 * reports reaches the Export Files view (server phase) and offline mode's Flags view (noToken phase). Changes are
 * made with Node's fs from the extension host, as `git pull`, a checkout or a file manager would make them: the
 * editor hears of them only through its watcher.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { seedFlag } from '../../../tools/unleash/seed-data';
import { row, rows, waitFor, workspaceUri, type Steps } from './util';

/** The Export Files view's rows, `label — description`, and each file's changes under it. */
function exportRows(api: ExtensionApi): string[] {
  const provider = api.exportsView.provider;
  return provider.getChildren().flatMap((file) => {
    const item = provider.getTreeItem(file);
    const changes = provider.getChildren(file).map((change) => {
      const changeItem = provider.getTreeItem(change);
      return `  ${String(changeItem.label)} — ${String(changeItem.description)}`;
    });
    return [`${String(item.label)} — ${String(item.description)}`, ...changes];
  });
}

/** Waits for the Export Files view to show exactly `expected`; a timeout says what it showed last. */
async function exportsViewShows(api: ExtensionApi, what: string, expected: string[]): Promise<void> {
  try {
    await waitFor(`the Export Files view to show ${what} ${JSON.stringify(expected)}`, () => JSON.stringify(exportRows(api)) === JSON.stringify(expected));
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)} (it shows ${JSON.stringify(exportRows(api))})`);
  }
}

interface ExportFileText {
  featureEnvironments: Array<{ featureName: string; enabled: boolean }>;
}

/** Server phase: `.unleash/` moved away, a new export, the file changed from outside, the folder removed. */
export async function exportWatchChecks(api: ExtensionApi, steps: Steps): Promise<void> {
  const dir = workspaceUri('.unleash').fsPath;
  const production = workspaceUri('.unleash/production.json').fsPath;
  // A flag the seed enables in production: the file will say it is off.
  const flag = seedFlag('checkout-fraud-check');

  await steps.step('.unleash/ moved away outside the editor: the Export Files view empties without a refresh', async () => {
    await waitFor('the Export Files view to list the workspace\'s export files', () => exportRows(api).length > 0);
    fs.renameSync(dir, `${dir}-moved`);
    fs.rmSync(`${dir}-moved`, { recursive: true, force: true });
    await exportsViewShows(api, 'no file', []);
  });

  await steps.step('Export Environment production into a workspace without .unleash/: its row shows without a reload', async () => {
    const result = await vscode.commands.executeCommand<{ error?: string; path?: string }>('unleash.exportEnvironment', { environment: 'production', scope: 'all' });
    assert.equal(result.error, undefined, result.error);
    assert.equal(result.path, production);
    await exportsViewShows(api, 'the new export', ['.unleash/production.json — matches the server']);
  });

  await steps.step(`the export changed outside the editor (as a git pull would): the view follows (${flag.name} off in the file)`, async () => {
    assert.ok(flag.enabledIn.includes('production'), `${flag.name} is on in production in the seed`);
    const data = JSON.parse(fs.readFileSync(production, 'utf8')) as ExportFileText;
    const state = data.featureEnvironments.find((entry) => entry.featureName === flag.name);
    assert.ok(state, `${flag.name} in the export`);
    state.enabled = false;
    fs.writeFileSync(production, `${JSON.stringify(data, null, 2)}\n`);
    await exportsViewShows(api, 'the change', ['.unleash/production.json — 1 change on the server', `  ${flag.name} (project ${flag.project}) — enabled in production on the server`]);
  });

  await steps.step('.unleash/ removed outside the editor: its row goes', async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await exportsViewShows(api, 'no file', []);
  });
}

/** noToken phase, offline: an export file added from outside shows its flags in the Flags view; removed, they go. */
export async function offlineWatchChecks(api: ExtensionApi, steps: Steps): Promise<void> {
  const added = workspaceUri('.unleash/staging.json').fsPath;
  const flagsOfDefault = async () => rows(api, row(await rows(api), 'default'));

  await steps.step('offline: an export file added outside the editor shows its flags without a reload', async () => {
    const exportFile = {
      features: [{ name: 'added-outside', project: 'default', type: 'release' }],
      featureStrategies: [],
      featureEnvironments: [{ name: 'added-outside', featureName: 'added-outside', environment: 'staging', enabled: true }],
      tagTypes: [],
    };
    fs.writeFileSync(added, `${JSON.stringify(exportFile, null, 2)}\n`);
    await waitFor('the view to name the new file', () => api.store.state === 'ready' && api.flagsView.treeView.description?.includes('.unleash/staging.json'));
    assert.equal(api.flagsView.treeView.description, 'offline: .unleash/development.json, .unleash/production.json, .unleash/staging.json');
    const flags = await flagsOfDefault();
    assert.ok(flags.some((flag) => flag.label === 'added-outside'), JSON.stringify(flags.map((flag) => flag.label)));
  });

  await steps.step('offline: the file removed outside the editor takes its flags away', async () => {
    fs.rmSync(added);
    await waitFor('the view to name the two files left', () => api.store.state === 'ready' && api.flagsView.treeView.description === 'offline: .unleash/development.json, .unleash/production.json');
    const flags = await flagsOfDefault();
    assert.ok(!flags.some((flag) => flag.label === 'added-outside'), JSON.stringify(flags.map((flag) => flag.label)));
  });
}
