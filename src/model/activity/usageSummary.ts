/**
 * A flag's usage summed up per environment from the server's rows (one per environment, application and hour):
 * evaluations, the yes/no split, the variants counted, and the evaluations of each hour of the window. Counts from the
 * server are untrusted: a negative, fractional or non-finite count counts as 0, and the kept lists are bounded.
 */
import type { FeatureMetricsRow } from '../../api/activitySchemas';
import { parseIsoUtc } from '../text/plainText';
import { compare } from '../../base/compare';

/** Environments summed up one by one; the rest are added together in `others`. */
export const MAX_USAGE_ENVIRONMENTS = 20;
/** Variants kept per environment (the most evaluated); the rest are counted in `otherVariants`. */
const MAX_USAGE_VARIANTS = 10;
/** Applications named. */
const MAX_USAGE_APPLICATIONS = 10;

const HOUR = 3_600_000;
const NO_VARIANTS: Array<[string, number]> = [];

export interface EnvironmentUsage {
  environment: string;
  yes: number;
  no: number;
  /** The most evaluated variants, most first. */
  variants: Array<{ name: string; count: number }>;
  /** Evaluations that went to variants left out of `variants`. */
  otherVariants: number;
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
  /** Only for the environments shown (`hourlyOf`). */
  hourly: number[] | undefined;
}

/** Fills in the evaluations per hour of the environments given, from their rows (a second pass, over those only). */
function hourlyOf(rows: readonly FeatureMetricsRow[], shown: ReadonlyMap<string, Totals>, hours: number, now: Date): void {
  const currentHour = Math.floor(now.getTime() / HOUR) * HOUR;
  // Rows share a few dozen hour stamps: each is parsed once (a hostile answer's distinct ones are bounded too).
  const hoursBack = new Map<string, number>();
  for (const row of rows) {
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
    env.hourly[hours - 1 - back] = (env.hourly[hours - 1 - back] ?? 0) + count(row.yes) + count(row.no);
  }
}

/** The `k` first items in `order`, in order, without sorting them all (a hostile answer may hold 50,000). */
function smallest<T>(items: Iterable<T>, k: number, order: (a: T, b: T) => number): T[] {
  const kept: T[] = [];
  for (const item of items) {
    if (kept.length === k && order(item, kept[k - 1] as T) >= 0) continue;
    let at = kept.length;
    while (at > 0 && order(item, kept[at - 1] as T) < 0) at--;
    kept.splice(at, 0, item);
    if (kept.length > k) kept.pop();
  }
  return kept;
}

/** A row's variant counts, each checked (`count`); most rows have none. */
function variantCounts(variants: unknown): Array<[string, number]> {
  if (typeof variants !== 'object' || variants === null) return NO_VARIANTS;
  let found: Array<[string, number]> | undefined;
  for (const name of Object.keys(variants)) (found ??= []).push([name, count((variants as Record<string, unknown>)[name])]);
  return found ?? NO_VARIANTS;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/** Sums the rows of the last `hours` hours up to `now`. */
export function summarizeUsage(rows: readonly FeatureMetricsRow[], now: Date, hours: number): UsageSummary {
  const byEnvironment = new Map<string, Totals>();
  const applications = new Set<string>();
  for (const row of rows) {
    const yes = count(row.yes);
    const no = count(row.no);
    const variants = variantCounts(row.variants);
    if (yes + no === 0 && variants.every(([, n]) => n === 0)) continue;
    let env = byEnvironment.get(row.environment);
    if (env === undefined) {
      env = { yes: 0, no: 0, variants: undefined, hourly: undefined };
      byEnvironment.set(row.environment, env);
    }
    env.yes += yes;
    env.no += no;
    for (const [name, n] of variants) {
      env.variants ??= new Map();
      env.variants.set(name, (env.variants.get(name) ?? 0) + n);
    }
    if (typeof row.appName === 'string' && row.appName !== '') applications.add(row.appName);
  }
  const byTotal = (a: [string, Totals], b: [string, Totals]) => b[1].yes + b[1].no - (a[1].yes + a[1].no) || compare(a[0], b[0]);
  const top = smallest(byEnvironment, MAX_USAGE_ENVIRONMENTS, byTotal);
  hourlyOf(rows, new Map(top), hours, now);
  let total = 0;
  for (const env of byEnvironment.values()) total += env.yes + env.no;
  const shown = top.reduce((sum, [, env]) => sum + env.yes + env.no, 0);
  return {
    hours,
    environments: top.map(([environment, env]) => {
      const sorted = [...(env.variants ?? [])].filter(([, n]) => n > 0).sort(([a, x], [b, y]) => y - x || compare(a, b));
      return {
        environment,
        yes: env.yes,
        no: env.no,
        variants: sorted.slice(0, MAX_USAGE_VARIANTS).map(([name, n]) => ({ name, count: n })),
        otherVariants: sorted.slice(MAX_USAGE_VARIANTS).reduce((sum, [, n]) => sum + n, 0),
        hourly: env.hourly ?? new Array<number>(hours).fill(0),
      };
    }),
    others: { environments: byEnvironment.size - top.length, evaluations: total - shown },
    total,
    applications: smallest(applications, MAX_USAGE_APPLICATIONS, compare),
    applicationCount: applications.size,
  };
}
