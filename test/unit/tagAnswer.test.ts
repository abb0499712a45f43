/**
 * What Check Tag says when the tag exists, checked against what the Flags view could read: a list that failed,
 * misses projects, is an earlier refresh's or could not be proven complete never claims that no flag carries it.
 *   node --import tsx --test test/unit/tagAnswer.test.ts
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HttpError, NetworkError } from '../../src/api/errors';
import type { FeatureSummary, Segment } from '../../src/api/schemas';
import type { FlagSource } from '../../src/model/store/flagSource';
import { FlagStore } from '../../src/model/store/flagStore';
import { listCompleteness, tagExistsMessage } from '../../src/model/tags/tagAnswer';

const TAG = 'owner-team:team/sub';

describe('Check Tag: the answer for a tag that exists', () => {
  it('a complete list: how many of its flags carry the tag, in grammatical sentences', () => {
    const complete = { kind: 'complete' } as const;
    assert.equal(tagExistsMessage(TAG, 0, complete), 'Tag owner-team:team/sub exists; no flag in the Flags view carries it.');
    assert.equal(tagExistsMessage(TAG, 1, complete), 'Tag owner-team:team/sub exists (1 flag in the Flags view carries it).');
    assert.equal(tagExistsMessage(TAG, 3, complete), 'Tag owner-team:team/sub exists (3 flags in the Flags view carry it).');
  });

  it('a list that is not complete says what it could not see, never that no flag carries the tag', () => {
    assert.equal(
      tagExistsMessage(TAG, 0, { kind: 'failed', reason: 'Could not load the flags. unleash.example.com failed (500). Try again.' }),
      'Tag owner-team:team/sub exists. Which flags carry it is not known: Could not load the flags. unleash.example.com failed (500). Try again.',
    );
    assert.equal(
      tagExistsMessage(TAG, 0, { kind: 'missingProjects', projects: ['checkout'] }),
      'Tag owner-team:team/sub exists; none of the flags the Flags view could read carries it. The flags of project checkout could not be read; some of them may carry it.',
    );
    assert.equal(
      tagExistsMessage(TAG, 2, { kind: 'missingProjects', projects: ['checkout', 'odd'] }),
      'Tag owner-team:team/sub exists (2 flags in the Flags view carry it). The flags of projects checkout, odd could not be read; some of them may carry it.',
    );
    assert.equal(
      tagExistsMessage(TAG, 1, { kind: 'outOfDate' }),
      'Tag owner-team:team/sub exists (1 flag in the Flags view carries it). The Flags view shows the flags of an earlier refresh (the last one failed); refresh it to count again.',
    );
    assert.equal(
      tagExistsMessage(TAG, 0, { kind: 'unchecked', note: 'The list may be incomplete: searches are refused for now (429).' }),
      'Tag owner-team:team/sub exists; none of the flags the Flags view could read carries it. The Flags view may not hold every flag: The list may be incomplete: searches are refused for now (429).',
    );
  });
});

describe('Check Tag: how complete the list is, from the store', () => {
  class Source implements FlagSource {
    readonly kind = 'server' as const;
    readonly label = 'unleash.example.com';
    listingNote: string | undefined;
    failedProjects: FlagSource['failedProjects'] = [];
    next: Promise<FeatureSummary[]> = Promise.resolve([{ name: 'a', project: 'default', tags: [{ type: 'owner-team', value: 'team/sub' }] }]);
    listFeatures(): Promise<FeatureSummary[]> {
      return this.next;
    }
    async getFeature(): Promise<never> {
      throw new Error('not read');
    }
    async getStrategySegments(): Promise<Segment[]> {
      return [];
    }
    async listEnvironments(): Promise<string[]> {
      return [];
    }
  }

  async function storeOver(source: Source): Promise<FlagStore> {
    const store = new FlagStore({ info() {}, error() {} });
    void store.load();
    await store.setSource(source, 'ready');
    return store;
  }

  it('failed, missing a project, out of date, unchecked, complete', async () => {
    const failing = new Source();
    failing.next = Promise.reject(new NetworkError('GET /api/admin/search/features', 'ECONNREFUSED', 'connect ECONNREFUSED'));
    const failed = listCompleteness(await storeOver(failing));
    assert.equal(failed.kind, 'failed');
    assert.match(failed.kind === 'failed' ? failed.reason : '', /^Could not load the flags\. Could not connect to unleash\.example\.com: connection refused\./);

    const source = new Source();
    const store = await storeOver(source);
    assert.deepEqual(listCompleteness(store), { kind: 'complete' });
    source.failedProjects = [{ project: 'checkout', error: new HttpError({ status: 500, request: 'GET x' }), searchError: new HttpError({ status: 500, request: 'GET y' }) }];
    await store.refresh();
    assert.deepEqual(listCompleteness(store), { kind: 'missingProjects', projects: ['checkout'] });
    source.failedProjects = [];
    source.listingNote = 'The list may be incomplete: searches are refused for now (429).';
    await store.refresh();
    assert.deepEqual(listCompleteness(store), { kind: 'unchecked', note: source.listingNote });
    source.next = Promise.reject(new HttpError({ status: 502, request: 'GET z' }));
    await store.refresh();
    assert.deepEqual(listCompleteness(store), { kind: 'outOfDate' });
    store.dispose();
  });
});
