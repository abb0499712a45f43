/**
 * The whole flag as a read-only text document ("Unleash: Show Flag Details"), nothing cut: where every value can be
 * read, searched and copied in full. Values go through `visibleText` (invisible characters as `\u{…}` escapes, so
 * nothing can reorder the text); a JSON payload is indented by `prettyJsonPieces` and stays valid JSON. The text is
 * made line by line (a long value in chunks) in time slices of at most SLICE_MS (`textInSlices`), so a flag of tens
 * of megabytes never blocks the editor, and within DOCUMENT_BUDGET: past it the document says where it stops and why.
 */
import * as l10n from '@vscode/l10n';
import type { Feature, FeatureSummary, Segment } from '../../api/schemas';
import { isValidFlagName } from '../code/flagNameRule';
import { flagStatus, type FlagStatus } from '../store/flagStatus';
import { describeLastSeen, describeLifecycle, invalidNameMark } from '../text/flagText';
import { MAX_LABEL, parseIsoUtc, truncate, utcDateTime } from '../text/plainText';
import { nextTurn } from '../../base/nextTurn';
import { textInSlices, type TextBudget } from '../../base/slicedText';
import { TimeSlices } from '../../base/timeSlices';
import { formatCount } from '../text/countText';
import { blockPieces, INDENT, listPieces, one, strategyPieces, variantPieces } from './documentPieces';

/** The longest the editor's thread works on a document before it yields. */
const SLICE_MS = 10;
/** The most a details document (or one side of Compare Environments) holds, and the longest it may take to write. */
const DOCUMENT_BUDGET: TextBudget = { chars: 8_000_000, ms: 30_000 };
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

/**
 * A flag's name: in full when it keeps Unleash's naming rule, else (a 10 MB name, bidi characters) its first
 * MAX_LABEL characters, escapes visible, and the mark.
 */
function flagNameText(name: string): string {
  return isValidFlagName(name) ? name : `${one(truncate(name, MAX_LABEL))} ${invalidNameMark()}`;
}

function heading(title: string): string[] {
  return ['\n', `${title}\n`, `${'-'.repeat(title.length)}\n`];
}

function time(iso: string | null | undefined): string | undefined {
  if (iso === undefined || iso === null || iso.trim() === '') return undefined;
  const ms = parseIsoUtc(iso);
  return ms === undefined ? one(iso) : utcDateTime(ms);
}

interface DocumentOptions {
  /** What ends the document (the History and Usage sections), made once the flag is written. */
  tail?: () => string;
  /** True once the document is no longer wanted: the writing stops (`TextCancelled`). */
  cancelled?: () => boolean;
  budget?: TextBudget;
}

/** The details document of a flag, made in time slices within its budget (see the file's header). */
export async function flagDocument(input: FlagDocumentInput, options: DocumentOptions = {}): Promise<string> {
  return documentText(documentPieces(input, options.tail), documentSlices(), options);
}

/** The slices a document is made in: SLICE_MS of work, then the event loop's next turn. */
export function documentSlices(): TimeSlices {
  return new TimeSlices(SLICE_MS, nextTurn);
}

/** The text of `pieces` in slices, ended by what stopped it early when something did. */
export async function documentText(pieces: Iterable<string>, slices: TimeSlices, options: Omit<DocumentOptions, 'tail'> = {}): Promise<string> {
  const budget = options.budget ?? DOCUMENT_BUDGET;
  const ending = (cut: 'chars' | 'time', before: string): string => {
    const why =
      cut === 'chars'
        ? l10n.t('The document stops here: it reached {0} characters, the most the editor is given to show. Open the flag in Unleash to read the rest.', formatCount(budget.chars))
        : l10n.t('The document stops here: writing it took longer than {0} s. Open the flag in Unleash to read the rest.', Math.round(budget.ms / 1000));
    return `${before === '' || before.endsWith('\n') ? '' : '\n'}\n… ${why}\n`;
  };
  return (await textInSlices(pieces, budget, slices, { cancelled: options.cancelled, ending })).text;
}

/** Lines (each ending with a newline) and chunks of the flag's document, made as they are pulled. */
function* documentPieces(input: FlagDocumentInput, tail?: () => string): Generator<string> {
  const { details, summary } = input;
  yield* headPieces(details, summary, input.status ?? flagStatus(summary, details), input.sourceLabel);
  const none = l10n.t('(none)');

  const environments = details.environments ?? [];
  yield* heading(l10n.t('Environments'));
  if (environments.length === 0) yield `${none}\n`;
  for (const env of environments) {
    yield '\n';
    const seen = l10n.t('last seen {0}', describeLastSeen(env.lastSeenAt, input.now));
    const state = env.enabled ? l10n.t('enabled') : l10n.t('disabled');
    yield `${one(env.name)}: ${state} · ${seen}${env.type ? ` · ${l10n.t('type {0}', one(env.type))}` : ''}\n`;
    const strategies = env.strategies ?? [];
    if (strategies.length === 0) yield `${INDENT}${l10n.t('No strategies')}\n`;
    for (const [index, strategy] of strategies.entries()) yield* strategyPieces(strategy, index, input);
    if (env.variants && env.variants.length > 0) {
      yield `${INDENT}${l10n.t('Variants')}\n`;
      for (const variant of env.variants) yield* variantPieces(variant, INDENT.repeat(2));
    }
  }
  if (details.variants && details.variants.length > 0 && !environments.some((env) => env.variants !== undefined)) {
    yield* heading(l10n.t('Variants'));
    for (const variant of details.variants) yield* variantPieces(variant, '');
  }

  const tags = details.tags ?? summary?.tags ?? [];
  yield* heading(l10n.t('Tags'));
  if (tags.length === 0) yield `${none}\n`;
  for (const tag of tags) yield `${one(tag.type)}:${one(tag.value)}\n`;

  const parents = details.dependencies ?? [];
  const children = details.children ?? [];
  if (parents.length > 0 || children.length > 0) {
    yield* heading(l10n.t('Dependencies'));
    for (const dep of parents) {
      const feature = flagNameText(dep.feature);
      if (dep.enabled === false) yield `${l10n.t('requires {0} disabled', feature)}\n`;
      else if (dep.variants && dep.variants.length > 0) yield* listPieces(dep.variants, '', (list) => l10n.t('requires {0} enabled (variants: {1})', feature, list));
      else yield `${l10n.t('requires {0} enabled', feature)}\n`;
    }
    for (const child of children) yield `${l10n.t('{0} depends on this flag', flagNameText(child))}\n`;
  }

  const links = details.links ?? [];
  if (links.length > 0) {
    yield* heading(l10n.t('Links'));
    for (const link of links) {
      const title = link.title && link.title.trim() !== '' ? `${one(link.title)}: ` : '';
      yield `${title}${one(link.url)}\n`;
    }
  }
  if (tail) yield tail();
}

/**
 * The document of an archived flag found by name (FlagStore.findArchived): a server does not serve an archived flag's
 * details, so what its search row holds (status, dates, description, each environment's state, tags), and how to
 * read the rest.
 */
export function archivedFlagDocument(flag: FeatureSummary, sourceLabel: string): string {
  const lines = [...headPieces(flag, undefined, flagStatus(flag), sourceLabel)];
  const environments = flag.environments ?? [];
  lines.push(...heading(l10n.t('Environments')));
  if (environments.length === 0) lines.push(`${l10n.t('(none)')}\n`);
  for (const env of environments) lines.push(`${one(env.name)}: ${env.enabled ? l10n.t('enabled') : l10n.t('disabled')}\n`);
  lines.push('\n', `${l10n.t('Unleash does not serve the strategies and variants of an archived flag: revive it in Unleash to read them.')}\n`);
  const tags = flag.tags ?? [];
  lines.push(...heading(l10n.t('Tags')));
  if (tags.length === 0) lines.push(`${l10n.t('(none)')}\n`);
  for (const tag of tags) lines.push(`${one(tag.type)}:${one(tag.value)}\n`);
  return lines.join('');
}

/** Name, project, type, status, dates, source and description: what every flag's document starts with. */
function* headPieces(flag: Feature | FeatureSummary, summary: FeatureSummary | undefined, status: FlagStatus, sourceLabel: string): Generator<string> {
  const name = flagNameText(flag.name);
  yield `${name}\n${'='.repeat(Math.max(3, Math.min(name.length, 80)))}\n`;
  const fields: string[] = [];
  const field = (label: string, value: string | undefined) => {
    if (value !== undefined && value !== '') fields.push(`${label}: ${value}\n`);
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
  yield fields.join('');

  const description = flag.description ?? summary?.description ?? '';
  yield* heading(l10n.t('Description'));
  if (description.trim() === '') yield `${l10n.t('(none)')}\n`;
  else {
    yield* blockPieces(description, '');
    yield '\n';
  }
}

