/**
 * Constraints, compiled once per constraint object into a check, with the SDKs' semantics (unleash-client's
 * operators): values trimmed and empty ones dropped; IN/NOT_IN exact; STR_* with `caseInsensitive`; NUM_*, DATE_*,
 * SEMVER_* and REGEX on `value`; IN_CIDR on `values`; `inverted` flips the answer; an unknown operator is never
 * satisfied, even inverted. REGEX runs on re2js, linear in its input: a pattern from a server or a committed file can
 * never stall the editor.
 */
import { RE2JS } from 're2js';
import parseVersion from 'semver/functions/parse';
import type { ConstraintModel } from './model';
import type { ConstraintResult, Reason } from './explanation';
import { parseAddress, type ParsedAddress, type PreparedContext } from './preparedContext';

export type ConstraintCheck = (context: PreparedContext) => ConstraintResult;

/** What an operator answers before `inverted` flips it. */
interface Outcome {
  matched: boolean;
  contextValue: string | undefined;
  reason?: Reason;
}

type Operator = (context: PreparedContext) => Outcome;

const cleanValues = (values: readonly string[]): string[] => values.filter((value) => value !== '').map((value) => value.trim());

/** What an operator other than IN answers for a field the context does not have. */
const MISSING: Outcome = { matched: false, contextValue: undefined, reason: 'noContextValue' };

function inOperator(constraint: ConstraintModel, negate: boolean): Operator {
  const values = new Set(cleanValues(constraint.values));
  return (context) => {
    const value = context.value(constraint.contextName);
    const isIn = value !== undefined && values.has(value);
    return { matched: negate ? !isIn : isIn, contextValue: value, reason: value === undefined ? 'noContextValue' : undefined };
  };
}

function stringOperator(constraint: ConstraintModel, test: (value: string, wanted: string) => boolean): Operator {
  const name = constraint.contextName;
  const values = cleanValues(constraint.values).map((value) => (constraint.caseInsensitive ? value.toLocaleLowerCase() : value));
  return (context) => {
    const raw = context.value(name);
    if (raw === undefined) return MISSING;
    const value = constraint.caseInsensitive ? (context.lowerValue(name) as string) : raw;
    return { matched: values.some((wanted) => test(value, wanted)), contextValue: raw };
  };
}

function numberOperator(constraint: ConstraintModel, test: (value: number, wanted: number) => boolean): Operator {
  const wanted = Number(constraint.value);
  return (context) => {
    const raw = context.value(constraint.contextName);
    if (Number.isNaN(wanted)) return { matched: false, contextValue: raw, reason: 'invalidValue' };
    if (raw === undefined) return MISSING;
    const value = Number(raw);
    if (Number.isNaN(value)) return { matched: false, contextValue: raw, reason: 'invalidContextValue' };
    return { matched: test(value, wanted), contextValue: raw };
  };
}

function dateOperator(constraint: ConstraintModel, after: boolean): Operator {
  const wanted = constraint.value === undefined ? Number.NaN : new Date(constraint.value).getTime();
  return (context) => {
    const time = context.timeMs;
    const shown = Number.isNaN(time) ? context.context.currentTime : new Date(time).toISOString();
    if (Number.isNaN(wanted)) return { matched: false, contextValue: shown, reason: 'invalidValue' };
    if (Number.isNaN(time)) return { matched: false, contextValue: shown, reason: 'invalidContextValue' };
    return { matched: after ? time > wanted : time < wanted, contextValue: shown };
  };
}

function semverOperator(constraint: ConstraintModel, test: (order: number) => boolean): Operator {
  const wanted = constraint.value === undefined ? null : parseVersion(constraint.value);
  return (context) => {
    const raw = context.value(constraint.contextName);
    if (!raw) return MISSING;
    const version = context.version(constraint.contextName);
    if (!version) return { matched: false, contextValue: raw, reason: 'invalidContextValue' };
    if (!wanted) return { matched: false, contextValue: raw, reason: 'invalidValue' };
    return { matched: test(version.compare(wanted)), contextValue: raw };
  };
}

function regexOperator(constraint: ConstraintModel): Operator {
  let pattern: RE2JS | undefined;
  try {
    pattern = constraint.value === undefined ? undefined : RE2JS.compile(constraint.value, constraint.caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
  } catch {
    pattern = undefined;
  }
  return (context) => {
    const raw = context.value(constraint.contextName);
    if (raw === undefined) return MISSING;
    if (!pattern) return { matched: false, contextValue: raw, reason: 'invalidValue' };
    return { matched: pattern.matcher(raw).find(), contextValue: raw };
  };
}

/** Whether `address` is `range` itself or inside it (the SDKs' rule: the same form, or in the subnet). */
function inRange(address: ParsedAddress, range: ParsedAddress): boolean {
  if (address.family === 4 && range.family === 4) return address.form === range.form || address.address.isInSubnet(range.address);
  if (address.family === 6 && range.family === 6) return address.form === range.form || address.address.isInSubnet(range.address);
  return false;
}

function cidrOperator(constraint: ConstraintModel): Operator {
  const ranges = cleanValues(constraint.values).flatMap((value) => parseAddress(value) ?? []);
  return (context) => {
    const raw = context.value(constraint.contextName);
    if (raw === undefined) return MISSING;
    const address = context.address(constraint.contextName);
    if (!address) return { matched: false, contextValue: raw, reason: 'invalidContextValue' };
    return { matched: ranges.some((range) => inRange(address, range)), contextValue: raw };
  };
}

function operatorOf(constraint: ConstraintModel): Operator | undefined {
  switch (constraint.operator) {
    case 'IN':
      return inOperator(constraint, false);
    case 'NOT_IN':
      return inOperator(constraint, true);
    case 'STR_CONTAINS':
      return stringOperator(constraint, (value, wanted) => value.includes(wanted));
    case 'STR_STARTS_WITH':
      return stringOperator(constraint, (value, wanted) => value.startsWith(wanted));
    case 'STR_ENDS_WITH':
      return stringOperator(constraint, (value, wanted) => value.endsWith(wanted));
    case 'NUM_EQ':
      return numberOperator(constraint, (value, wanted) => value === wanted);
    case 'NUM_GT':
      return numberOperator(constraint, (value, wanted) => value > wanted);
    case 'NUM_GTE':
      return numberOperator(constraint, (value, wanted) => value >= wanted);
    case 'NUM_LT':
      return numberOperator(constraint, (value, wanted) => value < wanted);
    case 'NUM_LTE':
      return numberOperator(constraint, (value, wanted) => value <= wanted);
    case 'DATE_AFTER':
      return dateOperator(constraint, true);
    case 'DATE_BEFORE':
      return dateOperator(constraint, false);
    case 'SEMVER_EQ':
      return semverOperator(constraint, (order) => order === 0);
    case 'SEMVER_GT':
      return semverOperator(constraint, (order) => order > 0);
    case 'SEMVER_GTE':
      return semverOperator(constraint, (order) => order >= 0);
    case 'SEMVER_LT':
      return semverOperator(constraint, (order) => order < 0);
    case 'SEMVER_LTE':
      return semverOperator(constraint, (order) => order <= 0);
    case 'REGEX':
      return regexOperator(constraint);
    case 'IN_CIDR':
      return cidrOperator(constraint);
    default:
      return undefined;
  }
}

const compiled = new WeakMap<ConstraintModel, ConstraintCheck>();

/** The check of a constraint, compiled on first use and kept as long as the constraint object lives. */
export function constraintCheck(constraint: ConstraintModel): ConstraintCheck {
  let check = compiled.get(constraint);
  if (!check) {
    const operator = operatorOf(constraint);
    check = operator
      ? (context) => {
          const outcome = operator(context);
          const result = constraint.inverted ? !outcome.matched : outcome.matched;
          return outcome.reason === undefined
            ? { constraint, contextValue: outcome.contextValue, result }
            : { constraint, contextValue: outcome.contextValue, result, reason: outcome.reason };
        }
      : (context) => ({ constraint, contextValue: context.value(constraint.contextName), result: false, reason: 'unknownOperator' });
    compiled.set(constraint, check);
  }
  return check;
}
