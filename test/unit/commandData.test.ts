/**
 * src/model/tree/commandData.ts: what the flag commands compute without 'vscode' (which flag an argument means,
 * the Find in Files query, the Find Flag quick pick), over the shared flag catalog.
 *   node --import tsx --test test/unit/commandData.test.ts
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { flagPickItems, flagRefOf } from '../../src/model/tree/commandData';
import { MAX_DETAIL, MAX_LABEL } from '../../src/model/text/plainText';
import { byLabel, expand, mainSource, storeOver } from '../support/flagCatalog';
import { assertClean, hostileSource } from '../support/hostileFlags';

describe('flag commands: arguments, Find in Files, quick pick', () => {
  it('take a node, a ref, (project, name) or a name', async () => {
    const store = await storeOver(mainSource());
    const flag = byLabel(await expand(undefined, store), 'admin-panel');
    assert.deepEqual(flagRefOf(store, flag), { project: 'default', name: 'admin-panel' });
    assert.deepEqual(flagRefOf(store, { project: 'p', name: 'n' }), { project: 'p', name: 'n' });
    assert.deepEqual(flagRefOf(store, 'p', 'n'), { project: 'p', name: 'n' });
    assert.deepEqual(flagRefOf(store, 'ops-log-level'), { project: 'default', name: 'ops-log-level' });
    assert.deepEqual(flagRefOf(store, { name: 'ops-log-level' }), { project: 'default', name: 'ops-log-level' });
    assert.equal(flagRefOf(store, 'no-such-flag'), undefined);
    assert.equal(flagRefOf(store, undefined), undefined);
    assert.equal(flagRefOf(store, 42), undefined);
    // An environment row belongs to its flag.
    const development = (await expand(byLabel(await expand(undefined, store), 'new-checkout-flow'), store))[0];
    assert.deepEqual(flagRefOf(store, development), { project: 'default', name: 'new-checkout-flow' });
  });

  it('the quick pick lists every flag with project, environments and description', async () => {
    const store = await storeOver(mainSource());
    const items = flagPickItems(store);
    assert.equal(items.length, 7);
    assert.deepEqual(items.find((item) => item.label === 'new-checkout-flow'), {
      label: 'new-checkout-flow',
      description: 'default · development ● production ○',
      detail: 'The new checkout, step by step',
      flag: { project: 'default', name: 'new-checkout-flow' },
    });
  });

  it('hostile names stay bounded in the quick pick', async () => {
    const store = await storeOver(hostileSource());
    const items = flagPickItems(store);
    for (const item of items) {
      assertClean(item.label, MAX_LABEL + 20, 'pick label');
      assertClean(item.description, MAX_DETAIL, 'pick description');
      assertClean(item.detail, MAX_DETAIL + 50, 'pick detail');
      assert.ok(!/(^|[^\\])\$\(/.test(`${item.label} ${item.description} ${item.detail ?? ''}`), 'unescaped $( in a pick');
    }
  });
});
