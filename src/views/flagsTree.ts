/**
 * The Flags view: a TreeDataProvider over the tree model (src/model/tree/), redrawn when the store changes, with
 * the source as the view's description and a failed load as its message.
 */
import * as vscode from 'vscode';
import { Views } from '../base/constants';
import type { FlagStore } from '../model/store/flagStore';
import { activityMarkdown } from '../model/activity/activityText';
import { USAGE_HOURS, type FlagActivity } from '../model/activity/flagActivity';
import { childrenOf, findFlagNode } from '../model/tree/children';
import { viewDescription, viewMessage } from '../model/tree/commandData';
import type { TreeNode, TreeOptions } from '../model/tree/node';
import { rootNodes } from '../model/tree/root';
import type { Logger } from '../base/logger';
import { toTreeItem, untrustedMarkdown, withTooltip } from './treeItem';
import { DisposableStore } from '../services/disposables';

/** What a flag's tooltip reads of FlagActivity. */
type TooltipActivity = Pick<FlagActivity, 'latest' | 'usage' | 'peekLatest' | 'peekUsage'>;

/** How long a flag's tooltip waits for its last change and usage before it shows without them. */
const TOOLTIP_WAIT_MS = 2_000;

export class FlagsTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private roots: TreeNode[] | undefined;
  /** Cancelled whenever the store changes: loads started for the previous tree stop waiting. */
  private loads = new vscode.CancellationTokenSource();
  /** The store's statusVersion the rows were last redrawn for. */
  private drawnStatus = -1;
  private readonly owned: DisposableStore;

  constructor(
    private readonly store: FlagStore,
    private readonly logger: Logger,
    private readonly options: TreeOptions = {},
    private readonly activity?: TooltipActivity,
  ) {
    this.owned = new DisposableStore(
      this.changed,
      store.onDidChange(() => this.reset()),
      // A flag's row follows its details (lifecycle, stale, archived) once the store has read them.
      store.onDidLoadDetails((ref) => {
        // This row's redraw covers the status its details changed: no other row needs drawing again for it.
        this.drawnStatus = store.statusVersion;
        void this.redrawFlag(ref.project, ref.name);
      }),
      // Statuses changed without details (stages read in the background after a listing): the rows are redrawn.
      store.onDidChangeStatus(() => this.redrawStatuses()),
    );
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return toTreeItem(node);
  }

  /**
   * Tooltips are built on hover: the root may hold 10,000 flags. A flag's tooltip also says its last change and usage,
   * read for that one flag (VS Code shows the tooltip once they are known, or after TOOLTIP_WAIT_MS; a failure says
   * why instead).
   */
  resolveTreeItem(item: vscode.TreeItem, node: TreeNode, token?: vscode.CancellationToken): vscode.TreeItem | Promise<vscode.TreeItem> {
    withTooltip(item, node);
    const activity = this.activity;
    if (!activity || node.kind !== 'feature' || !node.flag) return item;
    return this.withActivity(item, node.flag, node.tooltip ?? '', activity, token);
  }

  private async withActivity(
    item: vscode.TreeItem,
    flag: { project: string; name: string },
    tooltip: string,
    activity: TooltipActivity,
    token: vscode.CancellationToken | undefined,
  ): Promise<vscode.TreeItem> {
    const { project, name } = flag;
    const reads = Promise.all([activity.latest(project, name, token), activity.usage(name, token)]).catch(() => undefined);
    // A slow server does not hold the tooltip back: past TOOLTIP_WAIT_MS it says they are being read.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([reads, new Promise<void>((resolve) => (timer = setTimeout(resolve, TOOLTIP_WAIT_MS)))]);
    clearTimeout(timer);
    const text = activityMarkdown({ latest: activity.peekLatest(project, name), usage: activity.peekUsage(name), now: new Date(), hours: USAGE_HOURS });
    if (text !== '' && !token?.isCancellationRequested) item.tooltip = untrustedMarkdown(`${tooltip}\n\n${text}`);
    return item;
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (!node) {
      // Asked for the top level: the view is on screen, so its flags are needed (the first time, this starts the load).
      void this.store.load();
      return this.rootNodes();
    }
    const children = await childrenOf(node, this.store, this.loads.token, this.options);
    for (const child of children) {
      if (child.kind === 'error') this.logger.warn(`Expanding ${node.id}: ${child.label}`);
    }
    return children;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  /** The top level, built once per catalog so that reveal and the tree share nodes. */
  rootNodes(): TreeNode[] {
    this.roots ??= rootNodes(this.store, this.options);
    return this.roots;
  }

  /** Asks VS Code for a node's children again (a failed load's Retry), or redraws everything. */
  refreshNode(node?: TreeNode): void {
    if (node) this.changed.fire(node);
    else this.reset();
  }

  /** The row of a flag, or undefined when the tree does not show it. */
  findFlag(project: string, name: string): Promise<TreeNode | undefined> {
    return findFlagNode(this.rootNodes(), { project, name });
  }

  dispose(): void {
    this.owned.dispose();
    this.loads.cancel();
    this.loads.dispose();
  }

  /** Redraws a flag's row when the tree already shows it. */
  private async redrawFlag(project: string, name: string): Promise<void> {
    const roots = this.roots;
    if (!roots) return;
    const node = await findFlagNode(roots, { project, name });
    if (node && this.roots === roots) this.changed.fire(node);
  }

  /** Every row again, when a listed flag's status changed since the last redraw (not for an archived lookup). */
  private redrawStatuses(): void {
    if (this.drawnStatus === this.store.statusVersion) return;
    this.drawnStatus = this.store.statusVersion;
    if (this.roots) this.changed.fire(undefined);
  }

  private reset(): void {
    this.roots = undefined;
    this.loads.cancel();
    this.loads.dispose();
    this.loads = new vscode.CancellationTokenSource();
    this.changed.fire(undefined);
  }
}

export interface FlagsView {
  readonly disposable: vscode.Disposable;
  readonly provider: FlagsTreeProvider;
  readonly treeView: vscode.TreeView<TreeNode>;
  /** Selects and focuses a flag's row (showing the view); false when the tree does not show that flag. */
  reveal(project: string, name: string): Promise<boolean>;
  /** The first selected row, for commands run without an argument. */
  selected(): TreeNode | undefined;
}

interface FlagsViewDeps {
  store: FlagStore;
  logger: Logger;
  options?: TreeOptions;
  /** A flag's last change and usage, added to its tooltip. */
  activity?: TooltipActivity;
}

export function registerFlagsView(deps: FlagsViewDeps): FlagsView {
  const { store, logger } = deps;
  const provider = new FlagsTreeProvider(store, logger, deps.options, deps.activity);
  const treeView = vscode.window.createTreeView(Views.flags, {
    treeDataProvider: provider,
    showCollapseAll: true,
  });
  let endProgress: (() => void) | undefined;
  const update = () => {
    // Each assignment is a message to the window: only a change is sent.
    const description = viewDescription(store);
    const message = viewMessage(store);
    if (treeView.description !== description) treeView.description = description;
    if (treeView.message !== message) treeView.message = message;
    if (store.state === 'loading' && !endProgress) {
      void vscode.window.withProgress(
        { location: { viewId: Views.flags } },
        () => new Promise<void>((resolve) => (endProgress = resolve)),
      );
    } else if (store.state !== 'loading' && endProgress) {
      endProgress();
      endProgress = undefined;
    }
  };
  update();
  // The flags are read when the view is first shown, not when the window opens.
  const loadWhenShown = () => {
    if (treeView.visible) void store.load();
  };
  const disposable = new DisposableStore(provider, treeView, store.onDidChange(update), treeView.onDidChangeVisibility(loadWhenShown));
  disposable.add(() => endProgress?.());
  loadWhenShown();

  return {
    disposable,
    provider,
    treeView,
    async reveal(project, name) {
      const node = await provider.findFlag(project, name);
      if (!node) return false;
      await treeView.reveal(node, { select: true, focus: true, expand: false });
      return true;
    },
    selected: () => treeView.selection[0],
  };
}
