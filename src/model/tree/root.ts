/**
 * The root of the Flags tree: every flag of the catalog, sorted by name, grouped under its project when the catalog
 * holds more than one. Built from the listing alone: nothing here reads a flag's details.
 */
import type { EnvironmentSummary, FeatureSummary } from '../../api/schemas';
import { compare, type Catalog } from '../catalog';
import type { FlagStore } from '../flagStore';
import { escapeMarkdown, openableUrl, plainMarkdown } from '../markdown';
import {
  clean, compactStrip, describeEnvironmentState, describeLifecycle, environmentStates, MAX_DETAIL, MAX_LABEL, plural,
  shortEnvironmentNames,
} from '../wording';
import { featureChildren } from './feature';
import {
  dotted,
  paragraphs,
  projectOf,
  siblingIds,
  type ChildLoader,
  type FlagRef,
  type NodeIcon,
  type TreeContext,
  type TreeNode,
  type TreeOptions,
} from './node';

const TYPE_ICONS: Readonly<Record<string, string>> = {
  release: 'rocket',
  experiment: 'beaker',
  operational: 'tools',
  'kill-switch': 'stop-circle',
  permission: 'lock',
};

/** The codicon of a flag type; `symbol-boolean` for a type Unleash does not ship. */
export function flagTypeIcon(type: string | undefined): string {
  return type !== undefined && Object.prototype.hasOwnProperty.call(TYPE_ICONS, type)
    ? (TYPE_ICONS[type] as string)
    : 'symbol-boolean';
}

/**
 * The top level of the tree: features, or project nodes when the catalog spans several projects. Empty unless the
 * store is ready (or reloading a catalog it already shows), so the view's welcome content shows instead.
 */
export function rootNodes(store: FlagStore, options: TreeOptions = {}): TreeNode[] {
  if (store.state !== 'ready' && store.state !== 'loading') return [];
  const context: TreeContext = { store, now: options.now ?? (() => new Date()) };
  const catalog = store.catalog;
  const order = environmentOrder(catalog);
  const labels = shortEnvironmentNames([...order.keys()]);
  const projects = catalog.projects();
  if (projects.length <= 1) {
    const ids = siblingIds(undefined);
    return catalog.flags.map((flag) => featureNode(flag, undefined, ids, context, order, labels));
  }
  const byProject = new Map<string, FeatureSummary[]>();
  for (const flag of catalog.flags) {
    const project = projectOf(flag);
    const list = byProject.get(project);
    if (list) list.push(flag);
    else byProject.set(project, [flag]);
  }
  const ids = siblingIds(undefined);
  return [...byProject.keys()].sort(compare).map((project) => {
    const flags = byProject.get(project) ?? [];
    const label = project.trim() === '' ? '(no project)' : clean(project, MAX_LABEL);
    const count = plural(flags.length, 'flag');
    let children: TreeNode[] | undefined;
    const node: TreeNode = {
      id: ids('project', project),
      kind: 'project',
      label,
      description: count,
      tooltip: paragraphs(`**Project ${escapeMarkdown(label)}**`, count),
      icon: { id: 'project' },
      contextValue: 'project',
      collapsible: 'collapsed',
      project,
      // Built once, so that revealing a flag and the tree see the same nodes.
      children: async () => {
        if (!children) {
          const featureIds = siblingIds(node);
          children = flags.map((flag) => featureNode(flag, node, featureIds, context, order, labels));
        }
        return children;
      },
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

function featureTooltip(
  flag: FeatureSummary,
  ref: FlagRef,
  label: string,
  envs: readonly EnvironmentSummary[],
  stale: boolean,
  archived: boolean,
): string {
  const type = flag.type !== undefined && flag.type.trim() !== '' ? clean(flag.type, 40) : undefined;
  const description = flag.description ? clean(flag.description, MAX_DETAIL).trim() : '';
  return paragraphs(
    `**${escapeMarkdown(label)}**`,
    description !== '' && escapeMarkdown(description),
    dotted(`Project: ${plainMarkdown(ref.project, 100)}`, type && `Type: ${escapeMarkdown(type)}`),
    envs.length > 0 && `Environments: ${escapeMarkdown(environmentStates(envs))}`,
    dotted(
      stale && 'Stale',
      archived && 'Archived',
      flag.lifecycle ? `Lifecycle: ${escapeMarkdown(describeLifecycle(flag.lifecycle))}` : undefined,
    ),
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
  const label = flag.name.trim() === '' ? '(unnamed flag)' : clean(flag.name, MAX_LABEL);
  const envs = sortedEnvironments(flag, order);
  const strip = compactStrip(envs, labels);
  const stale = flag.stale === true;
  const archived = flag.archived === true || (flag.archivedAt !== undefined && flag.archivedAt !== null);
  const stage = flag.lifecycle && flag.lifecycle.stage.trim() !== '' ? clean(flag.lifecycle.stage, 40) : undefined;
  const badges = [stale && 'stale', archived && 'archived', stage];
  const source = context.store.currentSource;
  const web = openableUrl(source?.webUrl?.(ref.project, ref.name)) !== undefined;
  const enabled = envs.some((env) => env.enabled);
  const icon: NodeIcon = {
    id: flagTypeIcon(flag.type),
    ...(archived ? { color: 'disabledForeground' } : stale ? { color: 'list.warningForeground' } : {}),
  };
  return new FeatureRow(
    {
      id: ids('flag', `${ref.project}/${ref.name}`),
      label,
      description: clean(dotted(strip, ...badges), MAX_DETAIL),
      icon,
      contextValue: ['feature', enabled ? 'enabled' : 'disabled', stale && 'stale', archived && 'archived', web && 'web']
        .filter((part): part is string => typeof part === 'string')
        .join(':'),
      parent,
      flag: ref,
    },
    { summary: flag, envs, stale, archived, badges },
    context,
  );
}

/** What a flag row's tooltip and accessible label are built from. */
interface FeatureFacts {
  readonly summary: FeatureSummary;
  readonly envs: readonly EnvironmentSummary[];
  readonly stale: boolean;
  readonly archived: boolean;
  readonly badges: ReadonlyArray<string | false | undefined>;
}

/**
 * A flag's row. Its tooltip and accessible label are built when first read (VS Code asks for the tooltip on hover,
 * through resolveTreeItem): the root may hold 10,000 flags. A class rather than an object literal with `get`
 * accessors: V8 defines a literal's accessors on every object it creates (about 3 µs a row, 30 ms for 10,000 rows,
 * most of the row's cost; see bench/README.md), while a class shares them on its prototype.
 */
class FeatureRow implements TreeNode {
  readonly id: string;
  readonly kind = 'feature' as const;
  readonly label: string;
  readonly description: string;
  readonly icon: NodeIcon;
  readonly contextValue: string;
  readonly collapsible = 'collapsed' as const;
  readonly parent: TreeNode | undefined;
  readonly flag: FlagRef;
  readonly children: ChildLoader;
  private tooltipText: string | undefined;
  private accessibleText: string | undefined;

  constructor(
    row: { id: string; label: string; description: string; icon: NodeIcon; contextValue: string; parent: TreeNode | undefined; flag: FlagRef },
    private readonly facts: FeatureFacts,
    context: TreeContext,
  ) {
    this.id = row.id;
    this.label = row.label;
    this.description = row.description;
    this.icon = row.icon;
    this.contextValue = row.contextValue;
    this.parent = row.parent;
    this.flag = row.flag;
    this.children = (token) => featureChildren(this, context, token);
  }

  get tooltip(): string {
    const { summary, envs, stale, archived } = this.facts;
    this.tooltipText ??= featureTooltip(summary, this.flag, this.label, envs, stale, archived);
    return this.tooltipText;
  }

  get accessibleLabel(): string {
    const { envs, badges } = this.facts;
    this.accessibleText ??= clean(
      [
        this.label,
        ...envs.map((env) => `${clean(env.name, 40)} ${describeEnvironmentState(env.enabled)}`),
        ...badges.filter((badge): badge is string => typeof badge === 'string'),
      ].join(', '),
      MAX_DETAIL,
    );
    return this.accessibleText;
  }
}
