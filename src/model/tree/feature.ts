/**
 * A flag's rows, read with the get-feature operation when the flag is expanded: its environments, then its
 * variants (feature-level and per environment), tags, parent dependencies and children, lifecycle stage, links.
 */
import * as l10n from '@vscode/l10n';
import type { FeatureEnvironment, FeatureLink, FeatureSummary, ParentDependency, Tag } from '../../api/schemas';
import type { CancellationLike } from '../../base/emitter';
import { flagStatus } from '../store/flagStatus';
import { escapeMarkdown, markdownLink, openableUrl } from '../text/markdown';
import { tagCount } from '../text/countText';
import { describeDependency, describeLifecycle, flagName } from '../text/flagText';
import { clean, MAX_DETAIL, MAX_LABEL } from '../text/plainText';
import { environmentNode } from './environment';
import { variantGroup } from './variants';
import { dotted, groupNode, infoNode, listNodes, paragraphs, projectOf, siblingIds, type FlagRef, type TreeContext, type TreeNode, type Ids } from './node';

/** The rows below a flag: the one place the tree reads a flag's details. */
export async function featureChildren(node: TreeNode, context: TreeContext, token?: CancellationLike): Promise<TreeNode[]> {
  const flag = node.flag;
  if (!flag) return [];
  const feature = await context.store.feature(flag.project, flag.name, token);
  const ids = siblingIds(node);
  const environments = inOrder(feature.environments ?? []);
  const nodes: TreeNode[] = listNodes(node, environments, ids, 'environment', (env) =>
    environmentNode(env, node, ids, context),
  );
  // The feature-level list is deprecated: shown only by servers that do not give each environment its own.
  const perEnvironment = environments.some((env) => env.variants !== undefined);
  if (!perEnvironment && feature.variants && feature.variants.length > 0) {
    nodes.push(variantGroup(node, ids('variants', ''), l10n.t('Variants'), feature.variants, undefined));
  }
  for (const env of environments) {
    if (env.variants && env.variants.length > 0) {
      const label = l10n.t('Variants in {0}', env.name.trim() === '' ? l10n.t('(unnamed environment)') : clean(env.name, 60));
      nodes.push(variantGroup(node, ids('variants', env.name), label, env.variants, env.name));
    }
  }
  // A feature read from the server may leave tags out; the listing has them.
  const tags = feature.tags ?? listed(context, flag)?.tags ?? [];
  if (tags.length > 0) nodes.push(tagGroup(node, ids('tags', ''), tags));
  nodes.push(
    ...listNodes(node, feature.dependencies ?? [], ids, 'dependency', (dep) =>
      dependencyNode(dep, node, ids, context, flag),
    ),
  );
  nodes.push(
    ...listNodes(node, feature.children ?? [], ids, 'child', (child) =>
      childNode(child, node, ids, context, flag),
    ),
  );
  const summary = listed(context, flag);
  const { lifecycle } = summary ? context.store.status(summary, flag.project) : flagStatus(undefined, feature);
  if (lifecycle) {
    const text = describeLifecycle(lifecycle);
    nodes.push({
      id: ids('lifecycle', ''),
      kind: 'lifecycle',
      label: l10n.t('Lifecycle'),
      description: text,
      tooltip: paragraphs(`**${l10n.t('Lifecycle')}**`, escapeMarkdown(text)),
      icon: { id: 'history' },
      contextValue: 'lifecycle',
      collapsible: 'none',
      parent: node,
      flag,
    });
  }
  nodes.push(...listNodes(node, feature.links ?? [], ids, 'link', (link) => linkNode(link, node, ids)));
  if (nodes.length === 0) nodes.push(infoNode(node, ids('info', 'empty'), 'No environments'));
  return nodes;
}

/** Environments by their sortOrder; those without keep the order given. */
function inOrder(environments: readonly FeatureEnvironment[]): FeatureEnvironment[] {
  return environments
    .map((env, index) => ({ env, index }))
    .sort((a, b) => (a.env.sortOrder ?? Infinity) - (b.env.sortOrder ?? Infinity) || a.index - b.index)
    .map(({ env }) => env);
}

function tagGroup(parent: TreeNode, id: string, tags: readonly Tag[]): TreeNode {
  return groupNode(parent, {
    id,
    label: l10n.t('Tags'),
    count: tagCount(tags.length),
    icon: 'tag',
    group: 'tags',
    children: async (node, ids) => {
      // `type:value`, as hovers and Check Tag write a tag.
      return listNodes(node, tags, ids, 'tag', (tag) => {
        const value = tag.value === '' ? '""' : clean(tag.value, MAX_LABEL);
        const type = tag.type.trim() === '' ? l10n.t('(no type)') : clean(tag.type, 60);
        const label = clean(`${type}:${value}`, MAX_LABEL);
        return {
          id: ids('tag', `${tag.type}:${tag.value}`),
          kind: 'tag',
          label,
          tooltip: paragraphs(
            `**${escapeMarkdown(label)}**`,
            l10n.t('Tag type: {0}', escapeMarkdown(type)),
            l10n.t('Value: {0}', escapeMarkdown(value)),
          ),
          icon: { id: 'tag' },
          contextValue: 'tag',
          collapsible: 'none',
          parent: node,
          flag: parent.flag,
        };
      });
    },
  });
}

/** The catalog's row of a flag (a row without a project shows in `default`, see projectOf). */
function listed(context: TreeContext, ref: FlagRef): FeatureSummary | undefined {
  const { catalog } = context.store;
  return catalog.get(ref.project, ref.name) ?? (ref.project === projectOf({}) ? catalog.get('', ref.name) : undefined);
}

/** A flag of the same project, when the catalog knows it (so that selecting the row can reveal it). */
function knownFlag(context: TreeContext, project: string, name: string): FlagRef | undefined {
  return listed(context, { project, name }) ? { project, name } : undefined;
}

/** How a row that points at another flag looks; the tooltip's last line depends on whether it can reveal it. */
interface FlagLinkView {
  label: string;
  description?: string;
  icon: string;
  tooltip: (revealable: boolean) => string;
}

/** A row for another flag of the same project (a parent, a child): selecting it reveals that flag, when listed. */
function flagLinkNode(kind: 'dependency' | 'child', name: string, parent: TreeNode, ids: Ids, context: TreeContext, flag: FlagRef, view: FlagLinkView): TreeNode {
  const target = knownFlag(context, flag.project, name);
  return {
    id: ids(kind, name),
    kind,
    label: view.label,
    ...(view.description === undefined ? {} : { description: view.description }),
    tooltip: view.tooltip(target !== undefined),
    icon: { id: view.icon },
    contextValue: kind,
    collapsible: 'none',
    parent,
    flag,
    target,
  };
}

function dependencyNode(dep: ParentDependency, parent: TreeNode, ids: Ids, context: TreeContext, flag: FlagRef): TreeNode {
  const text = describeDependency(dep);
  return flagLinkNode('dependency', dep.feature, parent, ids, context, flag, {
    label: text,
    icon: 'type-hierarchy-super',
    tooltip: (revealable) =>
      paragraphs(
        l10n.t('**Parent flag** {0}', escapeMarkdown(flagName(dep.feature, MAX_LABEL))),
        escapeMarkdown(text),
        revealable && l10n.t('Select to show the parent flag.'),
      ),
  });
}

function childNode(child: string, parent: TreeNode, ids: Ids, context: TreeContext, flag: FlagRef): TreeNode {
  const label = flagName(child, MAX_LABEL);
  return flagLinkNode('child', child, parent, ids, context, flag, {
    label,
    description: l10n.t('depends on this flag'),
    icon: 'type-hierarchy-sub',
    tooltip: (revealable) =>
      paragraphs(l10n.t('**Child flag** {0}', escapeMarkdown(label)), l10n.t('It depends on this flag.'), revealable && l10n.t('Select to show it.')),
  });
}

/** A link stored on the flag: opened only when it is an http or https address, else shown as text. */
function linkNode(link: FeatureLink, parent: TreeNode, ids: Ids): TreeNode {
  const url = openableUrl(link.url);
  const shownUrl = link.url.trim() === '' ? l10n.t('(no address)') : clean(link.url, MAX_LABEL);
  const title = link.title && link.title.trim() !== '' ? clean(link.title, MAX_LABEL) : undefined;
  const label = title ?? shownUrl;
  return {
    id: ids('link', link.id ?? link.url),
    kind: 'link',
    label,
    description: clean(
      dotted(title !== undefined && shownUrl, url === undefined && l10n.t('not opened: not an http or https address')),
      MAX_DETAIL,
    ) || undefined,
    tooltip: paragraphs(
      `**${escapeMarkdown(label)}**`,
      url !== undefined ? markdownLink(shownUrl, url) : escapeMarkdown(shownUrl),
      url === undefined && l10n.t('Only http and https links are opened.'),
    ),
    icon: url !== undefined ? { id: 'link-external' } : { id: 'link', color: 'disabledForeground' },
    contextValue: url !== undefined ? 'link:web' : 'link',
    collapsible: 'none',
    parent,
    flag: parent.flag,
    url,
  };
}
