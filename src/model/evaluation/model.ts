/**
 * The one model the engine evaluates, whatever it was read from: the client API's state (clientState.ts) or the
 * extension's export files (exportModel.ts). Plain data, already within the intake budget; the engine compiles what it
 * can of it once per object (compiled.ts), so a model is never changed once built.
 */

export interface ConstraintModel {
  readonly contextName: string;
  readonly operator: string;
  /** What the operators of many values read (IN, NOT_IN, STR_*, IN_CIDR). */
  readonly values: readonly string[];
  /** What the operators of one value read (NUM_*, DATE_*, SEMVER_*, REGEX). */
  readonly value: string | undefined;
  readonly inverted: boolean;
  readonly caseInsensitive: boolean;
}

export interface VariantModel {
  readonly name: string;
  readonly weight: number;
  readonly stickiness: string | undefined;
  readonly payload: { readonly type: string; readonly value: string } | undefined;
  readonly overrides: readonly { readonly contextName: string; readonly values: readonly string[] }[];
}

export interface StrategyModel {
  readonly name: string;
  readonly title: string | undefined;
  readonly disabled: boolean;
  readonly parameters: ReadonlyMap<string, string>;
  readonly constraints: readonly ConstraintModel[];
  readonly segments: readonly number[];
  readonly variants: readonly VariantModel[];
}

/** A flag in one environment. */
export interface FlagEnvironmentModel {
  readonly enabled: boolean;
  readonly strategies: readonly StrategyModel[];
  readonly variants: readonly VariantModel[];
  /**
   * Whether the strategies are in the server's order. Export files hold no `sortOrder` and sort strategies by name:
   * then which of two matching strategies decides (and so a strategy variant) is not known.
   */
  readonly strategyOrderKnown: boolean;
}

export interface ParentRequirement {
  readonly feature: string;
  /** The parent must be on (true, the default) or off. */
  readonly enabled: boolean;
  /** When on: one of these variants (none: any). */
  readonly variants: readonly string[];
}

export interface FlagModel {
  readonly name: string;
  readonly dependencies: readonly ParentRequirement[];
  readonly environments: ReadonlyMap<string, FlagEnvironmentModel>;
}

export interface SegmentModel {
  readonly id: number;
  readonly name: string | undefined;
  /** Undefined when the source names the segment without its constraints (an export without its `.segments` file). */
  readonly constraints: readonly ConstraintModel[] | undefined;
}

export interface EvaluationModel {
  /** Every flag by name (the first of a name wins: Unleash's flag names are unique across projects). */
  readonly flags: ReadonlyMap<string, FlagModel>;
  readonly segments: ReadonlyMap<number, SegmentModel>;
  /** The environments the source holds, sorted. */
  readonly environments: readonly string[];
}
