/**
 * Constraints, compiled into a check with the SDKs' semantics (unleash-client's operators): values trimmed and empty
 * ones dropped; IN/NOT_IN exact; STR_* with `caseInsensitive`; NUM_*, DATE_*, SEMVER_* and REGEX on `value`; IN_CIDR
 * on `values`; `inverted` flips the answer; an unknown operator is never satisfied, even inverted. What can be is
 * parsed once (the value set, the number, the date, the version, the ranges, the pattern). REGEX runs on re2js,
 * linear in its input: a pattern from a server or a committed file can never stall the editor.
 */
import { RE2JS } from 're2js';
import parseVersion from 'semver/functions/parse';
import type SemVer from 'semver/classes/semver';
import type { ConstraintModel } from './model';
import type { ConstraintResult, Reason } from './explanation';
import { parseAddress, type ParsedAddress, type PreparedContext } from './preparedContext';

/**
 * A constraint compiled: `test` answers (with `inverted` applied) and allocates nothing, for evaluating many flags;
 * `explain` adds the context value it read and why, for the one flag a user asks about.
 */
export interface CompiledConstraint {
  test(context: PreparedContext): boolean;
  explain(context: PreparedContext): ConstraintResult;
}

const cleanValues = (values: readonly string[]): string[] => values.filter((value) => value !== '').map((value) => value.trim());

/** An operator: whether it matches (before `inverted`), and why when its values alone do not say it. */
abstract class Operator implements CompiledConstraint {
  protected readonly name: string;

  constructor(readonly constraint: ConstraintModel) {
    this.name = constraint.contextName;
  }

  abstract matches(context: PreparedContext): boolean;

  /** The operators of one field: without it, that is why. */
  reason(context: PreparedContext): Reason | undefined {
    return context.value(this.name) === undefined ? 'noContextValue' : undefined;
  }

  /** The value shown as read: the context's field (DATE_* show the time they compared). */
  shown(context: PreparedContext): string | undefined {
    return context.value(this.name);
  }

  test(context: PreparedContext): boolean {
    return this.constraint.inverted ? !this.matches(context) : this.matches(context);
  }

  explain(context: PreparedContext): ConstraintResult {
    const reason = this.reason(context);
    const result = { constraint: this.constraint, contextValue: this.shown(context), result: this.test(context) };
    return reason === undefined ? result : { ...result, reason };
  }
}

class InOperator extends Operator {
  private readonly values: ReadonlySet<string>;

  constructor(constraint: ConstraintModel, private readonly negate: boolean) {
    super(constraint);
    this.values = new Set(cleanValues(constraint.values));
  }

  matches(context: PreparedContext): boolean {
    const value = context.value(this.name);
    const isIn = value !== undefined && this.values.has(value);
    return this.negate ? !isIn : isIn;
  }
}

type StringTest = 'contains' | 'startsWith' | 'endsWith';

class StringOperator extends Operator {
  private readonly values: readonly string[];

  constructor(constraint: ConstraintModel, private readonly kind: StringTest) {
    super(constraint);
    this.values = cleanValues(constraint.values).map((value) => (constraint.caseInsensitive ? value.toLocaleLowerCase() : value));
  }

  matches(context: PreparedContext): boolean {
    const value = this.constraint.caseInsensitive ? context.lowerValue(this.name) : context.value(this.name);
    if (value === undefined) return false;
    for (let i = 0; i < this.values.length; i++) {
      const wanted = this.values[i] as string;
      if (this.kind === 'contains' ? value.includes(wanted) : this.kind === 'startsWith' ? value.startsWith(wanted) : value.endsWith(wanted)) return true;
    }
    return false;
  }
}

type Comparison = 'eq' | 'gt' | 'gte' | 'lt' | 'lte';

/** Whether `order` (negative, zero, positive) is what the comparison asks for. */
function compared(order: number, comparison: Comparison): boolean {
  switch (comparison) {
    case 'eq':
      return order === 0;
    case 'gt':
      return order > 0;
    case 'gte':
      return order >= 0;
    case 'lt':
      return order < 0;
    case 'lte':
      return order <= 0;
  }
}

class NumberOperator extends Operator {
  private readonly wanted: number;

  constructor(constraint: ConstraintModel, private readonly comparison: Comparison) {
    super(constraint);
    this.wanted = Number(constraint.value);
  }

  matches(context: PreparedContext): boolean {
    const value = Number(context.value(this.name));
    const wanted = this.wanted;
    return !Number.isNaN(wanted) && !Number.isNaN(value) && compared(value === wanted ? 0 : value > wanted ? 1 : -1, this.comparison);
  }

  override reason(context: PreparedContext): Reason | undefined {
    const raw = context.value(this.name);
    return Number.isNaN(this.wanted) ? 'invalidValue' : raw === undefined ? 'noContextValue' : Number.isNaN(Number(raw)) ? 'invalidContextValue' : undefined;
  }
}

class DateOperator extends Operator {
  private readonly wanted: number;

  constructor(constraint: ConstraintModel, private readonly after: boolean) {
    super(constraint);
    this.wanted = constraint.value === undefined ? Number.NaN : new Date(constraint.value).getTime();
  }

  matches(context: PreparedContext): boolean {
    return this.after ? context.timeMs > this.wanted : context.timeMs < this.wanted;
  }

  override reason(context: PreparedContext): Reason | undefined {
    return Number.isNaN(this.wanted) ? 'invalidValue' : Number.isNaN(context.timeMs) ? 'invalidContextValue' : undefined;
  }

  override shown(context: PreparedContext): string | undefined {
    return Number.isNaN(context.timeMs) ? context.context.currentTime : new Date(context.timeMs).toISOString();
  }
}

class SemverOperator extends Operator {
  private readonly wanted: SemVer | null;

  constructor(constraint: ConstraintModel, private readonly comparison: Comparison) {
    super(constraint);
    this.wanted = constraint.value === undefined ? null : parseVersion(constraint.value);
  }

  matches(context: PreparedContext): boolean {
    const version = this.wanted ? context.version(this.name) : null;
    return version !== null && this.wanted !== null && compared(version.compare(this.wanted), this.comparison);
  }

  override reason(context: PreparedContext): Reason | undefined {
    return !context.value(this.name) ? 'noContextValue' : !context.version(this.name) ? 'invalidContextValue' : !this.wanted ? 'invalidValue' : undefined;
  }
}

/** Regular expressions compiled once per pattern and flags, whatever the number of constraints that share one. */
const patterns = new Map<string, RE2JS | null>();
/** Past this many patterns the cache starts again (a catalog holds a few; a hostile one cannot fill memory). */
const MAX_PATTERNS = 1_000;

function compiledPattern(pattern: string, caseInsensitive: boolean): RE2JS | null {
  const key = `${caseInsensitive ? 'i' : '-'}${pattern}`;
  let compiled = patterns.get(key);
  if (compiled === undefined) {
    try {
      compiled = RE2JS.compile(pattern, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
    } catch {
      compiled = null;
    }
    if (patterns.size >= MAX_PATTERNS) patterns.clear();
    patterns.set(key, compiled);
  }
  return compiled;
}

class RegexOperator extends Operator {
  private readonly pattern: RE2JS | null;

  constructor(constraint: ConstraintModel) {
    super(constraint);
    this.pattern = constraint.value === undefined ? null : compiledPattern(constraint.value, constraint.caseInsensitive);
  }

  matches(context: PreparedContext): boolean {
    return this.pattern !== null && context.found(this.pattern, this.name);
  }

  override reason(context: PreparedContext): Reason | undefined {
    return super.reason(context) ?? (this.pattern === null ? 'invalidValue' : undefined);
  }
}

/** Whether `address` is `range` itself or inside it (the SDKs' rule: the same form, or in the subnet). */
function inRange(address: ParsedAddress, range: ParsedAddress): boolean {
  if (address.family === 4 && range.family === 4) return address.form === range.form || address.address.isInSubnet(range.address);
  if (address.family === 6 && range.family === 6) return address.form === range.form || address.address.isInSubnet(range.address);
  return false;
}

class CidrOperator extends Operator {
  private readonly ranges: readonly ParsedAddress[];

  constructor(constraint: ConstraintModel) {
    super(constraint);
    this.ranges = cleanValues(constraint.values).flatMap((value) => parseAddress(value) ?? []);
  }

  matches(context: PreparedContext): boolean {
    const address = context.address(this.name);
    return address !== null && this.ranges.some((range) => inRange(address, range));
  }

  override reason(context: PreparedContext): Reason | undefined {
    return super.reason(context) ?? (context.address(this.name) === null ? 'invalidContextValue' : undefined);
  }
}

/** An operator the SDKs do not know: never satisfied, even inverted. */
class UnknownOperator extends Operator {
  matches(): boolean {
    return false;
  }

  override test(): boolean {
    return false;
  }

  override reason(): Reason {
    return 'unknownOperator';
  }
}

const COMPARISONS: Record<string, Comparison> = { EQ: 'eq', GT: 'gt', GTE: 'gte', LT: 'lt', LTE: 'lte' };
const STRING_TESTS: Record<string, StringTest> = { STR_CONTAINS: 'contains', STR_STARTS_WITH: 'startsWith', STR_ENDS_WITH: 'endsWith' };

/** The constraint compiled (each compiled object belongs to the strategy or segment that holds the constraint). */
export function compileConstraint(constraint: ConstraintModel): CompiledConstraint {
  const operator = constraint.operator;
  const family = operator.slice(0, operator.indexOf('_'));
  const suffix = operator.slice(operator.indexOf('_') + 1);
  const comparison = Object.hasOwn(COMPARISONS, suffix) ? COMPARISONS[suffix] : undefined;
  if (operator === 'IN' || operator === 'NOT_IN') return new InOperator(constraint, operator === 'NOT_IN');
  if (Object.hasOwn(STRING_TESTS, operator)) return new StringOperator(constraint, STRING_TESTS[operator] as StringTest);
  if (family === 'NUM' && comparison) return new NumberOperator(constraint, comparison);
  if (family === 'SEMVER' && comparison) return new SemverOperator(constraint, comparison);
  if (operator === 'DATE_AFTER' || operator === 'DATE_BEFORE') return new DateOperator(constraint, operator === 'DATE_AFTER');
  if (operator === 'REGEX') return new RegexOperator(constraint);
  if (operator === 'IN_CIDR') return new CidrOperator(constraint);
  return new UnknownOperator(constraint);
}
