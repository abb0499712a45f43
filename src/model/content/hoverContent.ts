/**
 * The markdown of a flag hover, as a pure function of the data: the hover provider decides what to pass, this what
 * the user reads. Server and export text is untrusted: escaped, cut, every list capped (hoverLimits.ts), links only
 * to http/https, and the only `command:` links are ours (flagCommandUri.ts).
 */
import * as l10n from '@vscode/l10n';
import type { Feature, FeatureSummary, StrategyVariant, Variant } from '../../api/schemas';
import { Commands } from '../../base/constants';
import { isValidFlagName } from '../code/flagNameRule';
import { flagStatus, statusMarkdown, type FlagStatus } from '../store/flagStatus';
import { andMore } from '../text/countText';
import { describeDependency, flagName } from '../text/flagText';
import { pluralForm } from '../text/intl';
import { escapeMarkdown, markdownLink, openableUrl, plainMarkdown } from '../text/markdown';
import { andMoreAfter, clean, formatList } from '../text/plainText';
import { strategyDisplayName, strategyTitle } from '../text/strategyText';
import { describeVariant } from '../text/variantText';
import { flagCommandLink } from './flagCommandUri';
import { environmentTable } from './hoverEnvironments';
import { HOVER_LIMITS } from './hoverLimits';
import { archivedMeaning } from './unlistedFlagContent';
import { refreshedText } from './statusBarContent';

/** One project's flag of the hovered name: the catalog's summary, and the details when the store has them. */
export interface HoverMatch {
  summary: FeatureSummary;
  details?: Feature;
  /**
   * Why `details` is missing: `loading` (the default: a read was started, the next hover shows them) or
   * `unavailable` (the read failed; the summary is all there is).
   */
  detailsState?: 'loading' | 'unavailable';
  /** The flag's one status (FlagStore.status); without it, from the summary and the details. */
  status?: FlagStatus;
  /** Markdown about the flag's last change and usage (activityText.ts), already escaped; shown as given. */
  activity?: string;
}

interface HoverInput {
  matches: readonly HoverMatch[];
  /** Where the data comes from: a server's host or the export files read. */
  sourceLabel: string;
  /** The flag's page in the Unleash web UI; offered only when it is an http/https URL. */
  webUrl?: (project: string, name: string) => string | undefined;
  /** The time "last seen" is measured from. */
  now: Date;
  /** `unleash.environments`: the environments shown, in order (empty or not given: all). */
  environments?: readonly string[];
  /**
   * The listing is out of date (the last refresh failed): when the one shown finished loading, or null when unknown.
   * The hover says its states are from then.
   */
  outOfDateSince?: Date | null;
}

/**
 * The hover for a known flag name: one section per project that has it, separated by a rule, then the source.
 */
export function hoverMarkdown(input: HoverInput): string {
  const sections: string[] = [];
  let length = 0;
  let shown = 0;
  for (const match of input.matches) {
    if (shown >= HOVER_LIMITS.projects || length > HOVER_LIMITS.hoverLength) break;
    const section = flagSection(match, input);
    sections.push(section);
    length += section.length;
    shown += 1;
  }
  const rest = input.matches.length - shown;
  if (rest > 0) {
    sections.push(
      pluralForm(rest, {
        one: l10n.t('… and {0} more project with this name (see the Flags tree)', rest),
        other: l10n.t('… and {0} more projects with this name (see the Flags tree)', rest),
      }),
    );
  }
  const source = plainMarkdown(input.sourceLabel, 120);
  const blocks = [sections.join('\n\n---\n\n')];
  if (input.outOfDateSince !== undefined) {
    const since = input.outOfDateSince === null ? l10n.t('an earlier refresh') : refreshedText(input.outOfDateSince);
    blocks.push(`_${escapeMarkdown(l10n.t('Out of date: these states are those of {0}; the last refresh failed (the status bar says why).', since))}_`);
  }
  if (source !== '') blocks.push(l10n.t('_Source: {0}_', source));
  return blocks.join('\n\n');
}

function flagSection(match: HoverMatch, input: HoverInput): string {
  const { summary, details } = match;
  const name = summary.name;
  const project = summary.project ?? details?.project ?? '';
  const blocks: string[] = [];

  // Name, type, project.
  const shownName = escapeMarkdown(flagName(name, 200));
  const head = [`**${shownName}**`];
  const type = plainMarkdown(details?.type ?? summary.type ?? '', 40);
  if (type !== '') head.push(type);
  const shownProject = plainMarkdown(project, 60);
  if (shownProject !== '') head.push(l10n.t('project {0}', shownProject));
  blocks.push(head.join(' · '));

  // Stale, archived, lifecycle.
  const status = match.status ?? flagStatus(summary, details);
  const statusLine = statusMarkdown(status);
  if (statusLine !== '') blocks.push(statusLine);
  if (status.archived) blocks.push(archivedMeaning());

  const description = plainMarkdown(details?.description ?? summary.description ?? '', HOVER_LIMITS.description);
  if (description !== '') blocks.push(description);
  if (match.activity) blocks.push(match.activity);

  blocks.push(environmentTable(summary, details, input.now, input.environments ?? []));
  if (!details) {
    blocks.push(
      match.detailsState === 'unavailable'
        ? l10n.t('_Strategies and variants could not be read._')
        : l10n.t('_Loading strategies and variants… hover again to see them._'),
    );
  } else {
    const variants = variantLines(details);
    if (variants.length > 0) blocks.push(`**${l10n.t('Variants')}**\n\n${variants.join('\n')}`);
    const dependencies = dependencyLines(details);
    if (dependencies.length > 0) blocks.push(dependencies.join('  \n'));
  }

  const tags = details?.tags ?? summary.tags ?? [];
  if (tags.length > 0) {
    const text = formatList(tags.map((tag) => `${tag.type}:${tag.value}`), {
      maxItems: HOVER_LIMITS.tags,
      maxItem: 60,
      budget: 200,
    });
    blocks.push(l10n.t('**Tags:** {0}', plainMarkdown(text, 260)));
  }

  const links = details?.links ?? [];
  if (links.length > 0) blocks.push(l10n.t('**Links:** {0}', linkList(links)));

  const actions = actionLine(project, name, input);
  if (actions !== '') blocks.push(actions);
  return blocks.join('\n\n');
}

// ---- Variants, dependencies, links, actions --------------------------------

function variantText(variant: Variant | StrategyVariant): string {
  const { label, detail } = describeVariant(variant);
  return detail === '' ? label : `${label} · ${detail}`;
}

function variantLines(details: Feature): string[] {
  const lines: string[] = [];
  let total = 0;
  // Past the limit variants are only counted: no wording work for lines that are not shown.
  const add = (scopeOf: () => string, variant: Variant | StrategyVariant) => {
    total += 1;
    if (lines.length >= HOVER_LIMITS.variants) return;
    const scope = scopeOf();
    const text = clean(scope === '' ? variantText(variant) : `${scope}: ${variantText(variant)}`, HOVER_LIMITS.variantLine);
    lines.push(`- ${plainMarkdown(text, HOVER_LIMITS.variantLine)}`);
  };
  // The deprecated top-level list repeats what the environments hold (7.x with `variantEnvironments`): shown only
  // when no environment says its own, as the details document does.
  const environments = details.environments ?? [];
  if (!environments.some((env) => env.variants !== undefined)) for (const variant of details.variants ?? []) add(() => '', variant);
  for (const env of environments) {
    const envName = () => (env.name.trim() === '' ? l10n.t('(unnamed)') : clean(env.name, 40));
    for (const variant of env.variants ?? []) add(envName, variant);
    for (const strategy of env.strategies ?? []) {
      const scope = () => `${envName()} › ${clean(strategyTitle(strategy) ?? strategyDisplayName(strategy.name), 60)}`;
      for (const variant of strategy.variants ?? []) add(scope, variant);
    }
  }
  const rest = total - lines.length;
  if (rest > 0) lines.push(`- ${andMore('variant', rest)}`);
  return lines;
}

function dependencyLines(details: Feature): string[] {
  const lines: string[] = [];
  const parents = details.dependencies ?? [];
  if (parents.length > 0) {
    const shown = parents.slice(0, HOVER_LIMITS.parents).map(describeDependency).join('; ');
    const rest = parents.length - HOVER_LIMITS.parents;
    const text = andMoreAfter(clean(shown, 400), rest);
    lines.push(l10n.t('**Parents:** {0}', plainMarkdown(text, 440)));
  }
  const children = details.children ?? [];
  if (children.length > 0) {
    const text = formatList(children, { maxItems: HOVER_LIMITS.children, maxItem: 100, budget: 300 });
    lines.push(l10n.t('**Children:** {0}', plainMarkdown(text, 340)));
  }
  return lines;
}

function linkList(links: NonNullable<Feature['links']>): string {
  const items = links.slice(0, HOVER_LIMITS.links).map((link) => {
    const href = openableUrl(link.url);
    const title = link.title?.trim() ? link.title : link.url;
    // Not http/https: the title as plain text, never a link.
    if (href === undefined) return plainMarkdown(title, 80) || l10n.t('(link)');
    // The host after the link, so that a title cannot pretend to go somewhere else.
    return `${markdownLink(title.trim() === '' ? href : title, href, 80)} (${plainMarkdown(new URL(href).host, 80)})`;
  });
  const rest = links.length - HOVER_LIMITS.links;
  return andMoreAfter(items.join(' · '), rest);
}

function actionLine(project: string, name: string, input: HoverInput): string {
  let web: string | undefined;
  try {
    web = input.webUrl?.(project, name);
  } catch {
    web = undefined;
  }
  const flag = { project, name };
  // A name that breaks the naming rule is neither opened in Unleash nor copied.
  const valid = isValidFlagName(name);
  const actions = [
    valid && web !== undefined && openableUrl(web) !== undefined ? markdownLink(l10n.t('Open in Unleash'), web) : '',
    flagCommandLink(l10n.t('Reveal in Flags tree'), Commands.revealFlag, flag),
    valid ? flagCommandLink(l10n.t('Copy name'), Commands.copyFlagName, flag) : '',
    flagCommandLink(l10n.t('Show details'), Commands.showFlagDetails, flag),
  ];
  return actions.filter((action) => action !== '').join(' · ');
}
