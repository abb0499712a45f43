/**
 * The whole flag as a read-only text document ("Unleash: Show Flag Details"), nothing cut: where every value can be
 * read, searched and copied in full. Values go through `visibleText` (invisible characters as `\u{…}` escapes, so
 * nothing can reorder the text); a JSON payload is indented by `prettyJson` and stays valid JSON.
 */
import * as l10n from '@vscode/l10n';
import type { Constraint, Feature, FeatureSummary, Segment, Strategy, StrategyVariant, Variant } from '../../api/schemas';
import { isValidFlagName } from '../code/flagNameRule';
import { pushAll } from '../../base/arrays';
import { flagStatus, type FlagStatus } from '../store/flagStatus';
import { joinValues, pluralForm } from '../text/intl';
import { segmentDefinitionMissing } from '../store/offlineSource';
import { constraintParts } from '../text/constraintText';
import { describeLastSeen, describeLifecycle, invalidNameMark } from '../text/flagText';
import { prettyJson } from '../text/jsonText';
import { MAX_LABEL, parseIsoUtc, truncate, utcDateTime, visibleText } from '../text/plainText';
import { describeStrategy } from '../text/strategyText';
import { weightPercent } from '../text/variantText';
import { compare } from '../../base/compare';

interface FlagDocumentInput {
  /** The flag's row in the listing (tags and lifecycle when the details leave them out). */
  summary?: FeatureSummary;
  details: Feature;
  /** The segments of each strategy, by strategy id (those that were read). */
  segments: ReadonlyMap<string, readonly Segment[]>;
  /** Where the data comes from: a server's host or the export files. */
  sourceLabel: string;
  now: Date;
  /** The flag's one status (FlagStore.status); without it, from the summary and the details. */
  status?: FlagStatus;
}

const INDENT = '  ';

/** A value on one line, in full. */
function one(text: string): string {
  return text === '' ? '""' : visibleText(text);
}

/**
 * A flag's name: in full when it keeps Unleash's naming rule, else (a 10 MB name, bidi characters) its first
 * MAX_LABEL characters, escapes visible, and the mark.
 */
function flagNameText(name: string): string {
  return isValidFlagName(name) ? name : `${one(truncate(name, MAX_LABEL))} ${invalidNameMark()}`;
}

/** A value that may span lines, in full, each further line indented by `indent`. */
function block(text: string, indent: string): string {
  return visibleText(text, { multiline: true }).split('\n').join(`\n${indent}`);
}

function heading(title: string): string[] {
  return ['', title, '-'.repeat(title.length)];
}

function time(iso: string | null | undefined): string | undefined {
  if (iso === undefined || iso === null || iso.trim() === '') return undefined;
  const ms = parseIsoUtc(iso);
  return ms === undefined ? one(iso) : utcDateTime(ms);
}

export function flagDocument(input: FlagDocumentInput): string {
  const { details, summary } = input;
  const lines = headLines(details, summary, input.status ?? flagStatus(summary, details), input.sourceLabel);
  const none = l10n.t('(none)');

  const environments = details.environments ?? [];
  lines.push(...heading(l10n.t('Environments')));
  if (environments.length === 0) lines.push(none);
  for (const env of environments) {
    lines.push('');
    const seen = l10n.t('last seen {0}', describeLastSeen(env.lastSeenAt, input.now));
    const state = env.enabled ? l10n.t('enabled') : l10n.t('disabled');
    lines.push(`${one(env.name)}: ${state} · ${seen}${env.type ? ` · ${l10n.t('type {0}', one(env.type))}` : ''}`);
    const strategies = env.strategies ?? [];
    if (strategies.length === 0) lines.push(`${INDENT}${l10n.t('No strategies')}`);
    strategies.forEach((strategy, index) => pushAll(lines, strategyLines(strategy, index, input)));
    if (env.variants && env.variants.length > 0) {
      lines.push(`${INDENT}${l10n.t('Variants')}`);
      for (const variant of env.variants) lines.push(...variantLines(variant, INDENT.repeat(2)));
    }
  }
  if (details.variants && details.variants.length > 0 && !environments.some((env) => env.variants !== undefined)) {
    lines.push(...heading(l10n.t('Variants')));
    for (const variant of details.variants) lines.push(...variantLines(variant, ''));
  }

  const tags = details.tags ?? summary?.tags ?? [];
  lines.push(...heading(l10n.t('Tags')));
  if (tags.length === 0) lines.push(none);
  for (const tag of tags) lines.push(`${one(tag.type)}:${one(tag.value)}`);

  const parents = details.dependencies ?? [];
  const children = details.children ?? [];
  if (parents.length > 0 || children.length > 0) {
    lines.push(...heading(l10n.t('Dependencies')));
    for (const dep of parents) {
      const feature = flagNameText(dep.feature);
      if (dep.enabled === false) lines.push(l10n.t('requires {0} disabled', feature));
      else if (dep.variants && dep.variants.length > 0) lines.push(l10n.t('requires {0} enabled (variants: {1})', feature, joinValues(dep.variants.map(one))));
      else lines.push(l10n.t('requires {0} enabled', feature));
    }
    for (const child of children) lines.push(l10n.t('{0} depends on this flag', flagNameText(child)));
  }

  const links = details.links ?? [];
  if (links.length > 0) {
    lines.push(...heading(l10n.t('Links')));
    for (const link of links) {
      const title = link.title && link.title.trim() !== '' ? `${one(link.title)}: ` : '';
      lines.push(`${title}${one(link.url)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The document of an archived flag found by name (FlagStore.findArchived): a server does not serve an archived flag's
 * details, so what its search row holds (status, dates, description, each environment's state, tags), and how to
 * read the rest.
 */
export function archivedFlagDocument(flag: FeatureSummary, sourceLabel: string): string {
  const lines = headLines(flag, undefined, flagStatus(flag), sourceLabel);
  const environments = flag.environments ?? [];
  lines.push(...heading(l10n.t('Environments')));
  if (environments.length === 0) lines.push(l10n.t('(none)'));
  for (const env of environments) lines.push(`${one(env.name)}: ${env.enabled ? l10n.t('enabled') : l10n.t('disabled')}`);
  lines.push('', l10n.t('Unleash does not serve the strategies and variants of an archived flag: revive it in Unleash to read them.'));
  const tags = flag.tags ?? [];
  lines.push(...heading(l10n.t('Tags')));
  if (tags.length === 0) lines.push(l10n.t('(none)'));
  for (const tag of tags) lines.push(`${one(tag.type)}:${one(tag.value)}`);
  return `${lines.join('\n')}\n`;
}

/** Name, project, type, status, dates, source and description: what every flag's document starts with. */
function headLines(flag: Feature | FeatureSummary, summary: FeatureSummary | undefined, status: FlagStatus, sourceLabel: string): string[] {
  const name = flagNameText(flag.name);
  const lines: string[] = [name, '='.repeat(Math.max(3, Math.min(name.length, 80)))];
  const field = (label: string, value: string | undefined) => {
    if (value !== undefined && value !== '') lines.push(`${label}: ${value}`);
  };
  const yesNo = (value: boolean) => (value ? l10n.t('yes') : l10n.t('no'));
  const type = flag.type ?? summary?.type;
  field(l10n.t('Project'), one(flag.project ?? summary?.project ?? 'default'));
  field(l10n.t('Type'), type ? one(type) : undefined);
  field(l10n.t('Lifecycle'), status.lifecycle ? describeLifecycle(status.lifecycle) : undefined);
  field(l10n.t('Stale'), yesNo(status.stale));
  field(l10n.t('Archived'), yesNo(status.archived));
  if (flag.impressionData !== undefined) field(l10n.t('Impression data'), flag.impressionData ? l10n.t('on') : l10n.t('off'));
  field(l10n.t('Created'), time(flag.createdAt ?? summary?.createdAt));
  field(l10n.t('Archived at'), time(flag.archivedAt ?? summary?.archivedAt));
  field(l10n.t('Source'), one(sourceLabel));

  const description = flag.description ?? summary?.description ?? '';
  lines.push(...heading(l10n.t('Description')));
  lines.push(description.trim() === '' ? l10n.t('(none)') : block(description, ''));
  return lines;
}

export function strategyLines(strategy: Strategy, index: number, input: Pick<FlagDocumentInput, 'segments'>): string[] {
  const indent = INDENT;
  const inner = INDENT.repeat(2);
  const lines = [`${indent}${l10n.t('Strategy {0}: {1}', index + 1, visibleText(describeStrategy(strategy)))}`];
  if (strategy.title && strategy.title.trim() !== '') lines.push(`${inner}${l10n.t('Title: {0}', one(strategy.title))}`);
  if (strategy.disabled === true) lines.push(`${inner}${l10n.t('Disabled: this strategy is not evaluated')}`);
  const parameters = Object.entries(strategy.parameters ?? {});
  if (parameters.length > 0) {
    lines.push(`${inner}${l10n.t('Parameters')}`);
    for (const [key, value] of parameters.sort(([a], [b]) => compare(a, b))) {
      lines.push(`${inner}${INDENT}${one(key)}: ${one(String(value))}`);
    }
  }
  const constraints = strategy.constraints ?? [];
  if (constraints.length > 0) {
    lines.push(`${inner}${l10n.t('Constraints')}`);
    for (const constraint of constraints) pushAll(lines, constraintLines(constraint, `${inner}${INDENT}`));
  }
  const segmentIds = strategy.segments ?? [];
  const segments = strategy.id !== undefined ? input.segments.get(strategy.id) : undefined;
  if (segments !== undefined && segments.length > 0) {
    lines.push(`${inner}${l10n.t('Segments')}`);
    for (const segment of segments) pushAll(lines, segmentLines(segment, `${inner}${INDENT}`));
  } else if (segmentIds.length > 0) {
    lines.push(`${inner}${l10n.t('Segments: {0}', joinValues(segmentIds.map((id) => `#${id}`)))}`);
  }
  if (strategy.variants && strategy.variants.length > 0) {
    lines.push(`${inner}${l10n.t('Variants')}`);
    for (const variant of strategy.variants) lines.push(...variantLines(variant, `${inner}${INDENT}`));
  }
  return lines;
}

/** `country is one of (3 values)` and then every value on its own line. */
function constraintLines(constraint: Constraint, indent: string): string[] {
  const parts = constraintParts(constraint);
  const values = constraint.values !== undefined && constraint.values.length > 0 ? constraint.values : undefined;
  if (values === undefined) {
    const value = constraint.value;
    const shown = value === undefined ? parts.values : one(value);
    return [`${indent}- ${visibleText(`${parts.contextName} ${parts.phrase}`)} ${shown}${parts.suffix}`.trimEnd()];
  }
  const count = pluralForm(values.length, { one: l10n.t('{0} value', values.length), other: l10n.t('{0} values', values.length) });
  return [
    `${indent}- ${visibleText(`${parts.contextName} ${parts.phrase}`)} (${count})${parts.suffix}`,
    ...values.map((value) => `${indent}${INDENT}${INDENT}${one(value)}`),
  ];
}

function segmentLines(segment: Segment, indent: string): string[] {
  const scope = segment.project && segment.project.trim() !== '' ? l10n.t('project {0}', one(segment.project)) : l10n.t('global');
  const lines = [`${indent}${one(segment.name)} (#${segment.id}, ${scope})`];
  if (segment.description && segment.description.trim() !== '') lines.push(`${indent}${INDENT}${block(segment.description, `${indent}${INDENT}`)}`);
  if (segmentDefinitionMissing(segment)) {
    lines.push(`${indent}${INDENT}${l10n.t('Constraints: not in this export file (export the environment again, or connect to a server)')}`);
  }
  for (const constraint of segment.constraints) pushAll(lines, constraintLines(constraint, `${indent}${INDENT}`));
  return lines;
}

export function variantLines(variant: Variant | StrategyVariant, indent: string): string[] {
  const name = variant.name === '' ? l10n.t('(unnamed variant)') : one(variant.name);
  const facts = [weightPercent(variant.weight)];
  if (variant.weightType) facts.push(one(variant.weightType));
  if (variant.stickiness) facts.push(l10n.t('stickiness {0}', one(variant.stickiness)));
  const lines = [`${indent}- ${name}: ${facts.join(' · ')}`];
  const payload = variant.payload;
  if (payload) {
    const inner = `${indent}${INDENT}${INDENT}`;
    const json = payload.type === 'json' ? prettyJson(payload.value) : undefined;
    lines.push(`${indent}${INDENT}${l10n.t('Payload ({0}):', one(payload.type))}`);
    lines.push(`${inner}${block(json ?? (payload.value === '' ? '""' : payload.value), inner)}`);
  }
  const overrides = Array.isArray(variant.overrides) ? (variant.overrides as Array<{ contextName: string; values: string[] }>) : [];
  for (const override of overrides) {
    lines.push(`${indent}${INDENT}${l10n.t('Override {0}: {1}', one(override.contextName), joinValues(override.values.map(one)))}`);
  }
  return lines;
}
