/**
 * Flag rows at the default side bar width: a long name is cut so that the environment strip and the status stay in
 * view (VS Code would cut the description first); the tooltip and the screen-reader label keep the whole name.
 *   node --import tsx --test test/unit/rowWidth.test.ts
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Feature, FeatureSummary, Segment } from '../../src/api/schemas';
import type { FlagSource } from '../../src/model/store/flagSource';
import { FlagStore } from '../../src/model/store/flagStore';
import { childrenOf } from '../../src/model/tree/children';
import type { TreeNode } from '../../src/model/tree/node';
import { descriptionWidth, MIN_NAME, ROW_WIDTH, rowNameWidth } from '../../src/model/tree/rowWidth';

const AT = '2026-11-20T08:00:00.000Z';
const envs = [
  { name: 'development', enabled: false },
  { name: 'production', enabled: false },
];

function source(rows: FeatureSummary[]): FlagSource {
  return {
    kind: 'server',
    label: 'unleash.example.com',
    listFeatures: async () => rows,
    getFeature: async (): Promise<Feature> => {
      throw new Error('not read');
    },
    getStrategySegments: async (): Promise<Segment[]> => [],
    listEnvironments: async () => envs.map((env) => env.name),
  };
}

async function rowsOf(rows: FeatureSummary[]): Promise<TreeNode[]> {
  const store = new FlagStore({ info() {}, error() {} });
  void store.load();
  await store.setSource(source(rows), 'ready');
  const top = (await childrenOf(undefined, store)) as TreeNode[];
  const nested = await Promise.all(top.map((node) => (node.kind === 'project' ? childrenOf(node, store) : [node])));
  store.dispose();
  return nested.flat();
}

describe('flag rows at the default side bar width', () => {
  it('a long name is cut, not the strip and the status; the tooltip and screen reader keep the whole name', async () => {
    const discarded = { stage: 'completed', status: 'discarded', enteredStageAt: AT };
    const rows = await rowsOf([
      { name: 'hl-completed-discarded', project: 'hostile', environments: envs, lifecycle: discarded },
      { name: 'short', project: 'hostile', environments: envs, lifecycle: discarded },
      { name: 'a-flag-with-a-really-long-name-indeed', project: 'other', environments: envs, lifecycle: { stage: 'initial', enteredStageAt: AT } },
    ]);
    assert.deepEqual(
      rows.map((row) => `${row.label}  ${row.description}`),
      [
        'hl-completed-di…  d○ p○ · discarded',
        'short  d○ p○ · discarded',
        // A routine stage may be cut: only the strip is kept in view beside the name.
        'a-flag-with-a-really-lon…  d○ p○ · initial',
      ],
    );
    const [long] = rows;
    assert.equal(long?.accessibleLabel, 'hl-completed-discarded, development disabled, production disabled, completed (discarded)');
    assert.ok(long?.tooltip?.startsWith('**hl\\-completed\\-discarded**'), long?.tooltip);
  });

  it('the name keeps at least MIN_NAME characters; a top-level row has a little more room', () => {
    assert.equal(rowNameWidth('', true), ROW_WIDTH.inProject);
    assert.equal(rowNameWidth('d○ p○', false), Math.floor(ROW_WIDTH.topLevel - 1 - descriptionWidth('d○ p○')));
    assert.ok(rowNameWidth('d○ p○', false) > rowNameWidth('d○ p○', true));
    assert.equal(rowNameWidth(`d○ p○ · ${'x'.repeat(60)}`, true), MIN_NAME);
  });
});
