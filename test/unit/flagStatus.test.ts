/**
 * One truth per flag: the listing row says `initial` (a real server picks the stage by timestamp), the details say
 * `completed (kept)`; once the details are read, the tree row, its tooltip, the Lifecycle row and the hover all
 * read `completed (kept)`. Archived shows the same way everywhere.
 *   node --import tsx --test test/unit/flagStatus.test.ts
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Feature, FeatureSummary, Segment } from '../../src/api/schemas';
import { flagStatus } from '../../src/model/flagStatus';
import type { FlagSource } from '../../src/model/flagSource';
import { FlagStore } from '../../src/model/flagStore';
import { hoverMarkdown } from '../../src/model/hoverContent';
import { childrenOf, type TreeNode } from '../../src/model/tree';
import { describeLifecycle, lifecycleStage } from '../../src/model/wording';

const NOW = new Date('2026-11-23T10:00:00.000Z');
const AT = '2026-11-20T08:00:00.000Z';

const listed: FeatureSummary = {
  name: 'old-promo',
  project: 'default',
  type: 'release',
  stale: false,
  environments: [{ name: 'development', enabled: true }],
  lifecycle: { stage: 'initial', enteredStageAt: AT },
};
const details: Feature = {
  name: 'old-promo',
  project: 'default',
  type: 'release',
  stale: false,
  archived: false,
  environments: [{ name: 'development', enabled: true, strategies: [] }],
  lifecycle: { stage: 'completed', status: 'kept', enteredStageAt: AT },
};

class Source implements FlagSource {
  readonly kind = 'server' as const;
  readonly label = 'unleash.example.com';
  constructor(private readonly summaries: FeatureSummary[], private readonly features: Feature[]) {}
  async listFeatures(): Promise<FeatureSummary[]> {
    return this.summaries;
  }
  async getFeature(_project: string, name: string): Promise<Feature> {
    const feature = this.features.find((f) => f.name === name);
    if (!feature) throw new Error(`no ${name}`);
    return feature;
  }
  async getStrategySegments(): Promise<Segment[]> {
    return [];
  }
  async listEnvironments(): Promise<string[]> {
    return ['development'];
  }
}

async function storeOver(summaries: FeatureSummary[], features: Feature[]): Promise<FlagStore> {
  const store = new FlagStore({ info() {}, error() {} });
  void store.load(); // needed from the start: setSource reads the list
  await store.setSource(new Source(summaries, features), 'ready');
  return store;
}

const lastParagraph = (tooltip: string | undefined) => tooltip?.split('\n\n').at(-1);

describe('lifecycle wording', () => {
  it('names the outcome of a completed flag', () => {
    assert.equal(lifecycleStage({ stage: 'completed', status: 'kept', enteredStageAt: AT }), 'completed (kept)');
    assert.equal(lifecycleStage({ stage: 'completed', status: 'discarded', enteredStageAt: AT }), 'completed (discarded)');
    assert.equal(lifecycleStage({ stage: 'live', enteredStageAt: AT }), 'live');
    assert.equal(describeLifecycle({ stage: 'completed', status: 'discarded', enteredStageAt: AT }), 'completed (discarded) since 2026-11-20');
    assert.equal(lifecycleStage({ stage: 'completed', status: 'kept\u202e\u0007', enteredStageAt: AT }), 'completed (kept)');
  });

  it('takes the details over the listing row, and archived from either', () => {
    assert.deepEqual(flagStatus(listed), { stale: false, archived: false, lifecycle: listed.lifecycle });
    assert.deepEqual(flagStatus(listed, details), { stale: false, archived: false, lifecycle: details.lifecycle });
    assert.deepEqual(flagStatus(listed, { ...details, lifecycle: null }), { stale: false, archived: false, lifecycle: listed.lifecycle });
    assert.equal(flagStatus({ ...listed, archivedAt: AT }).archived, true);
    assert.equal(flagStatus(listed, { ...details, archived: true }).archived, true);
    assert.equal(flagStatus({ lifecycle: { stage: 'archived', enteredStageAt: AT } }).archived, true);
    assert.equal(flagStatus({ ...listed, stale: true }, { ...details, stale: false }).stale, false);
  });
});

describe('one truth per flag', () => {
  it('the row follows the details: row, tooltip, Lifecycle row and hover read `completed (kept)`', async () => {
    const store = await storeOver([listed], [details]);
    const loaded: string[] = [];
    store.onDidLoadDetails((ref) => loaded.push(`${ref.project}/${ref.name}`));
    const [row] = (await childrenOf(undefined, store)) as [TreeNode];
    // Before the details: the listing's stage.
    assert.equal(row.description, 'd● · initial');
    assert.equal(lastParagraph(row.tooltip), 'Lifecycle: initial since 2026\\-11\\-20');

    const children = await childrenOf(row, store);
    assert.deepEqual(loaded, ['default/old-promo']);
    const lifecycle = children.find((node) => node.kind === 'lifecycle');
    assert.equal(lifecycle?.description, 'completed (kept) since 2026-11-20');
    assert.equal(row.description, 'd● · completed (kept)');
    assert.equal(lastParagraph(row.tooltip), 'Lifecycle: completed \\(kept\\) since 2026\\-11\\-20');
    assert.equal(row.accessibleLabel, 'old-promo, development enabled, completed (kept)');

    const hover = hoverMarkdown({ matches: [{ summary: listed, details }], sourceLabel: 'unleash.example.com', now: NOW });
    assert.equal(hover.split('\n\n')[1], 'Lifecycle: completed \\(kept\\) since 2026\\-11\\-20');
  });

  it('an archived flag reads archived in row, tooltip and hover, greyed out', async () => {
    const archived: FeatureSummary = { ...listed, lifecycle: { stage: 'archived', enteredStageAt: AT } };
    const store = await storeOver([archived], []);
    const [row] = (await childrenOf(undefined, store)) as [TreeNode];
    assert.equal(row.description, 'd● · archived');
    assert.equal(row.contextValue, 'feature:enabled:archived');
    assert.equal(row.icon?.color, 'disabledForeground');
    assert.equal(lastParagraph(row.tooltip), 'Archived · Lifecycle: archived since 2026\\-11\\-20');
    const hover = hoverMarkdown({ matches: [{ summary: archived, detailsState: 'unavailable' }], sourceLabel: 'x', now: NOW });
    assert.equal(hover.split('\n\n')[1], '**Archived** · Lifecycle: archived since 2026\\-11\\-20');
  });
});
