/**
 * The engine: whether a flag is on for a context in an environment, which variant it gets, and why, with the rules of
 * Unleash's SDKs (unleash-client, checked against the client specification in test/unit/clientSpecification.test.ts).
 * One evaluator serves one context: it prepares the context once per environment and keeps every answer, so a parent
 * of many flags is evaluated once. docs/evaluation.md says what it cannot know and why.
 */
import type { EvaluationContext } from './context';
import { DISABLED_VARIANT, type DependencyResult, type FlagEvaluation, type FlagState, type Tristate, type VariantAnswer } from './explanation';
import type { EvaluationModel, FlagEnvironmentModel, FlagModel, ParentRequirement, StrategyModel } from './model';
import { PreparedContext } from './preparedContext';
import { explainStrategy, strategyOutcome } from './strategies';
import { chooseVariant, type VariantChoice } from './variants';

interface EvaluatorOptions {
  /** The time of a context without currentTime (DATE_* constraints); the clock by default. */
  now?: number;
  /**
   * Whether a context without `environment` takes the name of the environment evaluated, as Unleash's playground
   * does (default true). The client specification's states have no environments: its test turns it off.
   */
  environmentFromEvaluation?: boolean;
}

/** Both must hold: false wins, then unknown. */
const both = (a: Tristate, b: Tristate): Tristate => (a === false || b === false ? false : a === 'unknown' || b === 'unknown' ? 'unknown' : true);

const not = (a: Tristate): Tristate => (a === 'unknown' ? a : !a);

function answerOf(choice: VariantChoice, source: 'strategy' | 'flag'): VariantAnswer {
  return { name: choice.variant.name, enabled: true, payload: choice.variant.payload, source: choice.byOverride ? 'override' : source };
}

/** The answers that carry nothing of their own, shared by every flag that gets them. */
const OFF_IN: Record<'notInEnvironment' | 'environmentOff' | 'dependencyNotSatisfied' | 'noStrategyMatched', FlagState> = {
  notInEnvironment: { enabled: false, reason: 'notInEnvironment', variant: DISABLED_VARIANT },
  environmentOff: { enabled: false, reason: 'environmentOff', variant: DISABLED_VARIANT },
  dependencyNotSatisfied: { enabled: false, reason: 'dependencyNotSatisfied', variant: DISABLED_VARIANT },
  noStrategyMatched: { enabled: false, reason: 'noStrategyMatched', variant: DISABLED_VARIANT },
};
const UNKNOWN: FlagState = { enabled: 'unknown', variant: 'unknown' };
/** On by strategy i with no variant, for the first strategies (past them one is made each time). */
const ON_BY: readonly FlagState[] = Array.from({ length: 16 }, (_, index) => ({ enabled: true, decidedBy: index, variant: DISABLED_VARIANT }));

export class FlagEvaluator {
  private readonly contexts = new Map<string, PreparedContext>();
  private readonly states = new Map<string, Map<string, FlagState>>();
  private readonly now: number;

  constructor(
    private readonly model: EvaluationModel,
    private readonly context: EvaluationContext,
    private readonly options: EvaluatorOptions = {},
  ) {
    this.now = options.now ?? Date.now();
  }

  /** Every flag of the model in every environment that holds it, by environment and name, unexplained. */
  evaluateAll(): ReadonlyMap<string, ReadonlyMap<string, FlagState>> {
    for (const environment of this.model.environments) {
      for (const flag of this.model.flags.values()) if (flag.environments.has(environment)) this.evaluate(flag.name, environment);
    }
    return this.states;
  }

  /** The flag's answer in the environment, kept for the evaluator's life (a parent of many flags is evaluated once). */
  evaluate(name: string, environment: string): FlagState {
    let states = this.states.get(environment);
    if (!states) this.states.set(environment, (states = new Map()));
    let state = states.get(name);
    if (!state) {
      state = this.evaluateOnce(name, environment);
      states.set(name, state);
    }
    return state;
  }

  /** The same answer, explained: each strategy, constraint, segment and parent with what it read. */
  explain(name: string, environment: string): FlagEvaluation {
    const state = this.evaluate(name, environment);
    const answer = { flag: name, environment, ...state };
    const flag = this.model.flags.get(name);
    const config = flag?.environments.get(environment);
    if (!flag || !config || state.reason === 'notInEnvironment' || state.reason === 'environmentOff') return { ...answer, strategies: [], dependencies: [] };
    const dependencies = flag.dependencies.map((requirement) => this.dependency(requirement, environment));
    if (state.reason === 'dependencyNotSatisfied') return { ...answer, strategies: [], dependencies };
    const context = this.prepared(environment);
    const strategies = config.strategies.map((strategy, index) => {
      const explained = explainStrategy(strategy, index, this.model.segments, context);
      const variant = index === state.decidedBy && strategy.variants.length ? this.strategyVariant(strategy, context) : null;
      return variant === null ? explained : { ...explained, variant };
    });
    const unknown = state.enabled === 'unknown' && !state.reason ? strategies.find((strategy) => strategy.outcome === 'unknown')?.reason : undefined;
    return { ...answer, ...(unknown ? { reason: unknown } : {}), strategies, dependencies };
  }

  private prepared(environment: string): PreparedContext {
    let prepared = this.contexts.get(environment);
    if (!prepared) {
      const context = this.context.environment === undefined && this.options.environmentFromEvaluation !== false ? { ...this.context, environment } : this.context;
      prepared = new PreparedContext(context, this.now);
      this.contexts.set(environment, prepared);
    }
    return prepared;
  }

  private evaluateOnce(name: string, environment: string): FlagState {
    const flag = this.model.flags.get(name);
    const config = flag?.environments.get(environment);
    if (!flag || !config) return OFF_IN.notInEnvironment;
    if (!config.enabled) return OFF_IN.environmentOff;
    let parents: Tristate = true;
    for (const requirement of flag.dependencies) parents = both(parents, this.dependencyResult(requirement, environment));
    if (parents === false) return OFF_IN.dependencyNotSatisfied;
    return this.byStrategies(flag, config, environment, parents);
  }

  private byStrategies(flag: FlagModel, config: FlagEnvironmentModel, environment: string, parents: Tristate): FlagState {
    const context = this.prepared(environment);
    const strategies = config.strategies;
    const segments = this.model.segments;
    let decider = -1;
    let active = 0;
    let unknownBefore = false;
    let unknownBeforeHasVariants = false;
    for (let index = 0; index < strategies.length && decider < 0; index++) {
      const strategy = strategies[index] as StrategyModel;
      const outcome = strategyOutcome(strategy, segments, context);
      if (outcome !== 'skipped-disabled') active++;
      if (outcome === 'enabled') decider = index;
      else if (outcome === 'unknown') {
        unknownBefore = true;
        if (strategy.variants.length) unknownBeforeHasVariants = true;
      }
    }
    if (decider < 0) {
      if (active === 0) {
        // Servers send an SDK only the strategies that are not disabled: none left means on.
        const variant = this.variantOf(parents, config, flag, undefined, false, context);
        return { enabled: parents, reason: 'noStrategies', variant };
      }
      return unknownBefore ? UNKNOWN : OFF_IN.noStrategyMatched;
    }
    const model = strategies[decider] as StrategyModel;
    // Another strategy that might have decided instead (an earlier unknown one; with the order not known, any other
    // that is on or unknown) changes the variant when either of them has variants.
    let rivals = unknownBefore;
    let rivalsHaveVariants = unknownBeforeHasVariants;
    if (!config.strategyOrderKnown) {
      for (let index = decider + 1; index < strategies.length; index++) {
        const strategy = strategies[index] as StrategyModel;
        const outcome = strategyOutcome(strategy, segments, context);
        if (outcome === 'enabled' || outcome === 'unknown') {
          rivals = true;
          if (strategy.variants.length) rivalsHaveVariants = true;
        }
      }
    }
    const uncertain = rivals && (model.variants.length > 0 || rivalsHaveVariants);
    const variant = this.variantOf(parents, config, flag, model, uncertain, context);
    if (parents === true && variant === DISABLED_VARIANT && decider < ON_BY.length) return ON_BY[decider] as FlagState;
    return { enabled: parents, decidedBy: decider, variant };
  }

  /** The variant of a deciding strategy with variants; null when none applies (the flag's variants then do). */
  private strategyVariant(strategy: StrategyModel, context: PreparedContext): VariantAnswer | 'unknown' | null {
    const groupId = strategy.parameters.get('groupId') ?? 'undefined';
    const stickiness = strategy.variants[0]?.stickiness || strategy.parameters.get('stickiness');
    const choice = chooseVariant(strategy.variants, groupId, stickiness, context);
    return choice === null || choice === 'unknown' ? choice : answerOf(choice, 'strategy');
  }

  /** The variant of a flag that is on (or unknown): the deciding strategy's, else the flag's. */
  private variantOf(enabled: Tristate, config: FlagEnvironmentModel, flag: FlagModel, decider: StrategyModel | undefined, uncertain: boolean, context: PreparedContext): VariantAnswer | 'unknown' {
    if (enabled === false) return DISABLED_VARIANT;
    if (enabled === 'unknown' || uncertain) return 'unknown';
    const fromStrategy = decider && decider.variants.length ? this.strategyVariant(decider, context) : null;
    if (fromStrategy !== null) return fromStrategy;
    if (!config.variants.length) return DISABLED_VARIANT;
    const choice = chooseVariant(config.variants, flag.name, config.variants[0]?.stickiness, context);
    return choice === null ? DISABLED_VARIANT : choice === 'unknown' ? choice : answerOf(choice, 'flag');
  }

  /** Whether a parent requirement holds; with why, by dependency(). */
  private dependencyResult(requirement: ParentRequirement, environment: string): Tristate {
    const parent = this.model.flags.get(requirement.feature);
    if (!parent || !parent.environments.has(environment) || parent.dependencies.length) return false;
    const answer = this.evaluate(requirement.feature, environment);
    if (!requirement.enabled) return not(answer.enabled);
    if (!requirement.variants.length) return answer.enabled;
    return both(answer.enabled, answer.variant === 'unknown' ? 'unknown' : requirement.variants.includes(answer.variant.name));
  }

  private dependency(requirement: ParentRequirement, environment: string): DependencyResult {
    const requires = { enabled: requirement.enabled, variants: requirement.variants };
    const base = { feature: requirement.feature, requires, parentEnabled: undefined, parentVariant: undefined };
    const parent = this.model.flags.get(requirement.feature);
    if (!parent || !parent.environments.has(environment)) return { ...base, result: false, reason: 'parentNotFound' };
    if (parent.dependencies.length) return { ...base, result: false, reason: 'parentHasParents' };
    const answer = this.evaluate(requirement.feature, environment);
    const result = this.dependencyResult(requirement, environment);
    const parentVariant = answer.variant === 'unknown' ? 'unknown' : answer.variant.name;
    return { ...base, parentEnabled: answer.enabled, parentVariant, result, ...(result === false ? { reason: 'dependencyNotSatisfied' as const } : {}) };
  }
}
