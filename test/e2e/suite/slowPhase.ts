/**
 * Phase `slow`: a server whose project listings take seconds (test/e2e/slowServer.ts). The Flags tree shows the
 * rows of the search page (the flags outside the projects being listed) while the listing goes on, then the whole
 * catalog, without the user doing anything.
 */
import * as assert from 'node:assert/strict';
import type { ExtensionApi } from '../../../src/extension';
import { rows, shown, waitFor, waitForState, type Steps } from './util';

export async function slowPhase(api: ExtensionApi, steps: Steps): Promise<void> {
  await steps.step('slow server: the first page is on screen while the listing is still loading', async () => {
    await waitFor('tree rows before the listing completes', () => api.store.state === 'loading' && api.store.catalog.size > 0, 20_000);
    const early = shown(await rows(api));
    assert.equal(api.store.state, 'loading', 'the listing is still going on');
    assert.deepEqual(early, ['alpha — 60 flags', 'beta — 40 flags'], 'the 100 rows of the search page');
  });

  await steps.step('slow server: then every flag, without a refresh', async () => {
    await waitForState(api, 'ready', 30_000);
    assert.deepEqual(shown(await rows(api)), ['alpha — 150 flags', 'beta — 100 flags']);
  });
}
