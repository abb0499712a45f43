/**
 * The Export Files view: one row per export file of the workspace (`.unleash/*.json`) while the flags come from a
 * server, saying whether the server has moved away from it since it was written (`2 changes on the server`,
 * `matches the server`), with the changes under it; Compare Export with Server… and Update Export on the row. And
 * the status bar item that shows while an export file is out of date.
 */
import * as vscode from 'vscode';
import { Commands, DRIFT_STATUS_BAR_ID, Views } from '../base/constants';
import { driftCount, type DriftFlag } from '../model/export/exportDrift';
import { DRIFT_KINDS, driftDescription, driftFlagName, driftSummary, driftTooltip, type DriftKind } from '../model/export/driftText';
import { inertText } from '../model/text/markdown';
import { pluralForm } from '../model/text/intl';
import type { ExportDrift, ExportFileReport } from '../services/exportDrift';
import { untrustedMarkdown } from './treeItem';
import { DisposableStore } from '../services/disposables';

/** Changes listed under a file's row; the rest are counted in a last row. */
const MAX_CHANGE_ROWS = 200;

type ExportRow = { report: ExportFileReport } | { report: ExportFileReport; kind: DriftKind; flag: DriftFlag } | { report: ExportFileReport; more: number };

function changeText(kind: DriftKind, environment: string): string {
  switch (kind) {
    case 'added':
      return vscode.l10n.t('added on the server');
    case 'removed':
      return vscode.l10n.t('removed or archived on the server');
    case 'enabled':
      return vscode.l10n.t('enabled in {0} on the server', environment);
    case 'disabled':
      return vscode.l10n.t('disabled in {0} on the server', environment);
  }
}

export class ExportsTreeProvider implements vscode.TreeDataProvider<ExportRow>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ExportRow | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly owned: DisposableStore;

  constructor(private readonly drift: ExportDrift) {
    this.owned = new DisposableStore(
      this.changed,
      drift.onDidChange(() => this.changed.fire(undefined)),
    );
  }

  getChildren(row?: ExportRow): ExportRow[] {
    if (!row) return this.drift.reports.map((report) => ({ report }));
    if ('kind' in row || 'more' in row || !row.report.drift) return [];
    const { report } = row;
    const drift = row.report.drift;
    const changes = DRIFT_KINDS.flatMap((kind) => drift[kind].map((flag) => ({ report, kind, flag })));
    const rows: ExportRow[] = changes.slice(0, MAX_CHANGE_ROWS);
    if (changes.length > MAX_CHANGE_ROWS) rows.push({ report, more: changes.length - MAX_CHANGE_ROWS });
    return rows;
  }

  getTreeItem(row: ExportRow): vscode.TreeItem {
    const { report } = row;
    if ('kind' in row) {
      const item = new vscode.TreeItem(inertText(driftFlagName(row.flag), 200), vscode.TreeItemCollapsibleState.None);
      item.description = changeText(row.kind, inertText(report.environment, 40));
      item.iconPath = new vscode.ThemeIcon(row.kind === 'added' ? 'diff-added' : row.kind === 'removed' ? 'diff-removed' : 'diff-modified');
      item.contextValue = `exportChange:${row.kind}`;
      if (row.kind !== 'removed') {
        item.command = { command: Commands.revealFlag, title: vscode.l10n.t('Show Flag'), arguments: [row.flag.project, row.flag.name] };
      }
      return item;
    }
    if ('more' in row) {
      return new vscode.TreeItem(pluralForm(row.more, { one: vscode.l10n.t('… and {0} more change', row.more), other: vscode.l10n.t('… and {0} more changes', row.more) }));
    }
    const changes = report.drift ? driftCount(report.drift) : 0;
    const item = new vscode.TreeItem(report.path, changes > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = report.uri.toString();
    item.resourceUri = report.uri;
    item.description = report.drift ? driftDescription(report.drift) : report.problem;
    item.iconPath = new vscode.ThemeIcon(
      !report.drift ? 'circle-slash' : changes > 0 ? 'warning' : 'pass',
      changes > 0 ? new vscode.ThemeColor('list.warningForeground') : undefined,
    );
    item.tooltip = untrustedMarkdown(report.drift ? driftTooltip(report.path, this.drift.server, report.drift, report.environment) : report.problem ?? '');
    item.contextValue = !report.drift ? 'exportFile:unchecked' : changes > 0 ? 'exportFile:outOfDate' : 'exportFile:current';
    item.command = { command: 'vscode.open', title: vscode.l10n.t('Open'), arguments: [report.uri] };
    return item;
  }

  dispose(): void {
    this.owned.dispose();
  }
}

export interface ExportsView {
  readonly disposable: vscode.Disposable;
  readonly provider: ExportsTreeProvider;
  /** What the status bar item shows now, or undefined while hidden (for the in-editor tests). */
  statusText(): string | undefined;
}

export function registerExportsView(drift: ExportDrift): ExportsView {
  const provider = new ExportsTreeProvider(drift);
  const treeView = vscode.window.createTreeView(Views.exports, { treeDataProvider: provider });
  const item = vscode.window.createStatusBarItem(DRIFT_STATUS_BAR_ID, vscode.StatusBarAlignment.Left, 9);
  item.name = vscode.l10n.t('Unleash Export Files');
  item.command = Commands.compareExport;
  item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
  let shown: string | undefined;
  const update = () => {
    const outOfDate = drift.outOfDateFiles;
    // Each assignment is a message to the window: only a change is sent.
    if ((treeView.badge?.value ?? 0) !== outOfDate.length) {
      treeView.badge = outOfDate.length > 0 ? { value: outOfDate.length, tooltip: vscode.l10n.t('Export files out of date') } : undefined;
    }
    if (outOfDate.length === 0) {
      shown = undefined;
      item.hide();
      return;
    }
    shown =
      outOfDate.length === 1
        ? vscode.l10n.t('$(git-compare) {0} out of date', inertText(outOfDate[0]?.path ?? '', 60))
        : vscode.l10n.t('$(git-compare) {0} exports out of date', outOfDate.length);
    item.text = shown;
    item.tooltip = outOfDate
      .map((report) => `${inertText(report.path, 100)}: ${inertText(report.drift ? driftSummary(report.drift, report.environment) : '', 400)}`)
      .concat(vscode.l10n.t('Click to compare with {0}.', inertText(drift.server, 100)))
      .join('\n');
    item.show();
  };
  update();
  return {
    disposable: new DisposableStore(provider, treeView, item, drift.onDidChange(update)),
    provider,
    statusText: () => shown,
  };
}
