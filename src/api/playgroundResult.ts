/**
 * The playground's answers as one typed result: per flag, environment and combination of the context's values,
 * whether the flag is on (true, false or "unknown"), its variant, and per strategy what decided, down to each
 * constraint's result and the context value it tested. 7.5.1 and 8.2.0 answer alike (playgroundSchemas.ts); the
 * answers of a query cut into parts (playgroundPlan.ts) are put together here, as they arrive, in time slices.
 */
import * as l10n from '@vscode/l10n';
import type { TimeSlices } from '../base/timeSlices';
import { SchemaError } from './errors';
import type { PlaygroundAnswer, PlaygroundAnswerConstraint, PlaygroundAnswerEvaluation, PlaygroundAnswerStrategy } from './playgroundSchemas';

/** On, off, or "unknown": a strategy the server cannot run (a custom one) might turn it on. */
export type PlaygroundState = boolean | 'unknown';

export interface PlaygroundResult {
  /** Sorted by project, then name. */
  flags: PlaygroundFlag[];
  /** Context fields the server left out (not strings). */
  ignoredContextFields: string[];
  /** Answers put together: more than one when the query was read in parts. */
  parts: number;
}

export interface PlaygroundFlag {
  name: string;
  project: string;
  /** In the order of the query's environments. */
  environments: PlaygroundEnvironment[];
}

interface PlaygroundEnvironment {
  name: string;
  evaluations: PlaygroundEvaluation[];
}

export interface PlaygroundEvaluation {
  /** The combination evaluated, as the server echoes it: custom properties beside the standard fields. */
  context: Record<string, string>;
  enabled: PlaygroundState;
  /** The flag is switched on in this environment. */
  environmentEnabled: boolean;
  /** A parent flag it depends on is not as required, so it is off whatever its strategies say. */
  unsatisfiedDependency: boolean;
  variant: PlaygroundVariant;
  /** The id of the strategy that turned it on (the first that is true), when it is on. */
  decidedBy?: string;
  strategies: PlaygroundStrategy[];
}

export interface PlaygroundVariant {
  name: string;
  enabled: boolean;
  payload?: { type: string; value: string };
}

export interface PlaygroundStrategy {
  id: string;
  name: string;
  title?: string;
  disabled: boolean;
  /** The strategy's result: "unknown" when the server could not run it (a custom strategy) or did not (disabled). */
  enabled: PlaygroundState;
  /** "complete", "incomplete" (could not run), "unevaluated" (disabled), or what a newer server says. */
  evaluation: string;
  constraints: PlaygroundConstraint[];
  segments: PlaygroundSegment[];
}

interface PlaygroundConstraint {
  contextName: string;
  operator: string;
  values: string[];
  inverted: boolean;
  caseInsensitive: boolean;
  result: boolean;
  /** The value the combination had for `contextName`, from the context the server echoes; absent when it had none. */
  contextValue?: string;
}

interface PlaygroundSegment {
  id: number;
  name: string;
  result: boolean;
  constraints: PlaygroundConstraint[];
}

/** Puts the parts' answers together: each answer normalized as it arrives, so no part's raw answer is kept. */
export class PlaygroundMerge {
  private readonly flags = new Map<string, { name: string; project: string; environments: Map<string, PlaygroundEvaluation[]> }>();
  private readonly ignored = new Set<string>();
  private evaluations = 0;
  private parts = 0;

  constructor(
    private readonly environments: readonly string[],
    /** Evaluations the whole query may hold; more is a SchemaError (the server answered more than asked). */
    private readonly maxEvaluations: number,
    private readonly request: string,
  ) {}

  async add(answer: PlaygroundAnswer, slices: TimeSlices): Promise<void> {
    this.parts += 1;
    for (const field of answer.warnings?.invalidContextProperties ?? []) this.ignored.add(field);
    for (const feature of answer.features) {
      const key = `${feature.projectId}\u0000${feature.name}`;
      let flag = this.flags.get(key);
      if (!flag) {
        flag = { name: feature.name, project: feature.projectId, environments: new Map() };
        this.flags.set(key, flag);
      }
      for (const [environment, evaluations] of Object.entries(feature.environments)) {
        this.evaluations += evaluations.length;
        if (this.evaluations > this.maxEvaluations) {
          throw new SchemaError(this.request, l10n.t('the server answered more than the {0} evaluations asked', this.maxEvaluations));
        }
        let list = flag.environments.get(environment);
        if (!list) {
          list = [];
          flag.environments.set(environment, list);
        }
        for (const evaluation of evaluations) {
          if (slices.due()) await slices.next();
          list.push(normalizeEvaluation(evaluation));
        }
      }
    }
  }

  result(): PlaygroundResult {
    const order = new Map(this.environments.map((name, index) => [name, index]));
    const rank = (name: string) => order.get(name) ?? order.size;
    const flags = [...this.flags.values()]
      .sort((a, b) => compare(a.project, b.project) || compare(a.name, b.name))
      .map((flag) => ({
        name: flag.name,
        project: flag.project,
        environments: [...flag.environments]
          .sort(([a], [b]) => rank(a) - rank(b) || compare(a, b))
          .map(([name, evaluations]) => ({ name, evaluations })),
      }));
    return { flags, ignoredContextFields: [...this.ignored].sort(compare), parts: this.parts };
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function normalizeEvaluation(answer: PlaygroundAnswerEvaluation): PlaygroundEvaluation {
  const context = contextValues(answer.context);
  const strategies = answer.strategies.data.map((strategy) => normalizeStrategy(strategy, context));
  const enabled = flagState(answer, strategies);
  const decidedBy = enabled === true ? strategies.find((strategy) => !strategy.disabled && strategy.enabled === true)?.id : undefined;
  return {
    context,
    enabled,
    environmentEnabled: answer.isEnabledInCurrentEnvironment,
    unsatisfiedDependency: answer.hasUnsatisfiedDependency === true,
    variant: variantOf(answer.variant),
    ...(decidedBy === undefined ? {} : { decidedBy }),
    strategies,
  };
}

/**
 * On when the server says so. Off when the environment is off, a dependency is not met, or the strategies say false.
 * When they say "unknown", unknown only if a strategy that is not disabled could not be run: the server also says
 * "unknown" for a disabled strategy (unevaluated), which an SDK skips.
 */
function flagState(answer: PlaygroundAnswerEvaluation, strategies: readonly PlaygroundStrategy[]): PlaygroundState {
  if (answer.isEnabled) return true;
  if (!answer.isEnabledInCurrentEnvironment || answer.hasUnsatisfiedDependency === true) return false;
  if (typeof answer.strategies.result === 'boolean') return false;
  return strategies.some((strategy) => !strategy.disabled && strategy.enabled === 'unknown') ? 'unknown' : false;
}

function normalizeStrategy(strategy: PlaygroundAnswerStrategy, context: Readonly<Record<string, string>>): PlaygroundStrategy {
  const { result } = strategy;
  return {
    id: strategy.id,
    name: strategy.name,
    ...(strategy.title ? { title: strategy.title } : {}),
    disabled: strategy.disabled === true,
    enabled: typeof result.enabled === 'boolean' ? result.enabled : 'unknown',
    evaluation: result.evaluationStatus,
    constraints: strategy.constraints.map((constraint) => normalizeConstraint(constraint, context)),
    segments: strategy.segments.map((segment) => ({
      id: segment.id,
      name: segment.name,
      result: segment.result,
      constraints: segment.constraints.map((constraint) => normalizeConstraint(constraint, context)),
    })),
  };
}

/** Values as the operator reads them: `values`, or `value` alone for the single-value operators (NUM_*, DATE_*, …). */
function normalizeConstraint(constraint: PlaygroundAnswerConstraint, context: Readonly<Record<string, string>>): PlaygroundConstraint {
  const values = constraint.values?.length ? [...constraint.values] : constraint.value !== undefined ? [constraint.value] : [];
  const contextValue = Object.hasOwn(context, constraint.contextName) ? context[constraint.contextName] : undefined;
  return {
    contextName: constraint.contextName,
    operator: constraint.operator,
    values,
    inverted: constraint.inverted === true,
    caseInsensitive: constraint.caseInsensitive === true,
    result: constraint.result,
    ...(contextValue === undefined ? {} : { contextValue }),
  };
}

function variantOf(variant: PlaygroundAnswerEvaluation['variant']): PlaygroundVariant {
  const payload = variant.payload;
  return { name: variant.name, enabled: variant.enabled, ...(payload ? { payload: { type: payload.type, value: payload.value } } : {}) };
}

/** The echoed combination's fields: text as it is, numbers and booleans written out, anything else left out. */
function contextValues(context: Readonly<Record<string, unknown>>): Record<string, string> {
  // fromEntries defines each key as its own, `__proto__` too.
  return Object.fromEntries(
    Object.entries(context).flatMap(([name, value]): Array<[string, string]> =>
      typeof value === 'string' ? [[name, value]] : typeof value === 'number' || typeof value === 'boolean' ? [[name, String(value)]] : [],
    ),
  );
}
