/**
 * The lines of a strategy and of a variant in a details document (flagDocument.ts) and in Compare Environments, and
 * what writes a value there in full: on one line, as a list (a long one counted, then a value a line), or as a block
 * made in pieces of about CHUNK characters, so that no step of the work is as long as the value.
 */
import * as l10n from '@vscode/l10n';
import type { Constraint, Segment, Strategy, StrategyVariant, Variant } from '../../api/schemas';
import { compare } from '../../base/compare';
import { sortSteps } from '../../base/sortSteps';
import { segmentDefinitionMissing } from '../store/offlineSource';
import { constraintParts } from '../text/constraintText';
import { formatCount } from '../text/countText';
import { joinValues, pluralForm } from '../text/intl';
import { jsonCheck } from '../text/jsonSyntax';
import { indentsJson, prettyJsonPieces } from '../text/jsonText';
import { visibleText } from '../text/plainText';
import { describeStrategy } from '../text/strategyText';
import { weightPercent } from '../text/variantText';

/** Characters of a long value written as one piece (a value is never cut: only made in pieces). */
const CHUNK = 16_384;
/** Parameters of a strategy sorted at once; more are sorted in steps. */
const SORT_AT_ONCE = 2_000;

export const INDENT = '  ';

/** Values listed on the line that names them; a longer list is counted there, each value then on a line of its own. */
const LIST_AT_ONCE = 1_000;

/**
 * `line(list)` with the values joined (`a, b, c`, each `one()`), or, for more than LIST_AT_ONCE, `line('N values')`
 * and every value below it (so no line, and no step of the work, is as long as the list).
 */
export function* listPieces(values: readonly string[], indent: string, line: (list: string) => string, asValues = true): Generator<string> {
  const shown = (value: string) => (asValues ? one(value) : value);
  if (values.length <= LIST_AT_ONCE) {
    yield `${indent}${line(joinValues(values.map(shown)))}\n`;
    return;
  }
  yield `${indent}${line(pluralForm(values.length, { one: l10n.t('{0} value', formatCount(values.length)), other: l10n.t('{0} values', formatCount(values.length)) }))}\n`;
  for (const value of values) yield `${indent}${INDENT}${INDENT}${shown(value)}\n`;
}

/** A value on one line, in full. */
export function one(text: string): string {
  return text === '' ? '""' : visibleText(text);
}

/** A value that may span lines, in full, each further line indented by `indent` (for short values). */
function block(text: string, indent: string): string {
  return visibleText(text, { multiline: true }).split('\n').join(`\n${indent}`);
}

/**
 * `block(text, indent)` in pieces of about CHUNK characters, cut where no escape, line break or surrogate pair is
 * split: the same text, never made in one go.
 */
export function* blockPieces(text: string, indent: string): Generator<string> {
  if (text.length <= CHUNK) {
    yield block(text, indent);
    return;
  }
  let from = 0;
  while (from < text.length) {
    let to = Math.min(text.length, from + CHUNK);
    // After a plain ASCII character when one is near (never inside an emoji sequence or a surrogate pair), and never
    // between a CR and its LF (`\r\n` is one line break).
    if (to < text.length) {
      let ascii = to;
      while (ascii > to - 64 && !(text.charCodeAt(ascii - 1) < 0x80 && text.charCodeAt(ascii - 1) !== 0x0d && text.charCodeAt(ascii) < 0x80)) ascii--;
      if (ascii > to - 64) to = ascii;
      else while (to > from + 1 && text.charCodeAt(to - 1) >= 0xd800 && text.charCodeAt(to - 1) <= 0xdbff) to--;
    }
    yield block(text.slice(from, to), indent);
    from = to;
  }
}

/** A strategy's lines: its summary, title, parameters, constraints, segments and variants. */
export function* strategyPieces(strategy: Strategy, index: number, input: { segments: ReadonlyMap<string, readonly Segment[]> }): Generator<string> {
  const indent = INDENT;
  const inner = INDENT.repeat(2);
  yield `${indent}${l10n.t('Strategy {0}: {1}', index + 1, visibleText(describeStrategy(strategy)))}\n`;
  if (strategy.title && strategy.title.trim() !== '') yield `${inner}${l10n.t('Title: {0}', one(strategy.title))}\n`;
  if (strategy.disabled === true) yield `${inner}${l10n.t('Disabled: this strategy is not evaluated')}\n`;
  const parameters = Object.entries(strategy.parameters ?? {});
  if (parameters.length > 0) {
    yield `${inner}${l10n.t('Parameters')}\n`;
    const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => compare(a, b);
    let sorted = parameters;
    if (parameters.length <= SORT_AT_ONCE) sorted.sort(byKey);
    else {
      // In steps, an empty piece after each so that the slices can look at the clock.
      const sort = sortSteps(parameters, byKey);
      let step = sort.next();
      for (; step.done !== true; step = sort.next()) yield '';
      sorted = step.value;
    }
    for (const [key, value] of sorted) yield `${inner}${INDENT}${one(key)}: ${one(String(value))}\n`;
  }
  const constraints = strategy.constraints ?? [];
  if (constraints.length > 0) {
    yield `${inner}${l10n.t('Constraints')}\n`;
    for (const constraint of constraints) yield* constraintPieces(constraint, `${inner}${INDENT}`);
  }
  const segmentIds = strategy.segments ?? [];
  const segments = strategy.id !== undefined ? input.segments.get(strategy.id) : undefined;
  if (segments !== undefined && segments.length > 0) {
    yield `${inner}${l10n.t('Segments')}\n`;
    for (const segment of segments) yield* segmentPieces(segment, `${inner}${INDENT}`);
  } else if (segmentIds.length > 0) {
    yield* listPieces(segmentIds.map((id) => `#${id}`), inner, (list) => l10n.t('Segments: {0}', list), false);
  }
  if (strategy.variants && strategy.variants.length > 0) {
    yield `${inner}${l10n.t('Variants')}\n`;
    for (const variant of strategy.variants) yield* variantPieces(variant, `${inner}${INDENT}`);
  }
}

/** `country is one of (3 values)` and then every value on its own line. */
function* constraintPieces(constraint: Constraint, indent: string): Generator<string> {
  const parts = constraintParts(constraint);
  const values = constraint.values !== undefined && constraint.values.length > 0 ? constraint.values : undefined;
  if (values === undefined) {
    const value = constraint.value;
    const shown = value === undefined ? parts.values : one(value);
    yield `${`${indent}- ${visibleText(`${parts.contextName} ${parts.phrase}`)} ${shown}${parts.suffix}`.trimEnd()}\n`;
    return;
  }
  const count = pluralForm(values.length, { one: l10n.t('{0} value', values.length), other: l10n.t('{0} values', values.length) });
  yield `${indent}- ${visibleText(`${parts.contextName} ${parts.phrase}`)} (${count})${parts.suffix}\n`;
  for (const value of values) yield `${indent}${INDENT}${INDENT}${one(value)}\n`;
}

function* segmentPieces(segment: Segment, indent: string): Generator<string> {
  const scope = segment.project && segment.project.trim() !== '' ? l10n.t('project {0}', one(segment.project)) : l10n.t('global');
  yield `${indent}${one(segment.name)} (#${segment.id}, ${scope})\n`;
  if (segment.description && segment.description.trim() !== '') {
    yield `${indent}${INDENT}`;
    yield* blockPieces(segment.description, `${indent}${INDENT}`);
    yield '\n';
  }
  if (segmentDefinitionMissing(segment)) {
    yield `${indent}${INDENT}${l10n.t('Constraints: not in this export file (export the environment again, or connect to a server)')}\n`;
  }
  for (const constraint of segment.constraints) yield* constraintPieces(constraint, `${indent}${INDENT}`);
}

/** A variant: name, weight, stickiness, its payload in full (JSON indented, in pieces) and its overrides. */
export function* variantPieces(variant: Variant | StrategyVariant, indent: string): Generator<string> {
  const name = variant.name === '' ? l10n.t('(unnamed variant)') : one(variant.name);
  const facts = [weightPercent(variant.weight)];
  if (variant.weightType) facts.push(one(variant.weightType));
  if (variant.stickiness) facts.push(l10n.t('stickiness {0}', one(variant.stickiness)));
  yield `${indent}- ${name}: ${facts.join(' · ')}\n`;
  const payload = variant.payload;
  if (payload) {
    const inner = `${indent}${INDENT}${INDENT}`;
    yield `${indent}${INDENT}${l10n.t('Payload ({0}):', one(payload.type))}\n${inner}`;
    yield* payloadPieces(payload, inner);
    yield '\n';
  }
  const overrides = Array.isArray(variant.overrides) ? (variant.overrides as Array<{ contextName: string; values: string[] }>) : [];
  for (const override of overrides) {
    yield* listPieces(override.values, `${indent}${INDENT}`, (list) => l10n.t('Override {0}: {1}', one(override.contextName), list));
  }
}

/**
 * A payload's value, each further line indented by `inner`: JSON that `prettyJson` would indent is indented in pieces
 * (checked first, a step at a time: the empty pieces let the slices yield), anything else as written.
 */
function* payloadPieces(payload: NonNullable<Variant['payload']>, inner: string): Generator<string> {
  const value = payload.value;
  if (payload.type === 'json' && indentsJson(value.length)) {
    const check = jsonCheck(value);
    let step = check.next();
    for (; step.done !== true; step = check.next()) yield '';
    if (step.value) {
      for (const piece of prettyJsonPieces(value)) yield block(piece, inner);
      return;
    }
  }
  yield* blockPieces(value === '' ? '""' : value, inner);
}
