/**
 * The offline evaluation engine (src/model/evaluation) against the server's playground, on a real Unleash (7.5.1 or
 * 8.2.0) with the seed of tools/unleash/seed-data.ts: every live seeded flag in every environment for seven contexts
 * chosen so that the seed's constraints, rollouts, segments, the dependency and the variants go both ways. The engine
 * reads the extension's own export of each environment (exportToFile through the client, read back as offline mode
 * reads it, then exportModel.ts); the playground is read through the client. They must agree on the flag's outcome,
 * the variant where the server is certain, every strategy's result (matched by what it is: an export file has no
 * strategy ids) and every constraint's and
 * segment's result. Where they cannot agree the difference is named with its reason (LEGITIMATE below) and counted;
 * anything else fails the test.
 *   UNLEASH_CONTRACT_SERVER=8.2.0 node --import tsx --test test/contract/evaluationCrossCheck.contract.test.ts
 */
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { UnleashClient } from '../../src/api/client';
import type { ExportResult } from '../../src/api/exportSchemas';
import type { PlaygroundContext } from '../../src/api/playgroundContext';
import type { PlaygroundEvaluation, PlaygroundResult, PlaygroundState, PlaygroundStrategy } from '../../src/api/playgroundResult';
import { TimeSlices } from '../../src/base/timeSlices';
import { readContext } from '../../src/model/evaluation/context';
import { FlagEvaluator } from '../../src/model/evaluation/evaluate';
import type { FlagEvaluation, Reason, StrategyResult, Tristate } from '../../src/model/evaluation/explanation';
import { modelOfExports } from '../../src/model/evaluation/exportModel';
import type { EvaluationModel, FlagModel } from '../../src/model/evaluation/model';
import { parseExportFile } from '../../src/model/export/exportFile';
import { takeSegments } from '../../src/model/export/exportSegmentsFile';
import { exportToFile } from '../../src/model/export/exportToFile';
import { SEED } from '../../tools/unleash';
import { useRealUnleash } from './env';

const unleash = useRealUnleash();
const LIVE_FLAGS = SEED.flags.filter((flag) => !flag.archived);

/**
 * The contexts, and what each is for. In and out of new-checkout-flow's 50 % rollout: dana is in (variant blue), alice
 * out (playground.contract.test.ts finds the same on both generations).
 */
const CONTEXTS: Record<string, PlaygroundContext> = {
  // Every gate open: internal-users and beta-testers segments, the 50 % rollout, the parent's variant blue, office IP,
  // SEMVER_EQ 3.0.0, the campaign window, checkout-eu (DE), the REGEX on appName.
  'dana, staff, acme': {
    appName: 'checkout-api',
    userId: 'dana@example.com',
    remoteAddress: '10.1.2.3',
    properties: { tenantId: 'acme', appVersion: '3.0.0', accountAgeDays: '40', country: 'DE' },
  },
  // Gates closed: outside the rollout, globex not in beta-testers, 1.0.0, 3 days, US, another network, web-shop.
  'alice, globex, old app': {
    appName: 'web-shop',
    userId: 'alice@example.com',
    remoteAddress: '172.16.0.1',
    properties: { tenantId: 'globex', appVersion: '1.0.0', accountAgeDays: '3', country: 'US' },
  },
  // NOT_IN fails (blocked user), initech, SEMVER_GT 2.5.0 and < 4.0.0-beta.1, NUM_EQ 30, the one listed address, FR.
  'blocked user, initech': {
    appName: 'checkout-worker',
    userId: 'blocked-user-1',
    remoteAddress: '192.168.1.10',
    properties: { tenantId: 'initech', appVersion: '2.6.0', accountAgeDays: '30', country: 'FR' },
  },
  // A session and no user: default stickiness falls back to the session; REGEX case-insensitive; a pre-release
  // version; 4000 days is past NUM_LTE 3650.
  'session only': {
    appName: 'CHECKOUT-API',
    sessionId: 'session-42',
    remoteAddress: '10.255.255.255',
    properties: { tenantId: 'acme', appVersion: '4.0.0-beta.0', accountAgeDays: '4000', country: 'NL' },
  },
  // Nothing to stick to: default stickiness is drawn at random by the server (and by an SDK).
  'anonymous': {
    appName: 'checkout-api',
    remoteAddress: '10.0.0.1',
    properties: { tenantId: 'globex', appVersion: '3.0.0', accountAgeDays: '100', country: 'DE' },
  },
  // Case-insensitive STR_ENDS_WITH on the user id, tenant stickiness for pricing's variants, 365 days (NUM_LT fails).
  'Bob in capitals': {
    appName: 'checkout-web',
    userId: 'Bob@EXAMPLE.COM',
    remoteAddress: '192.168.1.11',
    properties: { tenantId: 'acme', appVersion: '2.0.0', accountAgeDays: '365', country: 'DE' },
  },
  // The same user in and out of the gates as dana but with a test account: STR_CONTAINS inverted, erin gets green.
  'erin, test, no properties': {
    appName: 'checkout-api',
    userId: 'erin.test@example.com',
  },
};

/** Why the engine and the playground may answer differently: each a reason a reader can check. */
const LEGITIMATE = {
  chance:
    'drawn at random: the server picks a bucket at random when the stickiness field is missing from the context (default stickiness with neither userId nor sessionId); the engine answers unknown',
  chanceVariant: 'variant drawn at random by the server (nothing in the context to stick to); the engine answers unknown',
  disabledStrategy: 'a disabled strategy: the playground does not run it (unevaluated, unknown); the engine skips it, as an SDK never receives it',
  order:
    'which strategy decides is not in an export file (no sortOrder; the extension lists strategies by name): two strategies hold and one has variants, so the engine answers the variant unknown (the outcome is known)',
  parentVariant: 'the child requires a variant of its parent, and the engine knows the parent is on but not its variant (see order)',
  hostname: 'applicationHostname: the application host is not known to the editor (the playground cannot run it either)',
} as const;
type Legitimate = keyof typeof LEGITIMATE;

interface Tally {
  comparisons: number;
  agreed: number;
  /** Comparisons with a difference that has a named reason, by reason. */
  explained: Map<Legitimate, string[]>;
  /** Differences with no reason: the test fails with these. */
  unexplained: string[];
  strategies: number;
  constraints: number;
}

function client(): UnleashClient {
  return new UnleashClient({ baseUrl: unleash.current.url, getToken: () => unleash.current.adminToken, retryBaseMs: 10, timeoutMs: 60_000 });
}

/** The engine's model from the extension's own exports: one file per environment, read back as offline mode does. */
async function exportedModel(reader: UnleashClient, folder: string): Promise<{ model: EvaluationModel; exports: Map<string, ExportResult> }> {
  const files: { path: string; result: ExportResult }[] = [];
  const exports = new Map<string, ExportResult>();
  for (const environment of SEED.environments) {
    const written = await exportToFile({ client: reader, environment, scope: { kind: 'all' }, folder });
    let result = await parseExportFile(await fsp.readFile(written.path));
    if (written.segmentsPath) {
      const { definitions } = await takeSegments(await fsp.readFile(written.segmentsPath), new TimeSlices());
      const byId = new Map((result.segmentDefinitions ?? []).map((definition) => [definition.id, definition]));
      for (const definition of definitions) byId.set(definition.id, definition);
      result = { ...result, segmentDefinitions: [...byId.values()] };
    }
    files.push({ path: written.path, result });
    exports.set(environment, result);
  }
  return { model: modelOfExports(files), exports };
}

/**
 * The same model with every environment on and no parents: what each strategy answers whatever the flag's switch and
 * parents say, as the playground shows strategies of a flag that is off or whose parent is not as required.
 */
function strategiesOnly(model: EvaluationModel): EvaluationModel {
  const flags = new Map<string, FlagModel>();
  for (const [name, flag] of model.flags) {
    const environments = new Map([...flag.environments].map(([environment, config]) => [environment, { ...config, enabled: true }]));
    flags.set(name, { ...flag, dependencies: [], environments });
  }
  return { ...model, flags };
}

const stateOf = (outcome: StrategyResult['outcome']): PlaygroundState | 'skipped' => (outcome === 'enabled' ? true : outcome === 'disabled' ? false : outcome === 'unknown' ? 'unknown' : 'skipped');

/** A reason for an engine answer of unknown that the server answers as true or false. */
function unknownReason(reason: Reason | undefined): Legitimate | undefined {
  return reason === 'byChance' ? 'chance' : reason === 'hostnameUnknown' ? 'hostname' : undefined;
}

/** What tells a strategy from the others of its environment when it has no id: name, title, constraints' fields and operators, segments. */
const signatureOf = (strategy: { name: string; title?: string | null; constraints: readonly { contextName: string; operator: string }[]; segments: readonly { id: number }[] }) =>
  JSON.stringify([strategy.name, strategy.title ?? null, strategy.constraints.map((constraint) => [constraint.contextName, constraint.operator]), strategy.segments.map((segment) => segment.id)]);

/**
 * The engine's strategy for one of the playground's. The extension's export file carries no strategy ids (exportLayout.ts
 * leaves them out: an import gives new ones) and lists strategies sorted by name, not in the server's order: so by
 * what the strategy is, when that is unique in both lists; by order only when it is not (never in the seed).
 */
function matchOf(strategy: PlaygroundStrategy, at: number, mine: readonly StrategyResult[], theirs: readonly PlaygroundStrategy[]): StrategyResult | undefined {
  const signature = signatureOf(strategy);
  const candidates = mine.filter((candidate) => signatureOf({ ...candidate, constraints: candidate.constraints.map((result) => result.constraint) }) === signature);
  const rivals = theirs.filter((other) => signatureOf(other) === signature);
  if (candidates.length === 1 && rivals.length === 1) return candidates[0];
  return mine[at];
}

/**
 * Why the engine answers a variant unknown: more than one strategy holds and their order is not known (`order`), or
 * the deciding strategy's or the flag's variants stick to nothing in the context (`chanceVariant`).
 */
function variantUnknownReason(engine: FlagEvaluation, orderKnown: boolean): Legitimate | undefined {
  const holding = engine.strategies.filter((strategy) => strategy.outcome === 'enabled' || strategy.outcome === 'unknown');
  if (!orderKnown && holding.length > 1) return 'order';
  const decider = engine.decidedBy === undefined ? undefined : engine.strategies[engine.decidedBy];
  if (decider?.variant === 'unknown' || decider?.variant === undefined) return 'chanceVariant';
  return undefined;
}

function compareOne(label: string, engine: FlagEvaluation, strategiesExplained: FlagEvaluation, server: PlaygroundEvaluation, orderKnown: boolean, tally: Tally): void {
  const differences: string[] = [];
  const reasons = new Set<Legitimate>();
  const differ = (what: string, reason: Legitimate | undefined) => {
    if (reason) reasons.add(reason);
    else differences.push(what);
  };

  // The flag's outcome.
  const engineEnabled: Tristate = engine.enabled;
  if (engineEnabled !== server.enabled) {
    const parentUnknown = engine.dependencies.some((dependency) => dependency.result === 'unknown' && dependency.parentEnabled === true && dependency.parentVariant === 'unknown');
    const why = engineEnabled === 'unknown' ? (unknownReason(engine.reason) ?? (parentUnknown ? 'parentVariant' : undefined)) : undefined;
    differ(`outcome: engine ${String(engineEnabled)} (${engine.reason ?? '-'}), playground ${String(server.enabled)}`, why);
  }

  // The variant, where the server is certain and the outcomes agree.
  if (engineEnabled === server.enabled) {
    if (engine.variant === 'unknown') {
      if (server.enabled !== 'unknown') differ(`variant: engine unknown, playground ${server.variant.name}`, variantUnknownReason(engine, orderKnown));
    } else if (engine.variant.name !== server.variant.name) differ(`variant: engine ${engine.variant.name}, playground ${server.variant.name}`, undefined);
  }

  // Strategy by strategy (by id where both have it, else by order), constraint by constraint, segment by segment.
  const mine = strategiesExplained.strategies;
  const theirs = server.strategies;
  if (mine.length !== theirs.length) differ(`strategies: engine ${mine.length}, playground ${theirs.length}`, undefined);
  theirs.forEach((strategy, at) => {
    const match = matchOf(strategy, at, mine, theirs);
    const name = `strategy ${strategy.title ?? strategy.name} (${strategy.id})`;
    if (!match) {
      differ(`${name}: not in the engine's model`, undefined);
      return;
    }
    tally.strategies += 1;
    const state = stateOf(match.outcome);
    if (state === 'skipped' || strategy.disabled) {
      if (!(state === 'skipped' && strategy.disabled && strategy.enabled === 'unknown')) differ(`${name}: engine ${match.outcome}, playground disabled=${strategy.disabled} ${String(strategy.enabled)}`, undefined);
      else reasons.add('disabledStrategy');
      return;
    }
    if (state !== strategy.enabled) differ(`${name}: engine ${String(state)} (${match.reason ?? '-'}), playground ${String(strategy.enabled)}`, state === 'unknown' ? unknownReason(match.reason) : undefined);
    const constraintsOf = (list: readonly { result: boolean }[]) => list.map((constraint) => constraint.result);
    tally.constraints += strategy.constraints.length;
    if (JSON.stringify(constraintsOf(match.constraints)) !== JSON.stringify(constraintsOf(strategy.constraints))) {
      differ(`${name}: constraints engine ${JSON.stringify(constraintsOf(match.constraints))}, playground ${JSON.stringify(constraintsOf(strategy.constraints))}`, undefined);
    }
    for (const segment of strategy.segments) {
      const own = match.segments.find((candidate) => candidate.id === segment.id);
      tally.constraints += segment.constraints.length;
      if (!own) differ(`${name}: segment ${segment.name} not in the engine's model`, undefined);
      else if (own.result !== segment.result || JSON.stringify(constraintsOf(own.constraints)) !== JSON.stringify(constraintsOf(segment.constraints))) {
        differ(`${name}: segment ${segment.name} engine ${String(own.result)} ${JSON.stringify(constraintsOf(own.constraints))}, playground ${String(segment.result)} ${JSON.stringify(constraintsOf(segment.constraints))}`, undefined);
      }
    }
  });

  tally.comparisons += 1;
  if (differences.length) tally.unexplained.push(`${label}: ${differences.join('; ')}`);
  else if (reasons.size === 0 || [...reasons].every((reason) => reason === 'disabledStrategy')) tally.agreed += 1;
  for (const reason of reasons) {
    let list = tally.explained.get(reason);
    if (!list) tally.explained.set(reason, (list = []));
    list.push(label);
  }
}

/** The engine's context for a playground context (the properties as top-level fields, as readContext takes them). */
function engineContext(context: PlaygroundContext) {
  const { properties, ...fields } = context;
  const intake = readContext({ ...fields, ...properties });
  assert.deepEqual(intake.notes, []);
  return intake.context;
}

describe('the offline engine agrees with the playground on every seeded flag', () => {
  let folder: string;
  let model: EvaluationModel;
  let exports: Map<string, ExportResult>;
  const answers = new Map<string, PlaygroundResult>();
  const readers: UnleashClient[] = [];

  before(async () => {
    folder = await fsp.mkdtemp(path.join(tmpdir(), 'evaluation-crosscheck-'));
    const reader = client();
    readers.push(reader);
    ({ model, exports } = await exportedModel(reader, folder));
    for (const [name, context] of Object.entries(CONTEXTS)) {
      answers.set(name, await reader.playground({ environments: [...SEED.environments], projects: '*', context }));
    }
  });

  after(async () => {
    await Promise.all(readers.map((reader) => reader.close()));
    if (folder) await fsp.rm(folder, { recursive: true, force: true });
  });

  it('the exports hold every live seeded flag in both environments (the archived one is neither in the playground nor compared)', () => {
    for (const flag of LIVE_FLAGS) for (const environment of SEED.environments) assert.ok(model.flags.get(flag.name)?.environments.has(environment), `${flag.name} in ${environment}`);
    for (const [name, result] of answers) assert.deepEqual(result.flags.map((flag) => flag.name).sort(), LIVE_FLAGS.map((flag) => flag.name).sort(), name);
    assert.ok(exports.size === SEED.environments.length);
  });

  it('flag by flag, environment by environment, context by context', (t) => {
    const tally: Tally = { comparisons: 0, agreed: 0, explained: new Map(), unexplained: [], strategies: 0, constraints: 0 };
    const shown = strategiesOnly(model);
    for (const [name, context] of Object.entries(CONTEXTS)) {
      const evaluator = new FlagEvaluator(model, engineContext(context));
      const strategiesEvaluator = new FlagEvaluator(shown, engineContext(context));
      const result = answers.get(name) as PlaygroundResult;
      for (const flag of LIVE_FLAGS) {
        for (const environment of SEED.environments) {
          const evaluations = result.flags.find((candidate) => candidate.name === flag.name)?.environments.find((candidate) => candidate.name === environment)?.evaluations ?? [];
          assert.equal(evaluations.length, 1, `${flag.name} in ${environment} for ${name}`);
          const label = `${flag.name} in ${environment} for ${name}`;
          const orderKnown = model.flags.get(flag.name)?.environments.get(environment)?.strategyOrderKnown ?? true;
          compareOne(label, evaluator.explain(flag.name, environment), strategiesEvaluator.explain(flag.name, environment), evaluations[0] as PlaygroundEvaluation, orderKnown, tally);
        }
      }
    }
    t.diagnostic(`${unleash.current.version}: ${tally.comparisons} flag × environment × context comparisons, ${tally.agreed} agreed outright, ${tally.strategies} strategies and ${tally.constraints} constraints compared`);
    for (const [reason, labels] of tally.explained) t.diagnostic(`${reason} (${labels.length}): ${LEGITIMATE[reason]}: ${labels.join(', ')}`);
    assert.equal(tally.comparisons, LIVE_FLAGS.length * SEED.environments.length * Object.keys(CONTEXTS).length);
    assert.deepEqual(tally.unexplained, []);
  });
});
