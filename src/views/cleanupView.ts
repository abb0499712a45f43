/**
 * The Cleanup view: the flags that are safe to remove (model/activity/cleanup.ts: stale, completed, or not evaluated for
 * `unleash.cleanup.unusedDays` days), each with how many places of the workspace use it, and those places under it
 * (a click opens one; Find Usages shows them all). The candidates come from the catalog; the uses are counted in one
 * pass over the workspace's files when the view is shown, again after a refresh or "Count Uses Again".
 */
import * as vscode from 'vscode';
import { CancelledError } from '../api/errors';
import { Commands, SETTINGS_SECTION, Settings, Views, settingId } from '../base/constants';
import type { FlagStore } from '../model/store/flagStore';
import { pluralForm } from '../model/text/intl';
import { escapeMarkdown, inertText } from '../model/text/markdown';
import { cleanupCandidates, cleanupRule, describeReasons, type CleanupCandidate } from '../model/activity/cleanup';
import { flagName } from '../model/text/flagText';
import { clean, MAX_LABEL } from '../model/text/plainText';
import type { CodeFlags } from '../services/codeFlags';
import { countFlagUsages, type FlagUses, type UsePlace } from '../services/cleanupUsages';
import type { Logger } from '../base/logger';
import { untrustedMarkdown } from './treeItem';
import { useCount } from './usageCounts';
import { DisposableStore } from '../services/disposables';

/** Flags listed at most (and whose uses are counted); the rest are counted in a last row. */
const MAX_CLEANUP_ROWS = 500;

export type CleanupRow =
  | { kind: 'flag'; project: string; name: string; candidate: CleanupCandidate }
  | { kind: 'use'; place: UsePlace }
  | { kind: 'more'; count: number; what: 'flags' | 'uses' };

function unusedDays(): number {
  const value = vscode.workspace.getConfiguration(SETTINGS_SECTION).get<unknown>(Settings.cleanupUnusedDays, 30);
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.min(Math.floor(value), 36_500) : 30;
}

function usesText(uses: FlagUses | undefined, counting: boolean): string {
  if (uses === undefined) return counting ? vscode.l10n.t('counting uses…') : '';
  return uses.count === 0 ? vscode.l10n.t('no use in the workspace') : useCount(uses.count, uses.files);
}

/** Whether two lists of candidates name the same flags, in the same order. */
function sameNames(a: readonly CleanupCandidate[], b: readonly CleanupCandidate[]): boolean {
  return a.length === b.length && a.every((candidate, i) => candidate.project === b[i]?.project && candidate.flag.name === b[i]?.flag.name);
}

export class CleanupTreeProvider implements vscode.TreeDataProvider<CleanupRow>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<CleanupRow | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private candidates: CleanupCandidate[] = [];
  private uses: Map<string, FlagUses> | undefined;
  private counting: vscode.CancellationTokenSource | undefined;
  /** The catalog the candidates and uses were made from, and the store's statusVersion then. */
  private basis: unknown;
  private basisStatus: string | undefined;
  private readonly owned: DisposableStore;

  constructor(
    private readonly store: FlagStore,
    private readonly codeFlags: CodeFlags,
    private readonly logger: Logger,
    private readonly visible: () => boolean,
  ) {
    this.owned = new DisposableStore(
      this.changed,
      store.onDidChange(() => this.follow()),
      // A status proved without a new catalog (a stage read in the background): the candidates again.
      store.onDidChangeStatus(() => this.follow()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(settingId(Settings.cleanupUnusedDays))) this.recount();
      }),
    );
  }

  /** The rule, for the view's message when no flag is listed. */
  get rule(): string {
    return cleanupRule(unusedDays());
  }

  get listed(): readonly CleanupCandidate[] {
    return this.candidates;
  }

  /** Reads the candidates again and counts their uses (when the view is shown). */
  recount(): void {
    this.basis = undefined;
    this.follow();
  }

  /** Resolves once the uses of the current candidates are counted (or the count stopped). */
  async settled(): Promise<void> {
    while (this.counting) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /** The candidates follow the catalog; their uses are counted while the view is shown. */
  follow(): void {
    if (this.store.state !== 'ready' || this.store.partial) return;
    const basis = `${this.store.statusVersion}`;
    if (this.basis === this.store.catalog && this.basisStatus === basis) return;
    // Nothing is listed or counted for a view nobody looks at; it follows once shown.
    if (!this.visible()) return;
    const sameCatalog = this.basis === this.store.catalog;
    this.basis = this.store.catalog;
    this.basisStatus = basis;
    const before = this.candidates;
    this.candidates = cleanupCandidates(this.store.catalog, new Date(), unusedDays(), (flag) => this.store.status(flag));
    // The same catalog with other statuses: the uses already counted stand when the same flags are listed.
    if (sameCatalog && this.uses !== undefined && sameNames(before, this.candidates)) {
      this.changed.fire(undefined);
      return;
    }
    this.uses = undefined;
    this.changed.fire(undefined);
    void this.count();
  }

  private async count(): Promise<void> {
    this.counting?.cancel();
    const source = new vscode.CancellationTokenSource();
    this.counting = source;
    const names = [...new Set(this.candidates.slice(0, MAX_CLEANUP_ROWS).map((candidate) => candidate.flag.name))];
    try {
      if (!this.codeFlags.ready || names.length === 0) {
        this.uses = new Map();
        return;
      }
      const started = performance.now();
      const counted = await countFlagUsages(names, this.codeFlags, this.logger, source.token);
      if (counted.cancelled || this.counting !== source) return;
      this.uses = counted.uses;
      this.logger.debug(`Counted the uses of ${names.length} cleanup candidates in ${counted.searched} files in ${Math.round(performance.now() - started)} ms.`);
    } catch (error) {
      if (!(error instanceof CancelledError)) this.logger.warn(`Counting the uses of the cleanup candidates failed: ${String(error)}`);
    } finally {
      if (this.counting === source) {
        this.counting = undefined;
        this.changed.fire(undefined);
      }
      source.dispose();
    }
  }

  getChildren(row?: CleanupRow): CleanupRow[] {
    if (!row) {
      const rows: CleanupRow[] = this.candidates
        .slice(0, MAX_CLEANUP_ROWS)
        .map((candidate) => ({ kind: 'flag', project: candidate.project, name: candidate.flag.name, candidate }));
      if (this.candidates.length > MAX_CLEANUP_ROWS) rows.push({ kind: 'more', count: this.candidates.length - MAX_CLEANUP_ROWS, what: 'flags' });
      return rows;
    }
    if (row.kind !== 'flag') return [];
    const uses = this.uses?.get(row.name);
    if (!uses) return [];
    const rows: CleanupRow[] = uses.places.map((place) => ({ kind: 'use', place }));
    if (uses.count > uses.places.length) rows.push({ kind: 'more', count: uses.count - uses.places.length, what: 'uses' });
    return rows;
  }

  getTreeItem(row: CleanupRow): vscode.TreeItem {
    if (row.kind === 'more') {
      const label =
        row.what === 'flags'
          ? pluralForm(row.count, { one: vscode.l10n.t('… and {0} more flag', row.count), other: vscode.l10n.t('… and {0} more flags', row.count) })
          : pluralForm(row.count, { one: vscode.l10n.t('… and {0} more use (Find Usages lists all)', row.count), other: vscode.l10n.t('… and {0} more uses (Find Usages lists all)', row.count) });
      return new vscode.TreeItem(label);
    }
    if (row.kind === 'use') {
      const { place } = row;
      const item = new vscode.TreeItem(clean(place.preview.trim(), 120) || vscode.l10n.t('(use)'));
      item.description = vscode.l10n.t('{0}, line {1}', vscode.workspace.asRelativePath(place.uri), place.range.start.line + 1);
      item.iconPath = new vscode.ThemeIcon('references');
      item.command = { command: 'vscode.open', title: vscode.l10n.t('Open'), arguments: [place.uri, { selection: place.range }] };
      return item;
    }
    const uses = this.uses?.get(row.name);
    const now = new Date();
    const item = new vscode.TreeItem(flagName(row.name, MAX_LABEL), uses && uses.count > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `cleanup:${row.project}/${row.name.slice(0, 200)}`;
    const reasons = describeReasons(row.candidate, now);
    item.description = clean([reasons, usesText(uses, this.counting !== undefined)].filter(Boolean).join(' · '), 400);
    item.iconPath = new vscode.ThemeIcon('trash');
    item.contextValue = 'cleanupFlag';
    item.tooltip = untrustedMarkdown(
      [
        `**${escapeMarkdown(flagName(row.name, MAX_LABEL))}** · ${escapeMarkdown(vscode.l10n.t('project {0}', clean(row.project, 60)))}`,
        escapeMarkdown(reasons),
        escapeMarkdown(usesText(uses, this.counting !== undefined) || vscode.l10n.t('Uses are counted while this view is shown.')),
        escapeMarkdown(vscode.l10n.t('Listed because it is {0} ({1}).', this.rule, settingId(Settings.cleanupUnusedDays))),
      ].join('\n\n'),
    );
    return item;
  }

  dispose(): void {
    this.counting?.cancel();
    this.owned.dispose();
  }
}

export interface CleanupView {
  readonly disposable: vscode.Disposable;
  readonly provider: CleanupTreeProvider;
  readonly treeView: vscode.TreeView<CleanupRow>;
}

export function registerCleanupView(deps: { store: FlagStore; codeFlags: CodeFlags; logger: Logger }): CleanupView {
  // The provider asks whether the view is shown; the view needs the provider: it is read once made.
  const shown = { view: undefined as vscode.TreeView<CleanupRow> | undefined };
  const provider = new CleanupTreeProvider(deps.store, deps.codeFlags, deps.logger, () => shown.view?.visible === true);
  const view = vscode.window.createTreeView(Views.cleanup, { treeDataProvider: provider });
  shown.view = view;
  const message = () => {
    const text =
      deps.store.state === 'ready' && provider.listed.length === 0
        ? inertText(vscode.l10n.t('No flag is {0}. The setting {1} sets the days.', provider.rule, settingId(Settings.cleanupUnusedDays)))
        : undefined;
    // Each assignment is a message to the window: only a change is sent.
    if (view.message !== text) view.message = text;
  };
  const onVisible = () => {
    if (view.visible) {
      void deps.store.load();
      provider.follow();
    }
  };
  const disposable = new DisposableStore(
    provider,
    view,
    view.onDidChangeVisibility(onVisible),
    provider.onDidChangeTreeData(message),
    vscode.commands.registerCommand(Commands.refreshCleanup, () => provider.recount()),
  );
  onVisible();
  message();
  return { disposable, provider, treeView: view };
}
