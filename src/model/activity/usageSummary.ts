/**
 * A flag's usage summed up per environment from the server's rows (one per environment, application and hour):
 * evaluations, the yes/no split, the variants counted, and the evaluations of each hour of the window. Counts from the
 * server are untrusted: a negative, fractional or non-finite count counts as 0, a count and every sum stop at
 * MAX_COUNT (so no total becomes `Infinity`), and the kept lists are bounded: a row's variants are named up to
 * MAX_VARIANT_NAMES per environment, the rest summed as others, and at most MAX_VARIANT_KEYS of a row's counts read.
 */
import type { FeatureMetricsRow } from '../../api/activitySchemas';
import { parseIsoUtc } from '../text/plainText';
import { compare } from '../../base/compare';
import { INTAKE_BUDGET } from '../../base/intakeBudget';
import { MAX_COUNT } from '../text/countText';
import { stepsAtOnce, stepsInSlices, type TimeSlices } from '../../base/timeSlices';

/** Environments summed up one by one; the rest are added together in `others`. */
export const MAX_USAGE_ENVIRONMENTS = 20;
/** Variants kept per environment (the most evaluated); the rest are counted in `otherVariants`. */
const MAX_USAGE_VARIANTS = 10;
/** Applications named. */
const MAX_USAGE_APPLICATIONS = 10;

/** Rows (or entries) looked at between two pauses of the summary's steps. */
const STEP = 1024;
/** Distinct variant names summed up one by one per environment; evaluations of further names go to `otherVariants`. */
const MAX_VARIANT_NAMES = 1_000;
/**
 * Variant counts read from one row: as many as the intake keeps of one object (a hostile row may hold millions). A row
 * holding that many may have held more, so `otherVariants` is then a lower bound.
 */
export const MAX_VARIANT_KEYS = INTAKE_BUDGET.entriesPerObject;

const HOUR = 3_600_000;

export interface EnvironmentUsage {
  environment: string;
  yes: number;
  no: number;
  /** The most evaluated variants, most first. */
  variants: Array<{ name: string; count: number }>;
  /** Evaluations that went to variants left out of `variants`. */
  otherVariants: number;
  /** A row held as many variant counts as are read (MAX_VARIANT_KEYS), or more: `otherVariants` is at least that much. */
  otherVariantsUncounted: boolean;
  /** Evaluations per hour of the window, oldest first (`hours` entries; the last is the current hour). */
  hourly: number[];
}

export interface UsageSummary {
  hours: number;
  /** Environments with at least one evaluation, most evaluated first. */
  environments: EnvironmentUsage[];
  /** Environments left out of `environments` (past MAX_USAGE_ENVIRONMENTS), and their evaluations. */
  others: { environments: number; evaluations: number };
  /** Evaluations in every environment. */
  total: number;
  /** Applications that reported an evaluation, sorted, at most MAX_USAGE_APPLICATIONS, and how many there are. */
  applications: string[];
  applicationCount: number;
}

interface Totals {
  yes: number;
  no: number;
  variants: Map<string, number> | undefined;
  /** Evaluations of variant names past MAX_VARIANT_NAMES. */
  unnamedVariants: number;
  /** Some row held MAX_VARIANT_KEYS variant counts or more: any past them were not read. */
  uncounted: boolean;
  /** Only for the environments shown (`hourlySteps`). */
  hourly: number[] | undefined;
}

/** Fills in the evaluations per hour of the environments given, from their rows (a second pass, over those only). */
function* hourlySteps(rows: readonly FeatureMetricsRow[], shown: ReadonlyMap<string, Totals>, hours: number, now: Date): Generator<void, void> {
  const currentHour = Math.floor(now.getTime() / HOUR) * HOUR;
  // Rows share a few dozen hour stamps: each is parsed once (a hostile answer's distinct ones are bounded too).
  const hoursBack = new Map<string, number>();
  let seen = 0;
  for (const row of rows) {
    if (++seen % STEP === 0) yield;
    const env = shown.get(row.environment);
    if (env === undefined) continue;
    let back = hoursBack.get(row.timestamp);
    if (back === undefined) {
      const at = parseIsoUtc(row.timestamp);
      back = at === undefined ? -1 : Math.floor((currentHour - Math.floor(at / HOUR) * HOUR) / HOUR);
      if (hoursBack.size < 10_000) hoursBack.set(row.timestamp, back);
    }
    if (back < 0 || back >= hours) continue;
    env.hourly ??= new Array<number>(hours).fill(0);
    env.hourly[hours - 1 - back] = add(env.hourly[hours - 1 - back] ?? 0, add(count(row.yes), count(row.no)));
  }
}

/** The `k` first items in `order`, in order, without sorting them all (a hostile answer may hold 50,000). */
function* smallestSteps<T>(items: Iterable<T>, k: number, order: (a: T, b: T) => number): Generator<void, T[]> {
  const kept: T[] = [];
  let seen = 0;
  for (const item of items) {
    if (++seen % STEP === 0) yield;
    if (kept.length === k && order(item, kept[k - 1] as T) >= 0) continue;
    let at = kept.length;
    while (at > 0 && order(item, kept[at - 1] as T) < 0) at--;
    kept.splice(at, 0, item);
    if (kept.length > k) kept.pop();
  }
  return kept;
}

/**
 * Adds a row's variant counts (each checked: `count`) to its environment's: a name past MAX_VARIANT_NAMES distinct
 * ones is summed into `unnamedVariants`. Answers whether any was above 0. Most rows have none.
 */
function addVariants(env: Totals, variants: unknown): boolean {
  if (typeof variants !== 'object' || variants === null) return false;
  let any = false;
  let read = 0;
  for (const name in variants) {
    if (!Object.prototype.hasOwnProperty.call(variants, name)) continue;
    if (++read > MAX_VARIANT_KEYS) break;
    const n = count((variants as Record<string, unknown>)[name]);
    if (n === 0) continue;
    any = true;
    const known = (env.variants ??= new Map()).get(name);
    if (known !== undefined) env.variants.set(name, add(known, n));
    else if (env.variants.size < MAX_VARIANT_NAMES) env.variants.set(name, n);
    else env.unnamedVariants = add(env.unnamedVariants, n);
  }
  if (read >= MAX_VARIANT_KEYS) env.uncounted = true;
  return any;
}

/** A count from the server: a whole number up to MAX_COUNT (1e308 is MAX_COUNT); negative, non-finite or not a number is 0. */
function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.min(MAX_COUNT, Math.floor(value)) : 0;
}

/** A sum of counts that stops at MAX_COUNT. */
function add(a: number, b: number): number {
  return Math.min(MAX_COUNT, a + b);
}

/** Sums the rows of the last `hours` hours up to `now`. */
export function summarizeUsage(rows: readonly FeatureMetricsRow[], now: Date, hours: number): UsageSummary {
  return stepsAtOnce(summarySteps(rows, now, hours));
}

/** The same, yielding to the event loop between slices: an answer may hold 300,000 rows of as many environments. */
function summarizeUsageInSlices(rows: readonly FeatureMetricsRow[], now: Date, hours: number, slices: TimeSlices): Promise<UsageSummary> {
  return stepsInSlices(summarySteps(rows, now, hours), slices);
}

function* summarySteps(rows: readonly FeatureMetricsRow[], now: Date, hours: number): Generator<void, UsageSummary> {
  const byEnvironment = new Map<string, Totals>();
  const applications = new Set<string>();
  let seen = 0;
  for (const row of rows) {
    if (++seen % STEP === 0) yield;
    const yes = count(row.yes);
    const no = count(row.no);
    let env = byEnvironment.get(row.environment);
    const fresh = env === undefined;
    env ??= { yes: 0, no: 0, variants: undefined, unnamedVariants: 0, uncounted: false, hourly: undefined };
    const counted = addVariants(env, row.variants);
    if (yes + no === 0 && !counted) continue;
    if (fresh) byEnvironment.set(row.environment, env);
    env.yes = add(env.yes, yes);
    env.no = add(env.no, no);
    if (typeof row.appName === 'string' && row.appName !== '') applications.add(row.appName);
  }
  const evaluations = (env: Totals) => add(env.yes, env.no);
  const byTotal = (a: [string, Totals], b: [string, Totals]) => evaluations(b[1]) - evaluations(a[1]) || compare(a[0], b[0]);
  const top = yield* smallestSteps(byEnvironment, MAX_USAGE_ENVIRONMENTS, byTotal);
  yield* hourlySteps(rows, new Map(top), hours, now);
  let total = 0;
  for (const env of byEnvironment.values()) {
    if (++seen % STEP === 0) yield;
    total = add(total, evaluations(env));
  }
  const namedVariants: Array<Array<[string, number]>> = [];
  for (const [, env] of top) namedVariants.push(yield* smallestSteps(env.variants ?? [], MAX_USAGE_VARIANTS, ([a, x], [b, y]) => y - x || compare(a, b)));
  const shownApplications = yield* smallestSteps(applications, MAX_USAGE_APPLICATIONS, compare);
  let shown = 0;
  for (const [, env] of top) shown = add(shown, evaluations(env));
  return {
    hours,
    environments: top.map(([environment, env], index) => {
      const named = namedVariants[index] as Array<[string, number]>;
      let otherVariants = env.unnamedVariants;
      for (const n of env.variants?.values() ?? []) otherVariants = add(otherVariants, n);
      for (const [, n] of named) otherVariants -= n;
      return {
        environment,
        yes: env.yes,
        no: env.no,
        variants: named.map(([name, n]) => ({ name, count: n })),
        otherVariants: Math.max(0, otherVariants),
        otherVariantsUncounted: env.uncounted,
        hourly: env.hourly ?? new Array<number>(hours).fill(0),
      };
    }),
    // Environments past the bound, and their evaluations: what the total holds beyond those shown (never below 0,
    // though a saturated total may hide some).
    others: { environments: byEnvironment.size - top.length, evaluations: Math.max(0, total - shown) },
    total,
    applications: shownApplications,
    applicationCount: applications.size,
  };
}

/**
 * The summary of each answer, made once: FlagActivity sums a new answer up in slices as it arrives (`summarizeAnswer`),
 * and an answer is kept a minute, so its hours are those of when it was read.
 */
const summaries = new WeakMap<readonly FeatureMetricsRow[], { hours: number; summary: UsageSummary }>();

export async function summarizeAnswer(rows: readonly FeatureMetricsRow[], now: Date, hours: number, slices: TimeSlices): Promise<void> {
  summaries.set(rows, { hours, summary: await summarizeUsageInSlices(rows, now, hours, slices) });
}

export function summaryOf(rows: readonly FeatureMetricsRow[], now: Date, hours: number): UsageSummary {
  const known = summaries.get(rows);
  if (known && known.hours === hours) return known.summary;
  const summary = summarizeUsage(rows, now, hours);
  summaries.set(rows, { hours, summary });
  return summary;
}
