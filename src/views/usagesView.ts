/**
 * Find Usages' results in VS Code's References view (the built-in references-view extension's `setInput`): one row
 * per file with its count, and under it one row per use with the line's text. Where that extension is missing or
 * disabled, the editor's peek of the same locations.
 */
import * as vscode from 'vscode';
import { clean, MAX_LABEL } from '../model/text/plainText';
import type { FileUsages } from '../services/flagUsageSearch';
import { useCount } from './usageCounts';

/** The shape of the References view's input (the references-view extension's API, as VS Code documents it). */
interface SymbolTreeInput {
  readonly contextValue: string;
  readonly title: string;
  readonly location: vscode.Location;
  resolve(): Promise<SymbolTreeModel | undefined>;
  with(location: vscode.Location): SymbolTreeInput;
}

interface SymbolTreeModel {
  message: string | undefined;
  provider: vscode.TreeDataProvider<UsageNode>;
}

type UsageNode = { file: FileUsages } | { file: FileUsages; use: FileUsages['ranges'][number] };

const REFERENCES_VIEW = 'vscode.references-view';
/** The preview of one use: at most this much of the line on each side of the name. */
const CONTEXT = 40;

/** Shows the usages (at least one) under `title`; answers where they went: `references` or `peek`. */
export async function showUsages(title: string, files: FileUsages[]): Promise<'references' | 'peek'> {
  const first = files[0];
  if (!first?.ranges[0]) throw new Error('showUsages needs at least one usage');
  const anchor = new vscode.Location(first.uri, first.ranges[0].range);
  const api = await referencesView();
  if (api) {
    api.setInput(usagesInput(title, files, anchor));
    return 'references';
  }
  const locations = files.flatMap((file) => file.ranges.map((use) => new vscode.Location(file.uri, use.range)));
  await vscode.commands.executeCommand('editor.action.showReferences', anchor.uri, anchor.range.start, locations);
  return 'peek';
}

async function referencesView(): Promise<{ setInput(input: SymbolTreeInput): void } | undefined> {
  const extension = vscode.extensions.getExtension<{ setInput?: unknown }>(REFERENCES_VIEW);
  if (!extension) return undefined;
  try {
    const api = await extension.activate();
    return typeof api?.setInput === 'function' ? (api as { setInput(input: SymbolTreeInput): void }) : undefined;
  } catch {
    return undefined;
  }
}

function usagesInput(title: string, files: FileUsages[], location: vscode.Location): SymbolTreeInput {
  const count = files.reduce((sum, file) => sum + file.ranges.length, 0);
  const input: SymbolTreeInput = {
    contextValue: 'unleash.usages',
    title,
    location,
    resolve: async () => ({ message: useCount(count, files.length), provider: usagesTree(files) }),
    with: () => input,
  };
  return input;
}

/** The rows the References view shows. */
function usagesTree(files: FileUsages[]): vscode.TreeDataProvider<UsageNode> {
  return {
    getChildren: (node?: UsageNode) => (!node ? files.map((file) => ({ file })) : 'use' in node ? [] : node.file.ranges.map((use) => ({ file: node.file, use }))),
    getTreeItem: (node: UsageNode) => ('use' in node ? useItem(node.file, node.use) : fileItem(node.file)),
  };
}

function fileItem(file: FileUsages): vscode.TreeItem {
  const item = new vscode.TreeItem(file.uri, vscode.TreeItemCollapsibleState.Expanded);
  item.description = String(file.ranges.length);
  return item;
}

function useItem(file: FileUsages, use: FileUsages['ranges'][number]): vscode.TreeItem {
  const { range, lineText } = use;
  // The line around the use, each part cleaned on its own so that the highlight stays on the name.
  const before = clean(lineText.slice(Math.max(0, range.start.character - CONTEXT), range.start.character), CONTEXT).trimStart();
  const name = clean(lineText.slice(range.start.character, range.end.character), MAX_LABEL);
  const after = clean(lineText.slice(range.end.character, range.end.character + CONTEXT), CONTEXT).trimEnd();
  const item = new vscode.TreeItem({ label: before + name + after, highlights: [[before.length, before.length + name.length]] });
  item.description = vscode.l10n.t('line {0}', range.start.line + 1);
  item.command = { command: 'vscode.open', title: vscode.l10n.t('Open'), arguments: [file.uri, { selection: range }] };
  return item;
}
