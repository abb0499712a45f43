/**
 * The Flags tree as plain data: what each row shows, how it composes its id and context value, and how it loads its
 * children. src/views/ turns a TreeNode into a TreeItem.
 */
import type { CancellationLike } from '../../base/emitter';
import type { FlagStore } from '../store/flagStore';
import { escapeMarkdown } from '../text/markdown';
import { andMore, type ListedKind } from '../text/countText';

export type NodeKind =
  | 'project'
  | 'feature'
  | 'environment'
  | 'strategy'
  | 'constraint'
  | 'parameter'
  | 'variant'
  | 'segment'
  | 'segmentConstraint'
  | 'tag'
  | 'dependency'
  | 'child'
  | 'lifecycle'
  | 'link'
  | 'group'
  | 'page'
  | 'info'
  | 'error';

export type Collapsible = 'none' | 'collapsed' | 'expanded';

/** A flag, as the store and the commands address it. */
export interface FlagRef {
  readonly project: string;
  readonly name: string;
}

/** The project a listed flag is addressed by (every Unleash flag has one; `default` when a listing leaves it out). */
export function projectOf(flag: { project?: string | null }): string {
  return flag.project ?? 'default';
}

/** A codicon and an optional theme color id. */
export interface NodeIcon {
  readonly id: string;
  readonly color?: string;
}

export type ChildLoader = (token?: CancellationLike) => Promise<TreeNode[]>;

export interface TreeNode {
  /** Stable across refreshes (built from project, flag, environment, strategy and segment ids), unique in the tree. */
  readonly id: string;
  readonly kind: NodeKind;
  /** Plain text, one line, at most MAX_LABEL characters. */
  readonly label: string;
  /** Plain text, one line, at most MAX_DETAIL characters. */
  readonly description?: string;
  /** Markdown source in which every piece of flag data is escaped (render it untrusted, without HTML). */
  readonly tooltip?: string;
  /** For screen readers, where the label and description use symbols (`●`, `○`). */
  readonly accessibleLabel?: string;
  readonly icon?: NodeIcon;
  /** Composed for menus: `feature:enabled:stale:web`, `environment:disabled`, `strategy:disabled`, `link:web`. */
  readonly contextValue: string;
  readonly collapsible: Collapsible;
  readonly parent?: TreeNode;
  /** On a project node: the project it groups. */
  readonly project?: string;
  /** On a page of a long list of flags (flagPages.ts): the names of its first and last flags. */
  readonly page?: { readonly first: string; readonly last: string };
  /** The flag this node belongs to (every node at or below a feature). */
  readonly flag?: FlagRef;
  /** The environment this node belongs to (an environment node and everything below it). */
  readonly environment?: string;
  /** An http or https address this node opens; never anything else. */
  readonly url?: string;
  /** Another flag this node points at (a parent dependency, a child): selecting the node reveals it. */
  readonly target?: FlagRef;
  /** What "Copy Value" copies, in full: a variant's payload (JSON indented), a constraint's values one per line. */
  readonly copyText?: string;
  /** On an error node: the node whose children failed to load, to be asked again. */
  readonly retry?: TreeNode;
  /** Selecting the row reads the flag list again (a project whose flags could not be read). */
  readonly refreshesList?: boolean;
  /** Loads the children; absent for leaves. Called by `childrenOf`, which turns failures into an error node. */
  readonly children?: ChildLoader;
}

/** What the nodes need to build their children. */
export interface TreeContext {
  readonly store: FlagStore;
  /** The time `last seen` is measured against. */
  readonly now: () => Date;
}

export interface TreeOptions {
  /** The clock for `last seen` (tests pass a fixed one). */
  now?: () => Date;
}

/** Most characters a tooltip holds (its pieces are cleaned and bounded, then escaped). */
export const MAX_TOOLTIP = 8_000;

/** encodeURIComponent throws on these. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Longest key put in an id as it is; a longer one (a 10 MB flag name) is cut and given its length. */
const MAX_ID_KEY = 200;

/** Makes the id of one child row from its kind and key. */
export type Ids = (kind: string, key: string) => string;

/**
 * Ids for the children of `parent` (undefined: the root): `<parent id>/<kind>:<encoded key>`. The same key twice
 * (hostile data can repeat a strategy or segment id, or two long keys can start alike) gets `#2`, `#3`…; `#` never
 * occurs otherwise, as keys are percent-encoded. One per list of siblings.
 */
export function siblingIds(parent: TreeNode | undefined): Ids {
  const seen = new Map<string, number>();
  return (kind, full) => {
    const key = full.length > MAX_ID_KEY ? `${full.slice(0, MAX_ID_KEY)}…${full.length}` : full;
    const id = `${parent ? `${parent.id}/` : ''}${kind}:${encodeURIComponent(key.replace(LONE_SURROGATE, '\ufffd'))}`;
    const count = (seen.get(id) ?? 0) + 1;
    seen.set(id, count);
    return count === 1 ? id : `${id}#${count}`;
  };
}

/** Joins tooltip paragraphs, leaving out empty ones. */
export function paragraphs(...parts: Array<string | undefined | false>): string {
  return parts.filter((part): part is string => typeof part === 'string' && part !== '').join('\n\n');
}

/** ` · `-joined parts, leaving out empty ones. */
export function dotted(...parts: Array<string | undefined | false>): string {
  return parts.filter((part): part is string => typeof part === 'string' && part !== '').join(' · ');
}

/** Most rows one node lists from flag data (constraints, variants, tags…); the rest is counted in a last row. */
const MAX_CHILDREN = 500;

interface GroupOptions {
  id: string;
  label: string;
  /** `2 tags`; also the tooltip's second paragraph unless `note` is given. */
  count?: string;
  note?: string;
  icon: string;
  /** The `group:<name>` context value. */
  group: string;
  /** Defaults to the parent's. */
  environment?: string;
  /** The group's rows; `ids` makes their ids. */
  children: (group: TreeNode, ids: Ids, token?: CancellationLike) => Promise<TreeNode[]>;
}

/** A collapsed row that gathers one list of a parent (Tags, Parameters, Segments, Variants). */
export function groupNode(parent: TreeNode, options: GroupOptions): TreeNode {
  const node: TreeNode = {
    id: options.id,
    kind: 'group',
    label: options.label,
    description: options.count,
    tooltip: paragraphs(`**${escapeMarkdown(options.label)}**`, options.note ?? options.count),
    icon: { id: options.icon },
    contextValue: `group:${options.group}`,
    collapsible: 'collapsed',
    parent,
    flag: parent.flag,
    environment: options.environment ?? parent.environment,
    children: (token) => options.children(node, siblingIds(node), token),
  };
  return node;
}

/** A row that only says something (no children, no actions). */
export function infoNode(parent: TreeNode, id: string, label: string, tooltip?: string): TreeNode {
  return {
    id,
    kind: 'info',
    label,
    tooltip,
    icon: { id: 'info' },
    contextValue: 'info',
    collapsible: 'none',
    parent,
    flag: parent.flag,
    environment: parent.environment,
  };
}

/**
 * Builds one row per item, at most MAX_CHILDREN of them, plus a last row `… and 12 more constraints` when items
 * were left out.
 */
export function listNodes<T>(
  parent: TreeNode,
  items: readonly T[],
  ids: Ids,
  what: ListedKind,
  build: (item: T, index: number) => TreeNode,
): TreeNode[] {
  const nodes = items.slice(0, MAX_CHILDREN).map(build);
  const rest = items.length - MAX_CHILDREN;
  if (rest > 0) nodes.push(infoNode(parent, ids('more', what), andMore(what, rest)));
  return nodes;
}
