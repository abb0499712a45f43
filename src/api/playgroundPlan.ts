/**
 * The playground's requests planned within the server's limit: unleash-server refuses a request whose environments ×
 * flags × context combinations pass 15,000 (400 "Rejecting evaluation as it would generate …"). A query is cut into
 * parts by environments, then by the context's values, and by projects only when one environment and one combination
 * of all the flags pass the limit. The flags are counted by the caller (its listing) or by the server's refusal.
 */
import * as l10n from '@vscode/l10n';
import { BadRequestError, UnleashApiError } from './errors';
import { contextParts, combinationCount, type PlaygroundContext } from './playgroundContext';

/** One request: what `POST /api/admin/playground/advanced` takes. */
export interface PlaygroundPart {
  environments: string[];
  /** `*` for every project; a list otherwise (an empty list evaluates no flag at all). */
  projects: '*' | string[];
  context: PlaygroundContext;
}

/** The flags a part evaluates: their number, and per project when the caller's listing says. */
export interface FlagCount {
  total: number;
  perProject?: ReadonlyMap<string, number>;
}

/** What the server says when it refuses a request as too large. */
interface Refusal {
  limit: number;
  features: number;
}

/**
 * A query the playground cannot answer within the bounds: one project's flags in one environment for one combination
 * pass the server's limit, or the whole query passes what the client reads in all (`PLAYGROUND_LIMITS`).
 */
export class PlaygroundTooLargeError extends UnleashApiError {
  readonly kind = 'playground-too-large';
  constructor(
    message: string,
    readonly combinations: number,
    readonly limit: number,
  ) {
    super(message);
  }
}

/** The evaluations a part makes: environments × flags × combinations. */
export function evaluationCount(part: PlaygroundPart, flags: number): number {
  return part.environments.length * flags * combinationCount(part.context);
}

/**
 * Parts of `part`, each at most `limit` evaluations by `flags`, that together evaluate what `part` does. Throws
 * PlaygroundTooLargeError when no cut the API allows gets there (a project's flags alone pass the limit).
 */
export function planParts(part: PlaygroundPart, flags: FlagCount, limit: number): PlaygroundPart[] {
  return projectGroups(part, flags, limit).flatMap((group) => {
    const combinations = combinationCount(part.context);
    const cells = group.flags > 0 ? Math.max(1, Math.floor(limit / group.flags)) : Number.POSITIVE_INFINITY;
    const perPart = Math.min(part.environments.length, Math.max(1, Math.floor(cells / combinations)));
    const contexts = combinations <= cells ? [part.context] : contextParts(part.context, cells);
    const parts: PlaygroundPart[] = [];
    for (let at = 0; at < part.environments.length; at += perPart) {
      const environments = part.environments.slice(at, at + perPart);
      for (const context of contexts) parts.push({ environments, projects: group.projects, context });
    }
    return parts;
  });
}

/** The projects of the part in groups whose flags fit the limit in one environment and one combination. */
function projectGroups(part: PlaygroundPart, flags: FlagCount, limit: number): Array<{ projects: PlaygroundPart['projects']; flags: number }> {
  if (flags.total <= limit) return [{ projects: part.projects, flags: flags.total }];
  const counts = flags.perProject;
  const projects = part.projects === '*' ? (counts ? [...counts.keys()] : []) : part.projects;
  if (counts && projects.length > 1) {
    const groups: Array<{ projects: string[]; flags: number }> = [];
    for (const project of projects) {
      const count = counts.get(project) ?? 0;
      if (count > limit) throw tooManyFlags(count, limit);
      const open = groups.find((group) => group.flags + count <= limit);
      if (open) {
        open.projects.push(project);
        open.flags += count;
      } else groups.push({ projects: [project], flags: count });
    }
    return groups;
  }
  // Not counted per project: halves, each counted by the server when it refuses it again.
  if (projects.length > 1) {
    const half = Math.ceil(projects.length / 2);
    return [projects.slice(0, half), projects.slice(half)].map((group) => ({ projects: group, flags: Math.ceil(flags.total / 2) }));
  }
  throw tooManyFlags(flags.total, limit);
}

function tooManyFlags(flags: number, limit: number): PlaygroundTooLargeError {
  return new PlaygroundTooLargeError(
    l10n.t(
      'The playground cannot evaluate {0} flags at once, and they cannot be split further by project: the server evaluates at most {1} combinations of environments, flags and context values a request.',
      flags,
      limit,
    ),
    flags,
    limit,
  );
}

/** The query passes what the client reads in all. */
export function tooManyEvaluations(evaluations: number, limit: number): PlaygroundTooLargeError {
  return new PlaygroundTooLargeError(
    l10n.t(
      'The playground would evaluate {0} combinations of environments, flags and context values, more than the {1} read at once: choose fewer environments, projects or context values.',
      evaluations,
      limit,
    ),
    evaluations,
    limit,
  );
}

/** The query's parts and refusals take more requests than allowed. */
export function tooManyRequests(limit: number): PlaygroundTooLargeError {
  return new PlaygroundTooLargeError(
    l10n.t('The playground would need more than {0} requests to evaluate this: choose fewer environments, projects or context values.', limit),
    Number.NaN,
    limit,
  );
}

const REFUSAL = /generate (\d+) combinations exceeding (\d+) limit\..*features \((\d+)\)/s;

/** The server's refusal of a request as too large (400, the same words on 7.5.1 and 8.2.0), or undefined. */
export function sizeRefusal(error: unknown): Refusal | undefined {
  if (!(error instanceof BadRequestError)) return undefined;
  const texts = [error.serverMessage, ...error.details.map((detail) => detail.message)];
  for (const text of texts) {
    const match = text ? REFUSAL.exec(text) : null;
    if (match) return { limit: Number(match[2]), features: Number(match[3]) };
  }
  return undefined;
}
