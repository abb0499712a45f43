/**
 * The root of the Flags tree: every flag of the catalog, sorted by name, grouped under its project when the catalog
 * holds more than one (or a project could not be read: it shows as a failed row beside the others). Built from the
 * listing alone: nothing here reads a flag's details.
 */
import * as l10n from '@vscode/l10n';
import type { EnvironmentSummary, Feature, FeatureSummary } from '../../api/schemas';
import type { Catalog } from '../store/catalog';
import { chooseEnvironments, hiddenEnvironments } from '../store/environmentChoice';
import type { FlagStore } from '../store/flagStore';
import { escapeMarkdown, openableUrl, plainMarkdown } from '../text/markdown';
import { isValidFlagName } from '../code/flagNameRule';
import { rowWords, statusMarkdown, statusWords, type FlagStatus } from '../store/flagStatus';
import { joinValues } from '../text/intl';
import { flagCount } from '../text/countText';
import { compactStrip, environmentStates, shortEnvironmentNames } from '../text/environmentText';
import { describeEnvironmentState, flagName } from '../text/flagText';
import { clean, MAX_DETAIL, MAX_LABEL } from '../text/plainText';
import { failedProjectNode } from './failedProject';
import { pagedFlagRows } from './flagPages';
import { featureChildren } from './feature';
import { rowNameWidth } from './rowWidth';
import {
  dotted,
  paragraphs,
  projectOf,
  siblingIds,
  type ChildLoader,
  type FlagRef,
  type Ids,
  type NodeIcon,
  type TreeContext,
  type TreeNode,
  type TreeOptions,
} from './node';
import { compare } from '../../base/compare';

const TYPE_ICONS: Readonly<Record<string, string>> = {
  release: 'rocket',
  experiment: 'beaker',
  operational: 'tools',
  'kill-switch': 'stop-circle',
  permission: 'lock',
};

/** The codicon of a flag type; `symbol-boolean` for a type Unleash does not ship. */
function flagTypeIcon(type: string | undefined): string {
  return type !== undefined && Object.prototype.hasOwnProperty.call(TYPE_ICONS, type)
    ? (TYPE_ICONS[type] as string)
    : 'symbol-boolean';
}

/**
 * The top level of the tree: features, or project nodes when the catalog spans several projects (or may: a first
 * load's rows so far are always grouped). Empty unless the store is ready (or reloading a catalog it already shows),
 * so the view's welcome content shows instead.
 */
export function rootNodes(store: FlagStore, options: TreeOptions = {}): TreeNode[] {
  if (store.state !== 'ready' && store.state !== 'loading') return [];
  const context: TreeContext = { store, now: options.now ?? (() => new Date()) };
  const catalog = store.catalog;
  const order = environmentOrder(catalog);
  const labels = shortEnvironmentNames([...order.keys()]);
  const failures = new Map(store.failures.map((failure) => [failure.project, failure]));
  // One project is shown flat, but only once the list is complete: rows that arrive project by project would
  // otherwise jump from a flat list to project groups when the second project comes. A project that could not be
  // read is a group of its own, beside the others.
  const row = (flag: FeatureSummary, parent: TreeNode | undefined, ids: Ids) => featureNode(flag, parent, ids, context, order, labels);
  if (catalog.projects().length <= 1 && !store.partial && failures.size === 0) return pagedFlagRows(catalog.flags, undefined, row);
  const byProject = new Map<string, FeatureSummary[]>();
  for (const flag of catalog.flags) {
    const project = projectOf(flag);
    const list = byProject.get(project);
    if (list) list.push(flag);
    else byProject.set(project, [flag]);
  }
  for (const project of failures.keys()) if (!byProject.has(project)) byProject.set(project, []);
  const ids = siblingIds(undefined);
  return [...byProject.keys()].sort(compare).map((project) => {
    const flags = byProject.get(project) ?? [];
    const label = project.trim() === '' ? l10n.t('(no project)') : clean(project, MAX_LABEL);
    const count = flagCount(flags.length);
    // Built once, so that revealing a flag and the tree see the same nodes.
    const flagNodes = (node: TreeNode) => pagedFlagRows(flags, node, row);
    const failure = failures.get(project);
    if (failure) {
      const row = { id: ids('project', project), label, server: store.currentSource?.label, count: flags.length ? count : undefined };
      return failedProjectNode(failure, row, flags.length ? flagNodes : undefined);
    }
    let children: TreeNode[] | undefined;
    const node: TreeNode = {
      id: ids('project', project),
      kind: 'project',
      label,
      description: count,
      tooltip: paragraphs(l10n.t('**Project {0}**', escapeMarkdown(label)), count),
      icon: { id: 'project' },
      contextValue: 'project',
      collapsible: 'collapsed',
      project,
      children: async () => (children ??= flagNodes(node)),
    };
    return node;
  });
}

/** Each environment name's position across the catalog, so every flag lists its environments in the same order. */
export function environmentOrder(catalog: Catalog): Map<string, number> {
  return new Map(catalog.environments().map((name, index) => [name, index]));
}

/** A flag's environments in the catalog's order (see environmentOrder). */
export function sortedEnvironments(flag: FeatureSummary, order: Map<string, number>): EnvironmentSummary[] {
  const envs = flag.environments ?? [];
  const position = (env: EnvironmentSummary) => order.get(env.name) ?? Infinity;
  let inOrder = true;
  for (let i = 1; i < envs.length && inOrder; i++) inOrder = position(envs[i - 1] as EnvironmentSummary) <= position(envs[i] as EnvironmentSummary);
  if (inOrder) return envs;
  return envs
    .map((env, index) => ({ env, index }))
    .sort((a, b) => position(a.env) - position(b.env) || a.index - b.index)
    .map(({ env }) => env);
}

function featureTooltip(flag: FeatureSummary, ref: FlagRef, label: string, envs: readonly EnvironmentSummary[], status: FlagStatus, hidden = 0): string {
  const type = flag.type !== undefined && flag.type.trim() !== '' ? clean(flag.type, 40) : undefined;
  const description = flag.description ? clean(flag.description, MAX_DETAIL).trim() : '';
  return paragraphs(
    `**${escapeMarkdown(label)}**`,
    description !== '' && escapeMarkdown(description),
    dotted(l10n.t('Project: {0}', plainMarkdown(ref.project, 100)), type && l10n.t('Type: {0}', escapeMarkdown(type))),
    envs.length > 0 && l10n.t('Environments: {0}', escapeMarkdown(environmentStates(envs))),
    hidden > 0 && escapeMarkdown(hiddenEnvironments(hidden)),
    statusMarkdown(status),
  );
}

function featureNode(
  flag: FeatureSummary,
  parent: TreeNode | undefined,
  ids: (kind: string, key: string) => string,
  context: TreeContext,
  order: Map<string, number>,
  labels: ReadonlyMap<string, string>,
): TreeNode {
  const ref: FlagRef = { project: projectOf(flag), name: flag.name };
  return new FeatureRow({ id: ids('flag', `${ref.project}/${ref.name}`), parent, flag: ref }, flag, order, labels, context);
}

/** What a flag row shows, for one state of its data (the listing row, and the details once they are read). */
interface RowView {
  /** The name, cut to leave the strip and the status in view at the default width (rowNameWidth). */
  readonly label: string;
  readonly description: string;
  readonly icon: NodeIcon;
  readonly contextValue: string;
  readonly status: FlagStatus;
  /** The status in full words, for the screen reader. */
  readonly badges: readonly string[];
}

/**
 * A flag's row. What it shows follows the store: built from the listing row, and again from the details once the
 * store has read them (`flagStatus`), so row, tooltip, Lifecycle row and hover say the same. Everything is built
 * when first read (VS Code asks for the tooltip on hover, through resolveTreeItem): the root may hold 10,000 flags.
 * A class rather than an object literal with `get` accessors: V8 defines a literal's accessors on every object it
 * creates (bench/README.md), while a class shares them on its prototype.
 */
class FeatureRow implements TreeNode {
  readonly id: string;
  readonly kind = 'feature' as const;
  readonly collapsible = 'collapsed' as const;
  readonly parent: TreeNode | undefined;
  readonly flag: FlagRef;
  readonly children: ChildLoader;
  private envs: readonly EnvironmentSummary[] | undefined;
  private stripText: string | undefined;
  /** The details `viewState` was built from (null: not built yet), and the store's details version then. */
  private viewDetails: Feature | undefined | null = null;
  private viewVersion = -1;
  private viewState: RowView | undefined;
  private tooltipText: string | undefined;
  private accessibleText: string | undefined;

  constructor(
    row: { id: string; parent: TreeNode | undefined; flag: FlagRef },
    private readonly summary: FeatureSummary,
    private readonly order: Map<string, number>,
    /** Short environment names for the row's strip, unique across the catalog. */
    private readonly labels: ReadonlyMap<string, string>,
    private readonly context: TreeContext,
  ) {
    this.id = row.id;
    this.parent = row.parent;
    this.flag = row.flag;
    this.children = (token) => featureChildren(this, context, token);
  }

  get label(): string {
    return this.view().label;
  }

  get description(): string {
    return this.view().description;
  }

  get icon(): NodeIcon {
    return this.view().icon;
  }

  get contextValue(): string {
    return this.view().contextValue;
  }

  get tooltip(): string {
    const view = this.view();
    this.tooltipText ??= featureTooltip(
      this.summary,
      this.flag,
      flagName(this.flag.name, MAX_LABEL),
      this.environments(),
      view.status,
      (this.summary.environments?.length ?? 0) - this.environments().length,
    );
    return this.tooltipText;
  }

  get accessibleLabel(): string {
    const view = this.view();
    this.accessibleText ??= clean(
      joinValues([
        flagName(this.flag.name, MAX_LABEL),
        ...this.environments().map((env) => `${clean(env.name, 40)} ${describeEnvironmentState(env.enabled)}`),
        ...view.badges,
      ]),
      MAX_DETAIL,
    );
    return this.accessibleText;
  }

  private environments(): readonly EnvironmentSummary[] {
    // `unleash.environments`: the chosen ones in their order; else all, in the catalog's.
    this.envs ??= chooseEnvironments(sortedEnvironments(this.summary, this.order), this.context.store.environmentChoice).shown;
    return this.envs;
  }

  private strip(): string {
    this.stripText ??= compactStrip(this.environments(), this.labels);
    return this.stripText;
  }

  /** The row for the data the store holds now; rebuilt (with tooltip and label) when the details arrive. */
  private view(): RowView {
    const store = this.context.store;
    if (this.viewState !== undefined && this.viewVersion === store.detailsVersion) return this.viewState;
    this.viewVersion = store.detailsVersion;
    const details = store.peekFeature(this.flag.project, this.flag.name);
    if (this.viewState !== undefined && this.viewDetails === details) return this.viewState;
    this.viewDetails = details;
    this.tooltipText = undefined;
    this.accessibleText = undefined;
    const status = store.status(this.summary, this.flag.project);
    const words = rowWords(status);
    const kept = clean(dotted(this.strip(), ...words.shown), MAX_DETAIL);
    // A name that breaks the naming rule is not opened in Unleash (encodeURIComponent would throw on a lone surrogate).
    const web = isValidFlagName(this.flag.name) && openableUrl(this.context.store.currentSource?.webUrl?.(this.flag.project, this.flag.name)) !== undefined;
    const enabled = this.environments().some((env) => env.enabled);
    this.viewState = {
      label: flagName(this.flag.name, Math.min(MAX_LABEL, rowNameWidth(kept, this.parent !== undefined))),
      description: clean(dotted(kept, words.routine), MAX_DETAIL),
      icon: {
        id: flagTypeIcon(details?.type ?? this.summary.type),
        ...(status.archived ? { color: 'disabledForeground' } : status.stale ? { color: 'list.warningForeground' } : {}),
      },
      contextValue: ['feature', enabled ? 'enabled' : 'disabled', status.stale && 'stale', status.archived && 'archived', web && 'web']
        .filter((part): part is string => typeof part === 'string')
        .join(':'),
      status,
      badges: statusWords(status),
    };
    return this.viewState;
  }
}
