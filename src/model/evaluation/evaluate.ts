/**
 * The engine: whether a flag is on for a context in an environment, which variant it gets, and why, with the rules of
 * Unleash's SDKs (unleash-client, checked against the client specification in test/unit/clientSpecification.test.ts).
 * One evaluator serves one context: it prepares the context once per environment and keeps every answer, so a parent
 * of many flags is evaluated once. docs/evaluation.md says what it cannot know and why.
 */
import type { EvaluationContext } from './context';
import { DISABLED_VARIANT, type DependencyResult, type FlagEvaluation, type StrategyResult, type Tristate, type VariantAnswer } from './explanation';
import type { EvaluationModel, FlagEnvironmentModel, FlagModel, ParentRequirement, StrategyModel } from './model';
import { PreparedContext } from './preparedContext';
import { evaluateStrategy } from './strategies';
import { chooseVariant, type VariantChoice } from './variants';

export interface EvaluatorOptions {
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

export class FlagEvaluator {
  private readonly contexts = new Map<string, PreparedContext>();
  private readonly answers = new Map<string, Map<string, FlagEvaluation>>();
  private readonly now: number;

  constructor(
    private readonly model: EvaluationModel,
    private readonly context: EvaluationContext,
    private readonly options: EvaluatorOptions = {},
  ) {
    this.now = options.now ?? Date.now();
  }

  /** Every flag of the model in every environment that holds it. */
  evaluateAll(): FlagEvaluation[] {
    const all: FlagEvaluation[] = [];
    for (const environment of this.model.environments) {
      for (const flag of this.model.flags.values()) if (flag.environments.has(environment)) all.push(this.evaluate(flag.name, environment));
    }
    return all;
  }

  evaluate(name: string, environment: string): FlagEvaluation {
    let answers = this.answers.get(environment);
    if (!answers) this.answers.set(environment, (answers = new Map()));
    let answer = answers.get(name);
    if (!answer) {
      answer = this.evaluateOnce(name, environment);
      answers.set(name, answer);
    }
    return answer;
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

  private evaluateOnce(name: string, environment: string): FlagEvaluation {
    const flag = this.model.flags.get(name);
    const config = flag?.environments.get(environment);
    const off = { flag: name, environment, enabled: false, strategies: [], dependencies: [], variant: DISABLED_VARIANT } as const;
    if (!flag || !config) return { ...off, reason: 'notInEnvironment' };
    if (!config.enabled) return { ...off, reason: 'environmentOff' };
    const dependencies = flag.dependencies.map((requirement) => this.dependency(requirement, environment));
    const parents = dependencies.reduce<Tristate>((all, dependency) => both(all, dependency.result), true);
    if (parents === false) return { ...off, dependencies, reason: 'dependencyNotSatisfied' };
    return this.byStrategies(flag, config, environment, dependencies, parents);
  }

  private byStrategies(flag: FlagModel, config: FlagEnvironmentModel, environment: string, dependencies: DependencyResult[], parents: Tristate): FlagEvaluation {
    const context = this.prepared(environment);
    const strategies: StrategyResult[] = config.strategies.map((strategy, index) => evaluateStrategy(strategy, index, this.model.segments, context));
    const base = { flag: flag.name, environment, dependencies, strategies };
    if (strategies.every((strategy) => strategy.outcome === 'skipped-disabled')) {
      // Servers send an SDK only the strategies that are not disabled: none left means on.
      return this.withVariant({ ...base, enabled: parents, reason: 'noStrategies' }, config, flag, undefined, false);
    }
    const decider = strategies.findIndex((strategy) => strategy.outcome === 'enabled');
    if (decider < 0) {
      const unknown = strategies.find((strategy) => strategy.outcome === 'unknown');
      return unknown
        ? { ...base, enabled: 'unknown', variant: 'unknown', ...(unknown.reason ? { reason: unknown.reason } : {}) }
        : { ...base, enabled: false, reason: 'noStrategyMatched', variant: DISABLED_VARIANT };
    }
    const model = config.strategies[decider] as StrategyModel;
    // Another strategy that might have decided instead (an earlier unknown one; with the order not known, any other
    // that is on or unknown) changes the variant when either of them has variants.
    const rivals = strategies.filter(
      (strategy) =>
        strategy.index !== decider &&
        (strategy.outcome === 'unknown' || (strategy.outcome === 'enabled' && !config.strategyOrderKnown)) &&
        (strategy.index < decider || !config.strategyOrderKnown),
    );
    const uncertain = rivals.length > 0 && (model.variants.length > 0 || rivals.some((strategy) => (config.strategies[strategy.index] as StrategyModel).variants.length > 0));
    const decided = { ...base, enabled: parents, decidedBy: { index: decider, name: model.name } };
    return this.withVariant(decided, config, flag, model, uncertain);
  }

  /** The variant of an evaluation that is on (or unknown): the deciding strategy's, else the flag's. */
  private withVariant(evaluation: Omit<FlagEvaluation, 'variant'>, config: FlagEnvironmentModel, flag: FlagModel, decider: StrategyModel | undefined, uncertain: boolean): FlagEvaluation {
    if (evaluation.enabled === false) return { ...evaluation, variant: DISABLED_VARIANT };
    if (evaluation.enabled === 'unknown' || uncertain) return { ...evaluation, variant: 'unknown' };
    const context = this.prepared(evaluation.environment);
    if (decider && decider.variants.length) {
      const groupId = decider.parameters.get('groupId') ?? 'undefined';
      const stickiness = decider.variants[0]?.stickiness || decider.parameters.get('stickiness');
      const choice = chooseVariant(decider.variants, groupId, stickiness, context);
      if (choice !== null) {
        const variant = choice === 'unknown' ? choice : answerOf(choice, 'strategy');
        const strategies = evaluation.strategies.map((strategy, index) => (index === evaluation.decidedBy?.index ? { ...strategy, variant } : strategy));
        return { ...evaluation, strategies, variant };
      }
    }
    if (!config.variants.length) return { ...evaluation, variant: DISABLED_VARIANT };
    const choice = chooseVariant(config.variants, flag.name, config.variants[0]?.stickiness, context);
    return { ...evaluation, variant: choice === null ? DISABLED_VARIANT : choice === 'unknown' ? choice : answerOf(choice, 'flag') };
  }

  private dependency(requirement: ParentRequirement, environment: string): DependencyResult {
    const requires = { enabled: requirement.enabled, variants: requirement.variants };
    const base = { feature: requirement.feature, requires, parentEnabled: undefined, parentVariant: undefined };
    const parent = this.model.flags.get(requirement.feature);
    if (!parent || !parent.environments.has(environment)) return { ...base, result: false, reason: 'parentNotFound' };
    if (parent.dependencies.length) return { ...base, result: false, reason: 'parentHasParents' };
    const answer = this.evaluate(requirement.feature, environment);
    const variant = answer.variant === 'unknown' ? 'unknown' : answer.variant.name;
    let result: Tristate;
    if (!requirement.enabled) result = not(answer.enabled);
    else if (!requirement.variants.length) result = answer.enabled;
    else result = both(answer.enabled, variant === 'unknown' ? 'unknown' : requirement.variants.includes(variant));
    return { ...base, parentEnabled: answer.enabled, parentVariant: variant, result, ...(result === false ? { reason: 'dependencyNotSatisfied' as const } : {}) };
  }
}
