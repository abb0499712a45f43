/**
 * The committed export against the server, in the server phase (it changes a flag on the server, so it runs last):
 * an export written now matches; `admin-panel` switched off in development on the real server, a Refresh, and the
 * export's row in the Export Files view, the status bar and the file's diagnostics say so; Compare Export with Server
 * opens a diff editor whose two sides differ in exactly that change; Update Export writes the file again and every
 * mark goes.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { waitFor, waitForState, workspaceUri, type Steps } from './util';

const FILE = '.unleash/development.json';

/** The Export Files row of the file: label, description, and its changes as `label — description`. */
async function exportRow(api: ExtensionApi): Promise<{ description: string; changes: string[] }> {
  const provider = api.exportsView.provider;
  const rows = provider.getChildren();
  const file = rows.find((row) => provider.getTreeItem(row).label === FILE);
  assert.ok(file, `no row ${FILE} among ${JSON.stringify(rows.map((row) => provider.getTreeItem(row).label))}`);
  const changes = provider.getChildren(file).map((row) => {
    const item = provider.getTreeItem(row);
    return `${String(item.label)} — ${String(item.description)}`;
  });
  return { description: String(provider.getTreeItem(file).description), changes };
}

async function refreshed(api: ExtensionApi): Promise<void> {
  await vscode.commands.executeCommand('unleash.refresh');
  await waitForState(api, 'ready');
  await api.exportDrift.check();
  await api.exportDiagnostics.settled();
}

export async function driftChecks(api: ExtensionApi, steps: Steps, adminCall: (method: string, path: string) => Promise<void>): Promise<void> {
  const file = workspaceUri(FILE);

  await steps.step('an export written now matches the server: its row says so, no status bar item, no diagnostic', async () => {
    const result = await vscode.commands.executeCommand<{ error?: string }>('unleash.exportEnvironment', { environment: 'development', scope: 'all' });
    assert.equal(result.error, undefined, result.error);
    await api.exportDrift.recheck();
    await refreshed(api);
    assert.deepEqual(await exportRow(api), { description: 'matches the server', changes: [] });
    assert.equal(api.exportsView.statusText(), undefined);
    assert.deepEqual(vscode.languages.getDiagnostics(file).filter((d) => d.code === 'export-out-of-date'), []);
  });

  await steps.step('admin-panel switched off in development on the server: after a refresh, the row, the status bar and the file say so', async () => {
    await adminCall('POST', '/api/admin/projects/default/features/admin-panel/environments/development/off');
    await refreshed(api);
    assert.deepEqual(await exportRow(api), { description: '1 change on the server', changes: ['admin-panel — disabled in development on the server'] });
    assert.equal(api.exportsView.statusText(), `$(git-compare) ${FILE} out of date`);
    const diagnostics = await waitFor('the diagnostics on the export file', () => {
      const found = vscode.languages.getDiagnostics(file).filter((d) => d.code === 'export-out-of-date');
      return found.length === 2 && found;
    });
    const host = api.exportDrift.server;
    assert.deepEqual(
      diagnostics.map((d) => d.message),
      [
        `This export is out of date with ${host}: 1 flag disabled in development (admin-panel). Run "Unleash: Compare Export with Server…" to see every difference, or "Unleash: Update Export" to write it again.`,
        `admin-panel is disabled in development on ${host}; this export says enabled.`,
      ],
    );
    const text = (await vscode.workspace.openTextDocument(file)).getText().split('\n');
    assert.match(text[diagnostics[1]!.range.start.line] ?? '', /"name": "admin-panel"/, 'the second one is on the flag\'s entry');
  });

  await steps.step('Compare Export with Server: a diff editor whose two sides differ in exactly that change', async () => {
    const result = await vscode.commands.executeCommand<{ file: string; server: string }>('unleash.compareExport', file);
    const tab = await waitFor('the diff editor', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff && input;
    });
    assert.equal(tab.original.toString(), file.toString());
    assert.equal(tab.modified.toString(), result.server);
    assert.equal(tab.modified.scheme, 'unleash-export-server');
    const left = (await vscode.workspace.openTextDocument(tab.original)).getText().split('\n');
    const right = (await vscode.workspace.openTextDocument(tab.modified)).getText().split('\n');
    assert.equal(left.length, right.length, 'the same layout on both sides');
    const changed = left.flatMap((line, i) => (line === right[i] ? [] : [i]));
    assert.deepEqual(changed.map((i) => [left[i]?.trim(), right[i]?.trim()]), [['"enabled": true,', '"enabled": false,']]);
    // That line is admin-panel's state in development.
    const entry = left.slice(Math.max(0, changed[0]! - 6), changed[0]! + 6).join('\n');
    assert.match(entry, /"featureName": "admin-panel"/);
  });

  await steps.step('Update Export writes the file again: the row matches, the status bar item and the diagnostics are gone', async () => {
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(tab instanceof vscode.TabInputTextDiff);
    const result = await vscode.commands.executeCommand<{ changed?: boolean; error?: string }>('unleash.updateExport', tab.modified);
    assert.deepEqual([result.error, result.changed], [undefined, true]);
    await api.exportDiagnostics.settled();
    assert.deepEqual(await exportRow(api), { description: 'matches the server', changes: [] });
    assert.equal(api.exportsView.statusText(), undefined);
    await waitFor('no diagnostic on the export file', () => vscode.languages.getDiagnostics(file).every((d) => d.code !== 'export-out-of-date'));
    // The editor reloads the file's document from disk a moment after the write.
    const right = (await vscode.workspace.openTextDocument(tab.modified)).getText();
    const left = await vscode.workspace.openTextDocument(tab.original);
    await waitFor('the diff editor showing two equal sides', () => left.getText() === right, 10_000);
  });
}
