/** Turns a node of the Flags tree (plain data, src/model/tree/) into the TreeItem VS Code shows. */
import * as vscode from 'vscode';
import { Commands } from '../base/constants';
import { openableUrl } from '../model/text/markdown';
import type { Collapsible, TreeNode } from '../model/tree/node';

const COLLAPSIBLE: Record<Collapsible, vscode.TreeItemCollapsibleState> = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
};

/** Markdown built from flag data: never trusted (no command links), no HTML, no `$(icon)` syntax. */
export function untrustedMarkdown(source: string): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString(source, false);
  markdown.isTrusted = false;
  markdown.supportHtml = false;
  markdown.supportThemeIcons = false;
  return markdown;
}

/** The item of a row, without its tooltip: VS Code asks for that on hover (see `withTooltip`). */
export function toTreeItem(node: TreeNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.label, COLLAPSIBLE[node.collapsible]);
  item.id = node.id;
  item.description = node.description;
  item.contextValue = node.contextValue;
  if (node.icon) {
    item.iconPath = new vscode.ThemeIcon(node.icon.id, node.icon.color ? new vscode.ThemeColor(node.icon.color) : undefined);
  }
  if (node.accessibleLabel) item.accessibilityInformation = { label: node.accessibleLabel };
  item.command = commandOf(node);
  return item;
}

/** Fills in the tooltip of an item made by `toTreeItem` (TreeDataProvider.resolveTreeItem). */
export function withTooltip(item: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
  const tooltip = node.tooltip;
  if (tooltip) item.tooltip = untrustedMarkdown(tooltip);
  return item;
}

/** What selecting a row does: open its http(s) link, reveal the flag it points at, or retry a failed load or listing. */
function commandOf(node: TreeNode): vscode.Command | undefined {
  const url = openableUrl(node.url);
  if (url !== undefined) return { command: 'vscode.open', title: vscode.l10n.t('Open Link'), arguments: [vscode.Uri.parse(url, true)] };
  if (node.target) {
    return { command: Commands.revealFlag, title: vscode.l10n.t('Show Flag'), arguments: [node.target.project, node.target.name] };
  }
  if (node.retry) return { command: Commands.refresh, title: vscode.l10n.t('Retry'), arguments: [node.retry] };
  if (node.refreshesList) return { command: Commands.refresh, title: vscode.l10n.t('Retry'), arguments: [] };
  return undefined;
}
