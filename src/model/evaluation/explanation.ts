/**
 * The answer, explained: what the engine found for one flag in one environment and why, as plain data. Reasons are
 * codes, never sentences: the surfaces word them (through l10n) and decide how much to show.
 */
import type { ConstraintModel } from './model';

/** On, off, or not knowable in an editor (a custom strategy, a hostname, chance, a segment's missing definition). */
export type Tristate = boolean | 'unknown';

/** Why a constraint, strategy, segment or dependency answered what it did, when its values alone do not say it. */
export type Reason =
  /** The constraint's operator is not one the SDKs know: they treat it as not satisfied. */
  | 'unknownOperator'
  /** The operator needs a value (NUM_*, DATE_*, SEMVER_*, REGEX) that is missing or does not parse. */
  | 'invalidValue'
  /** The context has no value for the field. */
  | 'noContextValue'
  /** A SEMVER_* context value that is not a version (or starts with `v`), a NUM_* one that is not a number. */
  | 'invalidContextValue'
  /** A strategy the editor cannot evaluate: a custom one (its code lives in the application). */
  | 'customStrategy'
  /** applicationHostname: the application's host is not known to the editor. */
  | 'hostnameUnknown'
  /** The outcome is drawn at random per evaluation (random stickiness, no id to stick to). */
  | 'byChance'
  /** The identifier's bucket is outside the rollout percentage. */
  | 'outsideRollout'
  /** The strategy is disabled: skipped. */
  | 'strategyDisabled'
  /** The segment is named without its definition (an export without its `.segments` file). */
  | 'segmentDefinitionMissing'
  /** The segment is not in the source at all: the SDKs treat it as not satisfied. */
  | 'segmentNotFound'
  /** The flag is off in this environment. */
  | 'environmentOff'
  /** The flag is not in this environment (or not in the source): the SDKs answer false. */
  | 'notInEnvironment'
  /** On with no strategy (the SDKs' rule; also when every strategy is disabled, since servers send none of those). */
  | 'noStrategies'
  /** No strategy matched. */
  | 'noStrategyMatched'
  /** A parent dependency is not satisfied. */
  | 'dependencyNotSatisfied'
  /** The parent is not in the source: the SDKs treat the dependency as not satisfied. */
  | 'parentNotFound'
  /** The parent has parents of its own: the SDKs evaluate one level only and treat it as not satisfied. */
  | 'parentHasParents';

export interface ConstraintResult {
  /** The constraint as the source holds it: its field, operator, values or value, inverted, caseInsensitive. */
  readonly constraint: ConstraintModel;
  /** The context value it tested (for DATE_*: the time used, ISO 8601). */
  readonly contextValue: string | undefined;
  readonly result: boolean;
  readonly reason?: Reason;
}

export interface SegmentResult {
  readonly id: number;
  readonly name: string | undefined;
  readonly result: Tristate;
  readonly constraints: readonly ConstraintResult[];
  readonly reason?: Reason;
}

export interface VariantAnswer {
  readonly name: string;
  readonly enabled: boolean;
  readonly payload: { readonly type: string; readonly value: string } | undefined;
  /** Where it came from: the deciding strategy's variants, the flag's (by weight, or an override), or none. */
  readonly source: 'strategy' | 'flag' | 'override' | 'none';
}

/** What the SDKs answer when no variant applies. */
export const DISABLED_VARIANT: VariantAnswer = { name: 'disabled', enabled: false, payload: undefined, source: 'none' };

export type StrategyOutcome = 'enabled' | 'disabled' | 'skipped-disabled' | 'unknown';

export interface StrategyResult {
  readonly index: number;
  readonly name: string;
  readonly title: string | undefined;
  readonly outcome: StrategyOutcome;
  readonly reason?: Reason;
  /** Only constraints that were evaluated: they stop at the first that fails, as in the SDKs. */
  readonly constraints: readonly ConstraintResult[];
  readonly segments: readonly SegmentResult[];
  /** For a rollout: the identifier's bucket (1 to 100) and the percentage. */
  readonly rollout?: { readonly stickiness: string; readonly identifier: string | undefined; readonly bucket: number | undefined; readonly percentage: number };
  /** When it decided and has variants: the one chosen ('unknown' when chosen by chance). */
  readonly variant?: VariantAnswer | 'unknown';
}

export interface DependencyResult {
  readonly feature: string;
  /** What the child requires of the parent. */
  readonly requires: { readonly enabled: boolean; readonly variants: readonly string[] };
  readonly parentEnabled: Tristate | undefined;
  readonly parentVariant: string | 'unknown' | undefined;
  readonly result: Tristate;
  readonly reason?: Reason;
}

/**
 * A flag's answer in one environment, without the explanation: what evaluating every flag gives (a status strip).
 * The common answers are shared objects, so evaluating a catalog allocates little.
 */
export interface FlagState {
  readonly enabled: Tristate;
  readonly reason?: Reason;
  /** The index of the strategy that turned it on (the first that answered enabled). */
  readonly decidedBy?: number;
  /** The variant the SDKs' getVariant answers; 'unknown' when it depends on what the editor cannot know. */
  readonly variant: VariantAnswer | 'unknown';
}

/** The answer explained: each strategy (with the deciding one's variant), constraint, segment and parent. */
export interface FlagEvaluation extends FlagState {
  readonly flag: string;
  readonly environment: string;
  readonly strategies: readonly StrategyResult[];
  readonly dependencies: readonly DependencyResult[];
}
