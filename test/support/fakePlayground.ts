/**
 * A stand-in for unleash-server's advanced playground, for the fault server (faultServer.ts): it makes a context's
 * combinations as the real server does (strings split at commas, properties beside the other fields, other values
 * left out and named in `warnings`, appName last), refuses a request past its limit with the real server's 400 and
 * words, and answers every flag of the projects asked, in every environment, for every combination. A flag is on
 * where the combination's userId ends with an even digit (one strategy, one constraint), so a test can tell what each
 * evaluation must say.
 */
import type { FaultRequest, Handler, Reply } from './faultServer';

export interface FakeFlag {
  name: string;
  project: string;
}

interface PlaygroundBody {
  environments: string[];
  projects?: '*' | string[];
  context: Record<string, unknown>;
}

/** The rule the fake evaluates: on where userId ends with 0, 2, 4, 6 or 8. */
export const EVEN_DIGITS = ['0', '2', '4', '6', '8'];

export function fakePlayground(flags: readonly FakeFlag[], limit = 15_000): Handler {
  return (request: FaultRequest): Reply => {
    if (request.method !== 'POST' || request.path !== '/api/admin/playground/advanced') return { status: 404, body: { message: 'not here' } };
    const body = request.json as PlaygroundBody;
    const projects = body.projects ?? '*';
    const chosen = flags.filter((flag) => projects === '*' || projects.includes(flag.project));
    const { combinations, ignored } = combine(body.context);
    const total = body.environments.length * chosen.length * combinations.length;
    if (total > limit) {
      const words =
        `Rejecting evaluation as it would generate ${total} combinations exceeding ${limit} limit. ` +
        `Please reduce the number of selected environments (${body.environments.length}), features (${chosen.length}), context field combinations (${combinations.length}).`;
      return {
        status: 400,
        body: { name: 'BadDataError', message: `Request validation failed: your request body or params contain invalid data: ${words}`, details: [{ message: words }] },
      };
    }
    const features = chosen.map((flag) => ({
      name: flag.name,
      projectId: flag.project,
      environments: Object.fromEntries(body.environments.map((environment) => [environment, combinations.map((context) => evaluation(flag, environment, context))])),
    }));
    return { body: { features, input: body, ...(ignored.length ? { warnings: { invalidContextProperties: ignored } } : {}) } };
  };
}

function evaluation(flag: FakeFlag, environment: string, context: Record<string, string>) {
  const userId = context.userId ?? '';
  const on = EVEN_DIGITS.some((digit) => userId.endsWith(digit));
  return {
    isEnabled: on,
    isEnabledInCurrentEnvironment: true,
    hasUnsatisfiedDependency: false,
    variant: { name: 'disabled', enabled: false, feature_enabled: on },
    context,
    variants: [],
    name: flag.name,
    environment,
    projectId: flag.project,
    strategies: {
      result: on,
      data: [
        {
          name: 'flexibleRollout',
          id: `${flag.name}/${environment}`,
          disabled: false,
          parameters: { rollout: '100', stickiness: 'default', groupId: flag.name },
          result: { enabled: on, evaluationStatus: 'complete' },
          constraints: [{ contextName: 'userId', operator: 'STR_ENDS_WITH', values: EVEN_DIGITS, inverted: false, result: on }],
          segments: [],
          links: { edit: `/projects/${flag.project}/features/${flag.name}/strategies/edit` },
        },
      ],
    },
  };
}

/** unleash-server's cleanContext, splitByComma and generateCombinations. */
function combine(context: Record<string, unknown>): { combinations: Record<string, string>[]; ignored: string[] } {
  const { appName, ...others } = context;
  const ignored: string[] = [];
  const split: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(others)) {
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      for (const [property, text] of Object.entries(value)) split[property] = typeof text === 'string' ? text.split(',') : [String(text)];
    } else if (typeof value === 'string') split[key] = value.split(',');
    else ignored.push(key);
  }
  split.appName = String(appName).split(',');
  let combinations: Record<string, string>[] = [{}];
  for (const [key, values] of Object.entries(split)) combinations = combinations.flatMap((partial) => values.map((value) => ({ ...partial, [key]: value })));
  return { combinations, ignored };
}
