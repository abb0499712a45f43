/**
 * Constraints in the words of Unleash's own UI: `country is one of DE, FR`, `appVersion is a SemVer greater than
 * 2.1.0`, `email does not end with @example.com (case-insensitive)`.
 */
import * as l10n from '@vscode/l10n';
import type { Constraint } from '../../api/schemas';
import { clean, formatList, MAX_LABEL, parseIsoUtc, showValue, utcDateTime } from './plainText';

interface OperatorWording {
  /** `list`: the operator reads `values`; `single`: it reads `value`. */
  readonly kind: 'list' | 'single';
  readonly positive: string;
  readonly negative: string;
  /** Phrases used instead when a list operator has more than one value (`starts with any of`). */
  readonly positiveMany?: string;
  readonly negativeMany?: string;
  /** Whether `caseInsensitive` changes how the operator matches (so it is worth mentioning). */
  readonly text?: true;
  readonly date?: true;
}

const list = (positive: string, negative: string): OperatorWording =>
  ({ kind: 'list', positive, negative, text: true });
const stringOp = (positive: string, negative: string, positiveMany: string, negativeMany: string): OperatorWording =>
  ({ kind: 'list', positive, negative, positiveMany, negativeMany, text: true });
const single = (positive: string, negative: string): OperatorWording => ({ kind: 'single', positive, negative });
const date = (positive: string, negative: string): OperatorWording =>
  ({ kind: 'single', positive, negative, date: true });

/** The operators' phrases, in the language of the bundle: built on first use (after activation configured it). */
function operatorPhrases(): Readonly<Record<string, OperatorWording>> {
  return {
    IN: list(l10n.t('is one of'), l10n.t('is not one of')),
    NOT_IN: list(l10n.t('is not one of'), l10n.t('is one of')),
    STR_CONTAINS: stringOp(l10n.t('contains'), l10n.t('does not contain'), l10n.t('contains any of'), l10n.t('does not contain any of')),
    STR_STARTS_WITH: stringOp(l10n.t('starts with'), l10n.t('does not start with'), l10n.t('starts with any of'), l10n.t('does not start with any of')),
    STR_ENDS_WITH: stringOp(l10n.t('ends with'), l10n.t('does not end with'), l10n.t('ends with any of'), l10n.t('does not end with any of')),
    NUM_EQ: single(l10n.t('is a number equal to'), l10n.t('is not a number equal to')),
    NUM_GT: single(l10n.t('is a number greater than'), l10n.t('is not a number greater than')),
    NUM_GTE: single(l10n.t('is a number greater than or equal to'), l10n.t('is not a number greater than or equal to')),
    NUM_LT: single(l10n.t('is a number less than'), l10n.t('is not a number less than')),
    NUM_LTE: single(l10n.t('is a number less than or equal to'), l10n.t('is not a number less than or equal to')),
    DATE_BEFORE: date(l10n.t('is a date before'), l10n.t('is not a date before')),
    DATE_AFTER: date(l10n.t('is a date after'), l10n.t('is not a date after')),
    SEMVER_EQ: single(l10n.t('is a SemVer equal to'), l10n.t('is not a SemVer equal to')),
    SEMVER_GT: single(l10n.t('is a SemVer greater than'), l10n.t('is not a SemVer greater than')),
    SEMVER_GTE: single(l10n.t('is a SemVer greater than or equal to'), l10n.t('is not a SemVer greater than or equal to')),
    SEMVER_LT: single(l10n.t('is a SemVer less than'), l10n.t('is not a SemVer less than')),
    SEMVER_LTE: single(l10n.t('is a SemVer less than or equal to'), l10n.t('is not a SemVer less than or equal to')),
    // Unleash compiles the regex with a case-insensitive flag when `caseInsensitive` is set.
    REGEX: { ...single(l10n.t('matches regex'), l10n.t('does not match regex')), text: true },
  };
}

let operators: Readonly<Record<string, OperatorWording>> | undefined;

const MAX_CONTEXT_NAME = 60;
const MAX_OPERATOR = 40;

/** The pieces of a constraint sentence, for callers that style them separately (a hover bolds the context). */
interface ConstraintParts {
  /** The context field, cleaned (`(no context field)` when empty). */
  readonly contextName: string;
  /** `is one of`, `does not end with`, … or, for an unknown operator, the operator itself. */
  readonly phrase: string;
  /** The value(s) as read: `DE, FR`, `2.1.0`, `2025-01-01 00:00 UTC`, `(no values)`; '' for an unknown one without any. */
  readonly values: string;
  /** ` (case-insensitive)`, ` (inverted)` (unknown operators only), or ''. */
  readonly suffix: string;
}

function listValues(c: Constraint): string[] {
  if (c.values !== undefined && c.values.length > 0) return c.values;
  return c.value !== undefined && c.value !== '' ? [c.value] : [];
}

function singleValue(c: Constraint): string | undefined {
  if (c.value !== undefined && c.value !== '') return c.value;
  const first = c.values?.[0];
  return first !== undefined && first !== '' ? first : undefined;
}

function showDate(value: string, max: number): string {
  const ms = parseIsoUtc(value);
  return ms === undefined ? showValue(value, max) : utcDateTime(ms);
}

/** Room left for the values once the other pieces of the sentence are known, so the whole line fits MAX_LABEL. */
function valueBudget(contextName: string, phrase: string, suffix: string): number {
  const moreSuffix = l10n.t('{0} … and {1} more', '', 999999).length;
  return Math.max(24, MAX_LABEL - contextName.length - phrase.length - suffix.length - 2 - moreSuffix);
}

/** The pieces `describeConstraint` joins; every piece is single-line, and together they fit MAX_LABEL. */
export function constraintParts(c: Constraint): ConstraintParts {
  const contextName = c.contextName.trim() === '' ? l10n.t('(no context field)') : clean(c.contextName, MAX_CONTEXT_NAME);
  const table = (operators ??= operatorPhrases());
  const wording = Object.prototype.hasOwnProperty.call(table, c.operator) ? table[c.operator] : undefined;
  const inverted = c.inverted === true;
  if (wording === undefined) {
    const phrase = c.operator === '' ? l10n.t('(no operator)') : clean(c.operator, MAX_OPERATOR);
    const suffix = inverted ? ` ${l10n.t('(inverted)')}` : '';
    const budget = valueBudget(contextName, phrase, suffix);
    return { contextName, phrase, values: formatList(listValues(c), { budget }), suffix };
  }
  const suffix = wording.text === true && c.caseInsensitive === true ? ` ${l10n.t('(case-insensitive)')}` : '';
  if (wording.kind === 'list') {
    const values = listValues(c);
    const many = values.length > 1;
    const phrase = inverted
      ? (many ? wording.negativeMany : undefined) ?? wording.negative
      : (many ? wording.positiveMany : undefined) ?? wording.positive;
    const budget = valueBudget(contextName, phrase, suffix);
    return { contextName, phrase, values: values.length === 0 ? l10n.t('(no values)') : formatList(values, { budget }), suffix };
  }
  const phrase = inverted ? wording.negative : wording.positive;
  const value = singleValue(c);
  const budget = valueBudget(contextName, phrase, suffix);
  const shown = value === undefined ? l10n.t('(no value)') : wording.date === true ? showDate(value, budget) : showValue(value, budget);
  return { contextName, phrase, values: shown, suffix };
}

/**
 * One line such as `country is one of DE, FR`, `userId is not one of 1, 2`, `email does not end with @example.com
 * (case-insensitive)`, `appVersion is a SemVer greater than 2.1.0`, `currentTime is a date after 2025-01-01 00:00
 * UTC`. An unknown operator is shown as data: `tenant FOO_BAR 7` (plus ` (inverted)` when inverted). At most
 * MAX_LABEL characters; long value lists end with `… and N more`.
 */
export function describeConstraint(c: Constraint): string {
  const p = constraintParts(c);
  const text = p.values === '' ? `${p.contextName} ${p.phrase}` : `${p.contextName} ${p.phrase} ${p.values}`;
  return clean(text + p.suffix, MAX_LABEL);
}
