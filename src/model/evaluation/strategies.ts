/**
 * Strategies, compiled once per strategy object: the built-in ones with the SDKs' rules (unleash-client's strategy
 * files), their constraints and segments, and what the editor cannot know said as 'unknown' with a reason (a custom
 * strategy, the application's hostname, a draw at random), never silently false. Each has two paths that answer the
 * same: one that allocates nothing, for evaluating every flag, and one that explains.
 */
import { compileConstraint, type CompiledConstraint } from './constraints';
import type { ConstraintResult, Reason, SegmentResult, StrategyOutcome, StrategyResult, Tristate } from './explanation';
import { rolloutBucket } from './hashing';
import type { ConstraintModel, SegmentModel, StrategyModel } from './model';
import { parseAddress, type PreparedContext } from './preparedContext';

/** What a strategy's own rule answers before its constraints, and for a rollout what it computed. */
interface RuleOutcome {
  enabled: Tristate;
  reason?: Reason;
  rollout?: StrategyResult['rollout'];
}

/** A strategy's own rule: `test` allocates nothing; `explain` says how it got there. */
interface Rule {
  test(context: PreparedContext): Tristate;
  explain(context: PreparedContext): RuleOutcome;
}

const ON: RuleOutcome = { enabled: true };
const OFF: RuleOutcome = { enabled: false };

/** A rule whose answer does not depend on the context. */
const constant = (outcome: RuleOutcome): Rule => ({ test: () => outcome.enabled, explain: () => outcome });

const listOf = (text: string | undefined): string[] => (text ? text.split(/\s*,\s*/) : []);

/**
 * A rollout of `percentage`: `identifier` undefined when the SDKs draw one at random (then known only at 0 and 100
 * percent), empty when the field it sticks to is missing (off).
 */
function rolloutRule(stickiness: string, groupId: string, percentage: number, identifierOf: (context: PreparedContext) => string | undefined): Rule {
  const test = (context: PreparedContext): Tristate => {
    const identifier = identifierOf(context);
    if (identifier === undefined) return percentage >= 100 ? true : percentage > 0 ? 'unknown' : false;
    return identifier !== '' && percentage > 0 && rolloutBucket(identifier, groupId) <= percentage;
  };
  return {
    test,
    explain: (context) => {
      const identifier = identifierOf(context);
      const enabled = test(context);
      const bucket = identifier ? rolloutBucket(identifier, groupId) : undefined;
      const reason: Reason | undefined = enabled === 'unknown' ? 'byChance' : enabled ? undefined : identifier === '' ? 'noContextValue' : 'outsideRollout';
      const rollout = { stickiness, identifier: identifier || undefined, bucket, percentage };
      return reason ? { enabled, reason, rollout } : { enabled, rollout };
    },
  };
}

function gradualRollout(field: 'userId' | 'sessionId', parameters: ReadonlyMap<string, string>): Rule {
  return rolloutRule(field, parameters.get('groupId') || '', Number(parameters.get('percentage')), (context) => context.context[field] || '');
}

function flexibleRollout(parameters: ReadonlyMap<string, string>): Rule {
  const stickiness = parameters.get('stickiness') || 'default';
  const identifierOf =
    stickiness === 'default'
      ? (context: PreparedContext) => context.context.userId || context.context.sessionId || undefined
      : stickiness === 'random'
        ? () => undefined
        : (context: PreparedContext) => context.value(stickiness) || '';
  return rolloutRule(stickiness, parameters.get('groupId') || '', Number(parameters.get('rollout')), identifierOf);
}

/** A rule that reads one field and is off without it: `noContextValue` says so. */
function fieldRule(field: 'userId' | 'remoteAddress', test: (context: PreparedContext) => boolean): Rule {
  return {
    test,
    explain: (context) => (test(context) ? ON : context.context[field] === undefined ? { enabled: false, reason: 'noContextValue' } : OFF),
  };
}

function remoteAddress(parameters: ReadonlyMap<string, string>): Rule {
  const entries = listOf(parameters.get('IPs')).map((text) => {
    const parsed = parseAddress(text);
    return { text, range: parsed?.family === 4 ? parsed.address : undefined };
  });
  return fieldRule('remoteAddress', (context) => {
    const text = context.context.remoteAddress;
    const address = context.address('remoteAddress');
    const v4 = address?.family === 4 ? address.address : undefined;
    return entries.some((entry) => entry.text === text || (v4 !== undefined && entry.range !== undefined && v4.isInSubnet(entry.range)));
  });
}

function ruleOf(strategy: StrategyModel): Rule {
  const parameters = strategy.parameters;
  switch (strategy.name) {
    case 'default':
      return constant(ON);
    case 'userWithId': {
      const ids = new Set(listOf(parameters.get('userIds')));
      return fieldRule('userId', (context) => context.context.userId !== undefined && ids.has(context.context.userId));
    }
    case 'gradualRolloutUserId':
      return gradualRollout('userId', parameters);
    case 'gradualRolloutSessionId':
      return gradualRollout('sessionId', parameters);
    case 'gradualRolloutRandom': {
      const percentage = Number(parameters.get('percentage'));
      return constant(percentage >= 100 ? ON : percentage >= 1 ? { enabled: 'unknown', reason: 'byChance' } : OFF);
    }
    case 'flexibleRollout':
      return flexibleRollout(parameters);
    case 'remoteAddress':
      return remoteAddress(parameters);
    case 'applicationHostname':
      return constant(parameters.get('hostNames') ? { enabled: 'unknown', reason: 'hostnameUnknown' } : OFF);
    default:
      return constant({ enabled: 'unknown', reason: 'customStrategy' });
  }
}

/** A strategy ready to evaluate: its rule, and its constraints compiled as they are first needed. */
class CompiledStrategy {
  readonly rule: Rule;
  private readonly compiled: (CompiledConstraint | undefined)[];

  constructor(private readonly strategy: StrategyModel) {
    this.rule = ruleOf(strategy);
    this.compiled = new Array<CompiledConstraint | undefined>(strategy.constraints.length);
  }

  get size(): number {
    return this.compiled.length;
  }

  constraint(index: number): CompiledConstraint {
    return (this.compiled[index] ??= compileConstraint(this.strategy.constraints[index] as ConstraintModel));
  }
}

const compiled = new WeakMap<StrategyModel, CompiledStrategy>();

function compiledOf(strategy: StrategyModel): CompiledStrategy {
  let found = compiled.get(strategy);
  if (!found) compiled.set(strategy, (found = new CompiledStrategy(strategy)));
  return found;
}

const compiledSegments = new WeakMap<SegmentModel, readonly CompiledConstraint[]>();

function compiledSegment(constraints: readonly ConstraintModel[], segment: SegmentModel): readonly CompiledConstraint[] {
  let found = compiledSegments.get(segment);
  if (!found) compiledSegments.set(segment, (found = constraints.map(compileConstraint)));
  return found;
}

/** A segment's answer: its constraints all hold; unknown without its definition; false when it is not there. */
function segmentTest(segment: SegmentModel | undefined, context: PreparedContext): Tristate {
  if (!segment) return false;
  if (!segment.constraints) return 'unknown';
  const constraints = compiledSegment(segment.constraints, segment);
  for (let index = 0; index < constraints.length; index++) if (!(constraints[index] as CompiledConstraint).test(context)) return false;
  return true;
}

function explainSegment(id: number, segment: SegmentModel | undefined, context: PreparedContext): SegmentResult {
  if (!segment) return { id, name: undefined, result: false, constraints: [], reason: 'segmentNotFound' };
  if (!segment.constraints) return { id, name: segment.name, result: 'unknown', constraints: [], reason: 'segmentDefinitionMissing' };
  const constraints = compiledSegment(segment.constraints, segment).map((constraint) => constraint.explain(context));
  return { id, name: segment.name, result: constraints.every((constraint) => constraint.result), constraints };
}

/** Constraints and segments together: false wins, then unknown. */
function gateOf(constraints: readonly { result: boolean }[], segments: readonly { result: Tristate }[]): Tristate {
  if (constraints.some((constraint) => !constraint.result) || segments.some((segment) => segment.result === false)) return false;
  return segments.some((segment) => segment.result === 'unknown') ? 'unknown' : true;
}

/**
 * The strategy's answer for this context, allocating nothing: what evaluating every flag runs. A disabled strategy
 * is skipped ('skipped-disabled'), as the servers never send it to an SDK.
 */
export function strategyOutcome(strategy: StrategyModel, segments: ReadonlyMap<number, SegmentModel>, context: PreparedContext): StrategyOutcome {
  if (strategy.disabled) return 'skipped-disabled';
  const compiled = compiledOf(strategy);
  for (let index = 0; index < compiled.size; index++) if (!compiled.constraint(index).test(context)) return 'disabled';
  let gate: Tristate = true;
  for (let index = 0; index < strategy.segments.length; index++) {
    const result = segmentTest(segments.get(strategy.segments[index] as number), context);
    if (result === false) return 'disabled';
    if (result === 'unknown') gate = 'unknown';
  }
  const own = compiled.rule.test(context);
  return own === false ? 'disabled' : own === 'unknown' || gate === 'unknown' ? 'unknown' : 'enabled';
}

/**
 * The same answer explained: every constraint and segment with what it read (all of them, not only up to the first
 * that fails, so that each shows), and the rule's reason and rollout. Variants are chosen by evaluate.ts.
 */
export function explainStrategy(strategy: StrategyModel, index: number, segments: ReadonlyMap<number, SegmentModel>, context: PreparedContext): StrategyResult {
  const base = { index, name: strategy.name, title: strategy.title };
  if (strategy.disabled) return { ...base, outcome: 'skipped-disabled', reason: 'strategyDisabled', constraints: [], segments: [] };
  const compiled = compiledOf(strategy);
  const constraintResults: ConstraintResult[] = strategy.constraints.map((_, at) => compiled.constraint(at).explain(context));
  const segmentResults = strategy.segments.map((id) => explainSegment(id, segments.get(id), context));
  const gate = gateOf(constraintResults, segmentResults);
  const explained = { ...base, constraints: constraintResults, segments: segmentResults };
  if (gate === false) return { ...explained, outcome: 'disabled' };
  const own = compiled.rule.explain(context);
  const outcome: StrategyOutcome = own.enabled === false ? 'disabled' : own.enabled === 'unknown' || gate === 'unknown' ? 'unknown' : 'enabled';
  const reason = own.reason ?? (outcome === 'unknown' ? segmentResults.find((segment) => segment.result === 'unknown')?.reason : undefined);
  return { ...explained, outcome, ...(reason ? { reason } : {}), ...(own.rollout ? { rollout: own.rollout } : {}) };
}
