/**
 * Why a flag is on for someone, asked of the server: the playground (`POST /api/admin/playground/advanced`, read-only)
 * evaluates the flags of the chosen projects in the chosen environments for every combination of a context's values.
 * unleash-server refuses a request past 15,000 combinations, so a larger query is read in parts (playgroundPlan.ts),
 * planned from the caller's flag counts when it has them, else from the server's refusal, and the answers are put
 * together into one result (playgroundResult.ts). Each part goes through the HTTP core with its bounds and errors.
 */
import { TimeSlices } from '../base/timeSlices';
import { parseAnswer } from './answers';
import type { HttpClient } from './http';
import type { Call } from './httpOptions';
import type { PlaygroundContext } from './playgroundContext';
import { evaluationCount, planParts, sizeRefusal, tooManyEvaluations, tooManyRequests, type FlagCount, type PlaygroundPart } from './playgroundPlan';
import { PlaygroundMerge, type PlaygroundResult } from './playgroundResult';
import { advancedPlaygroundSchema, type PlaygroundAnswer } from './playgroundSchemas';

export interface PlaygroundQuery {
  /** At least one; an environment the server does not have is evaluated as switched off. */
  environments: readonly string[];
  /** `*` for every project, or a list (an empty list evaluates nothing). */
  projects: '*' | readonly string[];
  context: PlaygroundContext;
  /**
   * Flags per project, as the caller's listing counts them, so that a large query is planned without a refusal (each
   * costs the server a read of every flag). Needed to cut `*` by project: past 15,000 flags in all.
   */
  flagsPerProject?: ReadonlyMap<string, number>;
}

export interface PlaygroundLimits {
  /** Environments × flags × combinations one request may ask: what unleash-server accepts (until it says otherwise). */
  perRequest: number;
  /** Evaluations one query may read in all parts together: about 1 KB each as JSON, held in memory as the result. */
  perQuery: number;
  /** Requests one query may take, refusals included. */
  requests: number;
}

const PLAYGROUND_LIMITS: PlaygroundLimits = { perRequest: 15_000, perQuery: 60_000, requests: 64 };

const PATH = '/api/admin/playground/advanced';
const REQUEST = `POST ${PATH}`;

/** Evaluates the query, in as many requests as the server's limit needs, into one result. */
export async function readPlayground(http: HttpClient, query: PlaygroundQuery, call: Call = {}, limits: Partial<PlaygroundLimits> = {}): Promise<PlaygroundResult> {
  const bounds = { ...PLAYGROUND_LIMITS, ...limits };
  const whole: PlaygroundPart = {
    environments: [...query.environments],
    projects: query.projects === '*' ? '*' : [...query.projects],
    context: query.context,
  };
  const merge = new PlaygroundMerge(whole.environments, bounds.perQuery, REQUEST);
  if (whole.environments.length === 0 || (whole.projects !== '*' && whole.projects.length === 0)) return merge.result();

  const counted = countFlags(whole, query.flagsPerProject);
  checkTotal(whole, counted?.total ?? 1, bounds.perQuery);
  const queue = counted ? planParts(whole, counted, bounds.perRequest) : [whole];
  const slices = new TimeSlices();
  let sent = 0;
  while (queue.length > 0) {
    const part = queue.shift() as PlaygroundPart;
    if (++sent > bounds.requests) throw tooManyRequests(bounds.requests);
    let answer: PlaygroundAnswer;
    try {
      answer = parseAnswer(advancedPlaygroundSchema, await http.post(PATH, part, { signal: call.signal, schema: 'playground' }), REQUEST);
    } catch (error) {
      const refusal = sizeRefusal(error);
      if (!refusal) throw error;
      if (part === whole) checkTotal(whole, refusal.features, bounds.perQuery);
      const known = countFlags(part, query.flagsPerProject);
      // The caller's counts hold for this part only when they add up to the server's.
      const flags: FlagCount = known?.total === refusal.features ? known : { total: refusal.features };
      queue.unshift(...planParts(part, flags, refusal.limit));
      continue;
    }
    await merge.add(answer, slices);
  }
  return merge.result();
}

/** The part's flags by the caller's counts, or undefined without them. */
function countFlags(part: PlaygroundPart, perProject: ReadonlyMap<string, number> | undefined): FlagCount | undefined {
  if (!perProject) return undefined;
  const projects = part.projects === '*' ? [...perProject.keys()] : part.projects;
  return { total: projects.reduce((sum, project) => sum + (perProject.get(project) ?? 0), 0), perProject };
}

function checkTotal(part: PlaygroundPart, flags: number, perQuery: number): void {
  const evaluations = evaluationCount(part, flags);
  if (evaluations > perQuery) throw tooManyEvaluations(evaluations, perQuery);
}
