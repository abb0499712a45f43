/**
 * Strategies, compiled once per strategy object: the built-in ones with the SDKs' rules (unleash-client's strategy
 * files), their constraints and segments, and what the editor cannot know said as 'unknown' with a reason (a custom
 * strategy, the application's hostname, a draw at random), never silently false. Every constraint and segment is
 * evaluated, not only up to the first that fails, so the explanation shows each; the answer is the same.
 */
import { constraintCheck, type ConstraintCheck } from './constraints';
import type { ConstraintResult, Reason, SegmentResult, StrategyResult, Tristate } from './explanation';
import { rolloutBucket } from './hashing';
import type { SegmentModel, StrategyModel } from './model';
import { parseAddress, type PreparedContext } from './preparedContext';

/** What a strategy's own rule answers, before its constraints. */
interface RuleOutcome {
  enabled: Tristate;
  reason?: Reason;
  rollout?: StrategyResult['rollout'];
}

type Rule = (context: PreparedContext) => RuleOutcome;

const ON: RuleOutcome = { enabled: true };
const OFF: RuleOutcome = { enabled: false };

const listOf = (text: string | undefined): string[] => (text ? text.split(/\s*,\s*/) : []);

/** A rollout of `percentage` for `identifier` (undefined: drawn at random by the SDKs; '': none, so off). */
function rollout(stickiness: string, identifier: string | undefined, groupId: string, percentage: number): RuleOutcome {
  if (identifier === undefined) {
    const enabled: Tristate = percentage >= 100 ? true : percentage > 0 ? 'unknown' : false;
    return { enabled, reason: enabled === 'unknown' ? 'byChance' : undefined, rollout: { stickiness, identifier, bucket: undefined, percentage } };
  }
  if (!identifier) return { enabled: false, reason: 'noContextValue', rollout: { stickiness, identifier: undefined, bucket: undefined, percentage } };
  const bucket = rolloutBucket(identifier, groupId);
  const enabled = percentage > 0 && bucket <= percentage;
  return { enabled, reason: enabled ? undefined : 'outsideRollout', rollout: { stickiness, identifier, bucket, percentage } };
}

function gradualRollout(field: 'userId' | 'sessionId', parameters: ReadonlyMap<string, string>): Rule {
  const percentage = Number(parameters.get('percentage'));
  const groupId = parameters.get('groupId') || '';
  return (context) => rollout(field, context.context[field] ?? '', groupId, percentage);
}

function flexibleRollout(parameters: ReadonlyMap<string, string>): Rule {
  const percentage = Number(parameters.get('rollout'));
  const groupId = parameters.get('groupId') || '';
  const stickiness = parameters.get('stickiness') || 'default';
  return (context) => {
    switch (stickiness) {
      case 'default':
        return rollout(stickiness, context.context.userId || context.context.sessionId || undefined, groupId, percentage);
      case 'random':
        return rollout(stickiness, undefined, groupId, percentage);
      default:
        return rollout(stickiness, context.value(stickiness) ?? '', groupId, percentage);
    }
  };
}

function remoteAddress(parameters: ReadonlyMap<string, string>): Rule {
  const entries = listOf(parameters.get('IPs')).map((text) => {
    const parsed = parseAddress(text);
    return { text, range: parsed?.family === 4 ? parsed.address : undefined };
  });
  return (context) => {
    const text = context.context.remoteAddress;
    const address = context.address('remoteAddress');
    const v4 = address?.family === 4 ? address.address : undefined;
    const found = entries.some((entry) => entry.text === text || (v4 !== undefined && entry.range !== undefined && v4.isInSubnet(entry.range)));
    return found ? ON : text === undefined ? { enabled: false, reason: 'noContextValue' } : OFF;
  };
}

function ruleOf(strategy: StrategyModel): Rule {
  const parameters = strategy.parameters;
  switch (strategy.name) {
    case 'default':
      return () => ON;
    case 'userWithId': {
      const ids = new Set(listOf(parameters.get('userIds')));
      return (context) => {
        const id = context.context.userId;
        return id !== undefined && ids.has(id) ? ON : id === undefined ? { enabled: false, reason: 'noContextValue' } : OFF;
      };
    }
    case 'gradualRolloutUserId':
      return gradualRollout('userId', parameters);
    case 'gradualRolloutSessionId':
      return gradualRollout('sessionId', parameters);
    case 'gradualRolloutRandom': {
      const percentage = Number(parameters.get('percentage'));
      const outcome: RuleOutcome = percentage >= 100 ? ON : percentage >= 1 ? { enabled: 'unknown', reason: 'byChance' } : OFF;
      return () => outcome;
    }
    case 'flexibleRollout':
      return flexibleRollout(parameters);
    case 'remoteAddress':
      return remoteAddress(parameters);
    case 'applicationHostname': {
      const outcome: RuleOutcome = parameters.get('hostNames') ? { enabled: 'unknown', reason: 'hostnameUnknown' } : OFF;
      return () => outcome;
    }
    default: {
      const outcome: RuleOutcome = { enabled: 'unknown', reason: 'customStrategy' };
      return () => outcome;
    }
  }
}

/** A strategy ready to evaluate: its rule and its constraints' checks. */
interface CompiledStrategy {
  readonly rule: Rule;
  readonly checks: readonly ConstraintCheck[];
}

const compiled = new WeakMap<StrategyModel, CompiledStrategy>();

function compile(strategy: StrategyModel): CompiledStrategy {
  let found = compiled.get(strategy);
  if (!found) {
    found = { rule: ruleOf(strategy), checks: strategy.constraints.map(constraintCheck) };
    compiled.set(strategy, found);
  }
  return found;
}

function evaluateSegment(id: number, segment: SegmentModel | undefined, context: PreparedContext): SegmentResult {
  if (!segment) return { id, name: undefined, result: false, constraints: [], reason: 'segmentNotFound' };
  if (!segment.constraints) return { id, name: segment.name, result: 'unknown', constraints: [], reason: 'segmentDefinitionMissing' };
  const constraints = segment.constraints.map((constraint) => constraintCheck(constraint)(context));
  return { id, name: segment.name, result: constraints.every((constraint) => constraint.result), constraints };
}

const NO_SEGMENTS: readonly SegmentResult[] = [];

/**
 * The strategy's outcome for this context, without its variants (evaluate.ts chooses those for the strategy that
 * decides). A disabled strategy is skipped, as the servers never send it to an SDK.
 */
export function evaluateStrategy(strategy: StrategyModel, index: number, segments: ReadonlyMap<number, SegmentModel>, context: PreparedContext): StrategyResult {
  const base = { index, name: strategy.name, title: strategy.title };
  if (strategy.disabled) return { ...base, outcome: 'skipped-disabled', reason: 'strategyDisabled', constraints: [], segments: NO_SEGMENTS };
  const { rule, checks } = compile(strategy);
  const constraints: ConstraintResult[] = checks.map((check) => check(context));
  const segmentResults = strategy.segments.length ? strategy.segments.map((id) => evaluateSegment(id, segments.get(id), context)) : NO_SEGMENTS;
  let gate: Tristate = constraints.every((constraint) => constraint.result);
  for (const segment of segmentResults) {
    if (segment.result === false) gate = false;
    else if (segment.result === 'unknown' && gate === true) gate = 'unknown';
  }
  if (gate === false) return { ...base, outcome: 'disabled', constraints, segments: segmentResults };
  const own = rule(context);
  const enabled: Tristate = own.enabled === false ? false : gate === 'unknown' || own.enabled === 'unknown' ? 'unknown' : true;
  const reason = own.reason ?? (enabled === 'unknown' ? segmentResults.find((segment) => segment.result === 'unknown')?.reason : undefined);
  const result: StrategyResult = {
    ...base,
    outcome: enabled === true ? 'enabled' : enabled === false ? 'disabled' : 'unknown',
    constraints,
    segments: segmentResults,
  };
  return { ...result, ...(reason ? { reason } : {}), ...(own.rollout ? { rollout: own.rollout } : {}) };
}
