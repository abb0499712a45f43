/**
 * A flag catalog for tests of what src/model/ builds from it (the tree, the flag commands' data): a FlagSource that
 * counts its calls, over the fixtures of a 7.5.1 server (test/fixtures/) and the flags around them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { featureSchema, featureSearchSchema, segmentsSchema, type Feature, type FeatureSummary, type Segment } from '../../src/api/schemas';
import type { FlagSource } from '../../src/model/store/flagSource';
import { FlagStore } from '../../src/model/store/flagStore';
import { childrenOf } from '../../src/model/tree/children';
import type { TreeNode } from '../../src/model/tree/node';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
export const fixture = (name: string): unknown => JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8'));
/** The clock of the tree: "last seen" and lifecycle dates are worded against it. */
export const treeOptions = { now: () => new Date('2026-11-23T10:00:00.000Z') };
export const quiet = { info() {}, error() {} };

interface Calls {
  listFeatures: number;
  getFeature: string[];
  getStrategySegments: string[];
}

export class FakeSource implements FlagSource {
  readonly kind: 'server' | 'files';
  readonly label: string;
  readonly calls: Calls = { listFeatures: 0, getFeature: [], getStrategySegments: [] };
  /** Thrown by getFeature while set. */
  failure: unknown;

  constructor(
    private readonly summaries: FeatureSummary[],
    private readonly details: Map<string, Feature>,
    private readonly segments: Map<string, Segment[]>,
    private readonly web: ((project: string, name: string) => string) | undefined = (project, name) =>
      `https://unleash.example.com/projects/${project}/features/${name}`,
    kind: 'server' | 'files' = 'server',
    label = 'unleash.example.com',
  ) {
    this.kind = kind;
    this.label = label;
    if (web === undefined) delete (this as Partial<FlagSource>).webUrl;
  }

  async listFeatures(): Promise<FeatureSummary[]> {
    this.calls.listFeatures++;
    return this.summaries;
  }

  async getFeature(project: string, name: string): Promise<Feature> {
    this.calls.getFeature.push(`${project}/${name}`);
    if (this.failure) throw this.failure;
    const feature = this.details.get(`${project}/${name}`);
    if (!feature) throw new Error(`no details for ${project}/${name}`);
    return feature;
  }

  async getStrategySegments(strategyId: string): Promise<Segment[]> {
    this.calls.getStrategySegments.push(strategyId);
    return this.segments.get(strategyId) ?? [];
  }

  async listEnvironments(): Promise<string[]> {
    return ['development', 'production'];
  }

  webUrl(project: string, name: string): string | undefined {
    return this.web?.(project, name);
  }
}

const SEARCH = featureSearchSchema.parse(fixture('search-page.json')).features;
export const CHECKOUT = featureSchema.parse(fixture('feature-7.5.1.json'));
const SEGMENTS = segmentsSchema.parse(fixture('segments.json')).segments;
export const STRATEGY_ID = '9de655a1-6b8f-4b47-9a3e-0c1f7e1c2a10';

export const env = (name: string, enabled: boolean, sortOrder: number) => ({ name, enabled, type: name, sortOrder });

export function summary(name: string, extra: Partial<FeatureSummary> = {}): FeatureSummary {
  return {
    name,
    project: 'default',
    type: 'release',
    description: null,
    stale: false,
    environments: [env('development', true, 100), env('production', false, 200)],
    ...extra,
  };
}

/** The catalog of the main tests: the fixture flag and its neighbours, one project. */
export function mainSource(): FakeSource {
  const summaries: FeatureSummary[] = [
    ...SEARCH,
    summary('new-checkout-flow-ui', { description: 'UI of the new checkout flow' }),
    summary('checkout-kill-switch', {
      type: 'kill-switch',
      stale: true,
      environments: [env('production', true, 200), env('development', false, 100)],
      lifecycle: { stage: 'live', enteredStageAt: '2026-10-01T00:00:00.000Z' },
    }),
    summary('admin-panel', { type: 'permission' }),
    summary('ops-log-level', { type: 'operational' }),
    summary('pricing-experiment', { type: 'experiment', archived: true }),
    summary('zz-custom', { type: 'custom-type', environments: [] }),
  ];
  const ui: Feature = {
    name: 'new-checkout-flow-ui',
    project: 'default',
    type: 'release',
    environments: [{ name: 'development', enabled: true, sortOrder: 100, strategies: [] }],
    dependencies: [{ feature: 'new-checkout-flow', enabled: true, variants: ['blue'] }],
  };
  return new FakeSource(
    summaries,
    new Map([
      ['default/new-checkout-flow', CHECKOUT],
      ['default/new-checkout-flow-ui', ui],
    ]),
    new Map([[STRATEGY_ID, SEGMENTS]]),
  );
}

export async function storeOver(source: FlagSource): Promise<FlagStore> {
  const store = new FlagStore(quiet);
  void store.load(); // needed from the start: setSource reads the list
  await store.setSource(source, 'ready');
  return store;
}

/** The children VS Code asks for when a row (or, undefined, the root) is expanded. */
export async function expand(node: TreeNode | undefined, store: FlagStore): Promise<TreeNode[]> {
  return childrenOf(node, store, undefined, treeOptions);
}

export function byLabel(nodes: TreeNode[], label: string): TreeNode {
  const node = nodes.find((candidate) => candidate.label === label);
  assert.ok(node, `no row "${label}" among ${JSON.stringify(nodes.map((n) => n.label))}`);
  return node;
}
