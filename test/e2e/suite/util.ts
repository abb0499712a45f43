/**
 * Helpers of the in-editor suite: a tiny step runner (each check logs `[suite] ✓ …` with its time; every failure is
 * collected and reported at the end), the extension's test API, the Flags tree as VS Code renders it, hovers.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import type { TreeNode } from '../../../src/model/tree/node';

const EXTENSION_ID = 'unleash-flags.unleash-flags';

export function log(message: string): void {
  console.log(`[suite] ${message}`);
}

export class Steps {
  private readonly failures: string[] = [];
  private count = 0;

  /** Runs one check; a failure is logged and remembered, and the next steps still run. */
  async step(name: string, check: () => Promise<void> | void): Promise<boolean> {
    const t0 = Date.now();
    this.count++;
    try {
      await check();
      log(`✓ ${name} (${Date.now() - t0} ms)`);
      return true;
    } catch (error) {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      log(`✗ ${name} (${Date.now() - t0} ms)\n${text}`);
      this.failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }

  /** Throws when any step failed (the editor then exits with code 1). */
  finish(phase: string): void {
    if (this.failures.length) {
      throw new Error(`${this.failures.length} of ${this.count} checks failed in phase ${phase}:\n- ${this.failures.join('\n- ')}`);
    }
    log(`all ${this.count} checks passed in phase ${phase}`);
  }
}

/** Activates the extension (if onStartupFinished has not yet) and returns its test API. */
export async function extensionApi(): Promise<ExtensionApi> {
  const extension = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not installed`);
  const api = await extension.activate();
  assert.ok(extension.isActive, 'the extension is active');
  assert.ok(api && api.store && api.flagsView, 'activate() returns { store, flagsView, activationMs }');
  return api;
}

/**
 * The files of the extension's dist/ in the extension host's module cache, sorted: extension.js from the start,
 * core.js (undici, zod) once something needed the flags.
 */
export function loadedBundles(): string[] {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not installed`);
  const dist = path.join(fs.realpathSync(extension.extensionPath), 'dist') + path.sep;
  return Object.keys(require.cache).filter((file) => file.startsWith(dist)).map((file) => path.basename(file)).sort();
}

export async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until the store settled in `state` (not 'loading'). */
export async function waitForState(api: ExtensionApi, state: string, timeoutMs = 30_000): Promise<void> {
  await waitFor(`store.state === '${state}' (now '${api.store.state}')`, () => api.store.state === state, timeoutMs).catch((error: unknown) => {
    const detail = api.store.error instanceof Error ? ` (error: ${api.store.error.message})` : '';
    throw new Error(`${error instanceof Error ? error.message : String(error)}${detail}`);
  });
}

// ------------------------------------------------------------------------------------------------ the tree

/** One row as the user sees it: the label and the description of the TreeItem VS Code draws. */
export interface Row {
  node: TreeNode;
  label: string;
  description: string;
  collapsible: vscode.TreeItemCollapsibleState | undefined;
}

function text(value: string | vscode.TreeItemLabel | boolean | undefined): string {
  if (value === undefined || typeof value === 'boolean') return '';
  return typeof value === 'string' ? value : value.label;
}

/** The children of a row (the root when `parent` is undefined), through the view's TreeDataProvider. */
export async function rows(api: ExtensionApi, parent?: Row): Promise<Row[]> {
  const provider = api.flagsView.provider;
  const nodes = (await provider.getChildren(parent?.node)) ?? [];
  return Promise.all(
    nodes.map(async (node) => {
      const item = await provider.getTreeItem(node);
      return { node, label: text(item.label), description: text(item.description), collapsible: item.collapsibleState };
    }),
  );
}

export function row(list: Row[], label: string): Row {
  const found = list.find((candidate) => candidate.label === label);
  assert.ok(found, `no row "${label}" among ${JSON.stringify(list.map((r) => r.label))}`);
  return found;
}

/** `label — description` per row, for readable deepEqual failures. */
export function shown(list: Row[]): string[] {
  return list.map((r) => (r.description ? `${r.label} — ${r.description}` : r.label));
}

// ------------------------------------------------------------------------------------------------ hovers

export function workspaceUri(relative: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'a workspace folder is open');
  return vscode.Uri.joinPath(folder.uri, relative);
}

/** The position in the middle of the first occurrence of `needle` in the file. */
export async function positionOf(uri: vscode.Uri, needle: string, occurrence = 1): Promise<vscode.Position> {
  const document = await vscode.workspace.openTextDocument(uri);
  let offset = -1;
  for (let i = 0; i < occurrence; i++) offset = document.getText().indexOf(needle, offset + 1);
  assert.ok(offset >= 0, `${needle} not found in ${uri.path}`);
  return document.positionAt(offset + Math.floor(needle.length / 2));
}

/** All hover markdown at a position (every provider), with markdown escapes removed for matching. */
async function hoverAt(uri: vscode.Uri, position: vscode.Position): Promise<{ raw: string; plain: string }> {
  const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position)) ?? [];
  const raw = hovers
    .flatMap((hover) => hover.contents.map((content) => (typeof content === 'string' ? content : content.value)))
    .join('\n\n');
  return { raw, plain: raw.replace(/\\([!-/:-@[-`{-~])/g, '$1') };
}

/** The hover on the first `needle` of a workspace file. */
export async function hoverOn(relative: string, needle: string, occurrence = 1): Promise<{ raw: string; plain: string }> {
  const uri = workspaceUri(relative);
  return hoverAt(uri, await positionOf(uri, needle, occurrence));
}
