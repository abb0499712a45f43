/**
 * The flags that are safe to remove (src/model/activity/cleanup.ts): stale, completed, or not evaluated for N days
 * (never seen counts once the flag is that old), and the prefilter that tells which files may use one of them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeatureSummary } from '../../src/api/schemas';
import { Catalog } from '../../src/model/store/catalog';
import { FlagNameIndex } from '../../src/model/code/flagNameIndex';
import { findFlagUsages } from '../../src/model/code/flagUsages';
import { cleanupCandidates, cleanupRule, describeReasons, namesIn, spellingAnchors } from '../../src/model/activity/cleanup';

const NOW = new Date('2026-11-26T12:00:00Z');
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000).toISOString();

function flag(name: string, extra: Partial<FeatureSummary> = {}): FeatureSummary {
  return { name, project: 'default', createdAt: daysAgo(400), environments: [{ name: 'production', enabled: true, lastSeenAt: daysAgo(1) }], ...extra };
}

describe('cleanupCandidates', () => {
  const catalog = new Catalog([
    flag('busy'),
    flag('old-stale', { stale: true }),
    flag('done', { lifecycle: { stage: 'completed', enteredStageAt: daysAgo(10) } }),
    flag('quiet', { environments: [{ name: 'production', enabled: true, lastSeenAt: daysAgo(45) }, { name: 'development', enabled: true, lastSeenAt: null }] }),
    flag('never-old', { environments: [{ name: 'production', enabled: false }] }),
    flag('never-new', { createdAt: daysAgo(3), environments: [{ name: 'production', enabled: false }] }),
    flag('top-level-seen', { lastSeenAt: daysAgo(2), environments: [{ name: 'production', enabled: true, lastSeenAt: daysAgo(90) }] }),
    flag('files', { createdAt: undefined, environments: [{ name: 'production', enabled: true }] }),
  ]);

  it('lists stale, completed and unused flags with why, newest evaluation first considered', () => {
    const found = cleanupCandidates(catalog, NOW, 30);
    assert.deepEqual(
      found.map((candidate) => [candidate.flag.name, describeReasons(candidate, NOW)]),
      [
        ['done', 'completed'],
        ['never-old', 'never evaluated'],
        ['old-stale', 'stale'],
        ['quiet', 'last evaluated 1 month ago'],
      ],
    );
  });

  it('0 days: only stale and completed', () => {
    assert.deepEqual(cleanupCandidates(catalog, NOW, 0).map((candidate) => candidate.flag.name), ['done', 'old-stale']);
    assert.equal(cleanupRule(0), 'marked stale, completed');
    assert.equal(cleanupRule(30), 'marked stale, completed, not evaluated for 30 days');
  });
});

describe('which files may use a candidate', () => {
  const names = ['new-checkout-flow', 'pay'];
  const index = new FlagNameIndex(['new-checkout-flow', 'pay', 'pay-later']);

  it('a file holds a token a spelling ends with, or it uses none of them', () => {
    const anchors = spellingAnchors(names, [{ kind: 'screamingSnakeToKebab' }]);
    assert.deepEqual([...namesIn("if (isEnabled('new-checkout-flow')) {}", anchors)], ['new-checkout-flow']);
    assert.deepEqual([...namesIn('const x = Flags.NEW_CHECKOUT_FLOW;', anchors)], ['new-checkout-flow']);
    assert.deepEqual([...namesIn("isEnabled('pay-later')", anchors)], []);
    assert.deepEqual([...namesIn('nothing here', anchors)], []);
  });

  it('a prefix transform: the anchor is the end of the spelling', () => {
    const anchors = spellingAnchors(['pay'], [{ kind: 'prefix', value: 'team/' }]);
    const text = "isEnabled('team/pay')";
    assert.deepEqual([...namesIn(text, anchors)], ['pay']);
    // The prefilter never hides a use the rule finds.
    assert.equal(findFlagUsages(text, 'pay', index, { transforms: [{ kind: 'prefix', value: 'team/' }] }).length, 1);
  });
});
