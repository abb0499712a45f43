/**
 * The markdown of a flag hover, as a pure function of the data (no 'vscode' here, so it is unit-tested and
 * benchmarked in plain Node). The hover provider decides what to pass; this decides what the user reads.
 *
 * Everything that comes from the server (or an export file) is untrusted: it goes through `escapeMarkdown` /
 * `markdownCode`, links are offered only for http/https URLs, and the only `command:` links are ours
 * (reveal in the Flags tree, copy the name). Every list is capped with `… and N more`, every text is cut, and the
 * whole hover stops adding projects past MAX_HOVER_LENGTH, so a hostile catalog cannot build a huge hover.
 */
import * as l10n from '@vscode/l10n';
import { chooseEnvironments, hiddenEnvironments } from '../store/environmentChoice';
import type { Feature, FeatureEnvironment, FeatureSummary, Strategy, Variant, StrategyVariant } from '../../api/schemas';
import { Commands } from '../../base/constants';
import { flagStatus, statusMarkdown, type FlagStatus } from '../store/flagStatus';
import { joinValues, pluralForm } from '../text/intl';
import { isValidFlagName } from '../code/flagNameRule';
import { escapeMarkdown, markdownLink, openableUrl, plainMarkdown } from '../text/markdown';
import { strategyCount, variantCount } from '../text/countText';
import { describeDependency, describeEnvironmentState, describeLastSeen, DISABLED_MARK, ENABLED_MARK, flagName } from '../text/flagText';
import { clean, parseIsoUtc, utcDate, formatList } from '../text/plainText';
import { describeStrategy, strategyBadges, strategyDisplayName, strategyTitle } from '../text/strategyText';
import { describeVariant } from '../text/variantText';

/**
 * Untrusted text as an inline code span, where nothing is interpreted: one line of at most `max` characters,
 * fenced with more backticks than it contains. Not for table cells (a `|` would still split the cell).
 */
export function markdownCode(text: string, max: number): string {
  const line = clean(text, max);
  let longest = 0;
  for (const run of line.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const pad = line === '' || line.startsWith('`') || line.endsWith('`') || /^ .* $/.test(line) ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

/**
 * A `command:` URI with JSON arguments, for a MarkdownString whose `isTrusted.enabledCommands` lists `command`.
 * `encodeURIComponent` leaves `(`, `)`, `!`, `'` and `*`; they are percent-encoded too, so no flag name can end
 * the link early.
 */
export function commandUri(command: string, args: readonly unknown[]): string {
  const query = encodeURIComponent(JSON.stringify(args)).replace(
    /[!'()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `command:${command}?${query}`;
}

/** The caps of a hover. Each one is a number of items or of characters before escaping. */
export const HOVER_LIMITS = {
  /** Projects shown for one name (a name can exist in several). */
  projects: 5,
  description: 300,
  environments: 12,
  /** Strategies named in one environment's cell; the count is always exact. */
  strategiesPerEnvironment: 4,
  /** Characters of one environment's strategy summary. */
  strategyCell: 200,
  /** Variant lines (feature, environment and strategy variants together). */
  variants: 8,
  variantLine: 200,
  parents: 5,
  children: 10,
  tags: 10,
  links: 5,
  /** Past this length (after escaping) no further project is added. */
  hoverLength: 30_000,
} as const;

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

export interface HoverInput {
  matches: readonly HoverMatch[];
  /** Where the data comes from: a server's host or the export files read. */
  sourceLabel: string;
  /** The flag's page in the Unleash web UI; offered only when it is an http/https URL. */
  webUrl?: (project: string, name: string) => string | undefined;
  /** The time "last seen" is measured from. */
  now: Date;
  /** `unleash.environments`: the environments shown, in order (empty or not given: all). */
  environments?: readonly string[];
}

/** The arguments our commands receive from a hover link. */
export interface FlagCommandArgs {
  project: string;
  name: string;
}

/** `command:unleash.revealFlag?…` for one flag. */
export function revealFlagUri(args: FlagCommandArgs): string {
  return commandUri(Commands.revealFlag, [{ project: args.project, name: args.name }]);
}

/** `command:unleash.copyFlagName?…` for one flag. */
export function copyFlagNameUri(args: FlagCommandArgs): string {
  return commandUri(Commands.copyFlagName, [{ project: args.project, name: args.name }]);
}

/** `command:unleash.showFlagDetails?…` for one flag. */
export function flagDetailsUri(args: FlagCommandArgs): string {
  return commandUri(Commands.showFlagDetails, [{ project: args.project, name: args.name }]);
}

/** Command links longer than this are left out (a hostile project name could be 10,000 characters). */
const MAX_COMMAND_URI = 2048;

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
  if (source !== '') blocks.push(l10n.t('_Source: {0}_', source));
  return blocks.join('\n\n');
}

/**
 * The hover for a name that an SDK call reads but the source does not know: `No flag named \`x\` on <server>`
 * (`in <files>` for the offline mode), so that typos show up where they are written.
 */
export function unknownFlagMarkdown(
  name: string,
  sourceLabel: string,
  sdkCall?: string,
  sourceKind: 'server' | 'files' = 'server',
): string {
  const where = plainMarkdown(sourceLabel, 120);
  const code = markdownCode(name, 200);
  const head =
    sourceKind === 'files'
      ? l10n.t('No flag named {0} in {1}', code, where === '' ? l10n.t('the server') : where)
      : l10n.t('No flag named {0} on {1}', code, where === '' ? l10n.t('the server') : where);
  const check = l10n.t('Check the spelling; the flag may also be archived or in a project this workspace does not read.');
  return `${head}\n\n${readsThisName(sdkCall)}${check}`;
}

/**
 * The hover for a name that an SDK call reads, the listing lacks, and whose lookup among archived flags has not
 * answered yet: neither unknown nor archived is known, so it says that it is being checked.
 */
export function lookupPendingMarkdown(name: string, sourceLabel: string, sdkCall?: string): string {
  const where = plainMarkdown(sourceLabel, 120);
  const head = l10n.t('{0} is not among the flags listed from {1}.', markdownCode(name, 200), where === '' ? l10n.t('the server') : where);
  return `${head}\n\n${readsThisName(sdkCall)}${l10n.t('Checking whether it is an archived flag… hover again in a moment.')}`;
}

/**
 * The hover for a name that an SDK call reads and that belongs to an archived flag (the server's listing leaves those
 * out): says so, with its project and when it was archived, and what that means for the call.
 */
export function archivedFlagMarkdown(flag: FeatureSummary, sdkCall: string | undefined, sourceLabel: string): string {
  const where = plainMarkdown(sourceLabel, 120);
  const facts = [l10n.t('**{0}** is archived', escapeMarkdown(flagName(flag.name, 200)))];
  const project = plainMarkdown(flag.project ?? '', 60);
  if (project !== '') facts.push(l10n.t('project {0}', project));
  const at = flag.archivedAt ? parseIsoUtc(flag.archivedAt) : undefined;
  if (at !== undefined) facts.push(l10n.t('archived {0}', utcDate(at)));
  const lines = [facts.join(' · '), `${readsThisName(sdkCall)}${archivedMeaning()}`];
  if (where !== '') lines.push(l10n.t('_Source: {0}_', where));
  return lines.join('\n\n');
}

/** What being archived means for code, wherever an archived flag is shown. */
function archivedMeaning(): string {
  return l10n.t('SDKs no longer receive archived flags, so code reading it gets its default value. Revive the flag in Unleash, or remove the code.');
}

/** `` `isEnabled` reads a flag by this name. `` (with its trailing space), or '' without a call. */
function readsThisName(sdkCall: string | undefined): string {
  return sdkCall === undefined || sdkCall.trim() === '' ? '' : `${l10n.t('{0} reads a flag by this name.', markdownCode(sdkCall, 60))} `;
}

// ---------------------------------------------------------------------------

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

  blocks.push(environmentTable(match, input.now, input.environments ?? []));
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

// ---- Environments ----------------------------------------------------------

interface EnvironmentRow {
  name: string;
  enabled: boolean;
  strategies: string;
  lastSeen: string;
}

/** Keeps words together in a table cell: the hover's table never wraps a header or a state. */
const NBSP = '\u00a0';
const together = (text: string): string => text.replace(/ /g, NBSP);

/**
 * A narrow table (environment, state, last seen) that fits the default hover width without wrapping, then each
 * environment's strategies on a line of its own below it, where long text wraps as prose.
 */
function environmentTable(match: HoverMatch, now: Date, chosen: readonly string[]): string {
  const { rows, total, hidden } = environmentRows(match, now, HOVER_LIMITS.environments, chosen);
  if (total === 0) return hidden > 0 ? escapeMarkdown(hiddenEnvironments(hidden)) : l10n.t('_No environments._');
  const lines = [`| ${l10n.t('Environment')} | ${l10n.t('State')} | ${together(l10n.t('Last seen'))} |`, '| --- | --- | --- |'];
  const strategies: string[] = [];
  for (const row of rows) {
    const state = `${row.enabled ? ENABLED_MARK : DISABLED_MARK}${NBSP}${describeEnvironmentState(row.enabled)}`;
    const name = plainMarkdown(row.name, 40) || l10n.t('(unnamed)');
    lines.push(`| ${name} | ${state} | ${together(plainMarkdown(row.lastSeen, 40))} |`);
    strategies.push(`**${name}** · ${plainMarkdown(row.strategies, HOVER_LIMITS.strategyCell + 40)}`);
  }
  const rest = total - rows.length;
  const blocks = [lines.join('\n')];
  if (rest > 0) {
    blocks.push(pluralForm(rest, { one: l10n.t('… and {0} more environment', rest), other: l10n.t('… and {0} more environments', rest) }));
  }
  blocks.push(strategies.join('  \n'));
  if (hidden > 0) blocks.push(`_${escapeMarkdown(hiddenEnvironments(hidden))}_`);
  return blocks.join('\n\n');
}

/** The first `max` environments as table rows (only those are described), and how many there are. */
function environmentRows(match: HoverMatch, now: Date, max: number, chosen: readonly string[]): { rows: EnvironmentRow[]; total: number; hidden: number } {
  const detailedAll = match.details?.environments;
  if (detailedAll !== undefined) {
    const { shown: detailed, hidden } = chooseEnvironments(detailedAll, chosen);
    const rows = detailed.slice(0, max).map((env) => ({
      name: env.name,
      enabled: env.enabled === true,
      strategies: strategySummary(env),
      lastSeen: describeLastSeen(env.lastSeenAt, now),
    }));
    return { rows, total: detailed.length, hidden };
  }
  const { shown: summaries, hidden } = chooseEnvironments(match.summary.environments ?? [], chosen);
  const rows = summaries.slice(0, max).map((env) => {
    const parts: string[] = [];
    if (env.hasStrategies === true) {
      parts.push(env.hasEnabledStrategies === false ? l10n.t('strategies, all disabled') : l10n.t('has strategies'));
    } else if (env.hasStrategies === false) {
      parts.push(l10n.t('no strategies'));
    }
    if (env.variantCount !== undefined && env.variantCount > 0) parts.push(variantCount(env.variantCount));
    return {
      name: env.name,
      enabled: env.enabled === true,
      strategies: parts.length > 0 ? joinValues(parts) : '—',
      lastSeen: describeLastSeen(env.lastSeenAt, now),
    };
  });
  return { rows, total: summaries.length, hidden };
}

/**
 * `2 strategies: Gradual rollout: 25% of userId ("EU employees first", 2 constraints); Standard: on for everyone`.
 * The count is exact; at most `strategiesPerEnvironment` strategies and `strategyCell` characters are named.
 */
export function strategySummary(env: Pick<FeatureEnvironment, 'strategies'>): string {
  const strategies = env.strategies ?? [];
  if (strategies.length === 0) return l10n.t('no strategies');
  const head = l10n.t('{0}: ', strategyCount(strategies.length));
  let text = '';
  let shown = 0;
  for (const strategy of strategies) {
    if (shown >= HOVER_LIMITS.strategiesPerEnvironment) break;
    const item = strategyLine(strategy);
    const next = shown === 0 ? item : `${text}; ${item}`;
    if (shown > 0 && head.length + next.length > HOVER_LIMITS.strategyCell) break;
    text = next;
    shown += 1;
  }
  const rest = strategies.length - shown;
  return andMore(clean(head + text, HOVER_LIMITS.strategyCell - (rest > 0 ? 20 : 0)), rest);
}

/** `text … and N more` (`text… and N more` when `text` was cut, as `formatList` writes it); `text` when rest ≤ 0. */
function andMore(text: string, rest: number): string {
  if (rest <= 0) return text;
  return text.endsWith('…') ? l10n.t('{0} and {1} more', text, rest) : l10n.t('{0} … and {1} more', text, rest);
}

function strategyLine(strategy: Strategy): string {
  const extras: string[] = [];
  const title = strategyTitle(strategy);
  if (title !== undefined) extras.push(`“${clean(title, 60)}”`);
  extras.push(...strategyBadges(strategy));
  const summary = describeStrategy(strategy);
  return extras.length > 0 ? `${summary} (${joinValues(extras)})` : summary;
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
  for (const variant of details.variants ?? []) add(() => '', variant);
  for (const env of details.environments ?? []) {
    const envName = () => (env.name.trim() === '' ? l10n.t('(unnamed)') : clean(env.name, 40));
    for (const variant of env.variants ?? []) add(envName, variant);
    for (const strategy of env.strategies ?? []) {
      const scope = () => `${envName()} › ${clean(strategyTitle(strategy) ?? strategyDisplayName(strategy.name), 60)}`;
      for (const variant of strategy.variants ?? []) add(scope, variant);
    }
  }
  const rest = total - lines.length;
  if (rest > 0) lines.push(`- ${pluralForm(rest, { one: l10n.t('… and {0} more variant', rest), other: l10n.t('… and {0} more variants', rest) })}`);
  return lines;
}

function dependencyLines(details: Feature): string[] {
  const lines: string[] = [];
  const parents = details.dependencies ?? [];
  if (parents.length > 0) {
    const shown = parents.slice(0, HOVER_LIMITS.parents).map(describeDependency).join('; ');
    const rest = parents.length - HOVER_LIMITS.parents;
    const text = andMore(clean(shown, 400), rest);
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
  return andMore(items.join(' · '), rest);
}

function actionLine(project: string, name: string, input: HoverInput): string {
  const actions: string[] = [];
  let web: string | undefined;
  try {
    web = input.webUrl?.(project, name);
  } catch {
    web = undefined;
  }
  // A name that breaks the naming rule is neither opened in Unleash nor copied.
  const valid = isValidFlagName(name);
  if (valid && web !== undefined && openableUrl(web) !== undefined) actions.push(markdownLink(l10n.t('Open in Unleash'), web));
  const reveal = revealFlagUri({ project, name });
  if (reveal.length <= MAX_COMMAND_URI) actions.push(`[${l10n.t('Reveal in Flags tree')}](${reveal})`);
  const copy = valid ? copyFlagNameUri({ project, name }) : '';
  if (valid && copy.length <= MAX_COMMAND_URI) actions.push(`[${l10n.t('Copy name')}](${copy})`);
  const details = flagDetailsUri({ project, name });
  if (details.length <= MAX_COMMAND_URI) actions.push(`[${l10n.t('Show details')}](${details})`);
  return actions.join(' · ');
}
