/**
 * A flag's usage summed up per environment from the server's rows (one per environment, application and hour):
 * evaluations, the yes/no split, the variants counted, and the evaluations of each hour of the window. Counts from
 * the server are untrusted: a negative, fractional or non-finite count counts as 0, and the environments and
 * variants kept are bounded. No 'vscode' here.
 */
import type { FeatureMetricsRow } from '../../api/schemas';
import { compare } from '../catalog';
import { parseIsoUtc } from '../wording';

/** Environments summed up one by one; the rest are added together in `others`. */
export const MAX_USAGE_ENVIRONMENTS = 20;
/** Variants kept per environment (the most evaluated); the rest are counted in `otherVariants`. */
export const MAX_USAGE_VARIANTS = 10;
/** Applications named. */
export const MAX_USAGE_APPLICATIONS = 10;

const HOUR = 3_600_000;

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

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/** Sums the rows of the last `hours` hours up to `now`. */
export function summarizeUsage(rows: readonly FeatureMetricsRow[], now: Date, hours: number): UsageSummary {
  const currentHour = Math.floor(now.getTime() / HOUR) * HOUR;
  const byEnvironment = new Map<string, { yes: number; no: number; variants: Map<string, number>; hourly: number[] }>();
  const applications = new Set<string>();
  for (const row of rows) {
    const yes = count(row.yes);
    const no = count(row.no);
    const variants = row.variants && typeof row.variants === 'object' ? Object.entries(row.variants) : [];
    if (yes + no === 0 && variants.every(([, n]) => count(n) === 0)) continue;
    let env = byEnvironment.get(row.environment);
    if (env === undefined) {
      env = { yes: 0, no: 0, variants: new Map(), hourly: new Array<number>(hours).fill(0) };
      byEnvironment.set(row.environment, env);
    }
    env.yes += yes;
    env.no += no;
    for (const [name, n] of variants) env.variants.set(name, (env.variants.get(name) ?? 0) + count(n));
    const at = parseIsoUtc(row.timestamp);
    const back = at === undefined ? -1 : Math.floor((currentHour - Math.floor(at / HOUR) * HOUR) / HOUR);
    if (back >= 0 && back < hours) env.hourly[hours - 1 - back] = (env.hourly[hours - 1 - back] ?? 0) + yes + no;
    if (typeof row.appName === 'string' && row.appName !== '') applications.add(row.appName);
  }
  const all: EnvironmentUsage[] = [...byEnvironment].map(([environment, env]) => {
    const sorted = [...env.variants].filter(([, n]) => n > 0).sort(([a, x], [b, y]) => y - x || compare(a, b));
    const kept = sorted.slice(0, MAX_USAGE_VARIANTS);
    return {
      environment,
      yes: env.yes,
      no: env.no,
      variants: kept.map(([name, n]) => ({ name, count: n })),
      otherVariants: sorted.slice(MAX_USAGE_VARIANTS).reduce((sum, [, n]) => sum + n, 0),
      hourly: env.hourly,
    };
  });
  all.sort((a, b) => b.yes + b.no - (a.yes + a.no) || compare(a.environment, b.environment));
  const rest = all.slice(MAX_USAGE_ENVIRONMENTS);
  return {
    hours,
    environments: all.slice(0, MAX_USAGE_ENVIRONMENTS),
    others: { environments: rest.length, evaluations: rest.reduce((sum, env) => sum + env.yes + env.no, 0) },
    total: all.reduce((sum, env) => sum + env.yes + env.no, 0),
    applications: [...applications].sort(compare).slice(0, MAX_USAGE_APPLICATIONS),
    applicationCount: applications.size,
  };
}
