/**
 * DeferredSource: a flag source built on first need (services/connection.ts makes one per evaluation, so that a window
 * that never needs the flags never loads the core bundle nor reads a file). Before the need it shows what was known;
 * after it, the built source's answers.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeatureSummary } from '../../src/api/schemas';
import { DeferredSource } from '../../src/model/store/deferredSource';
import type { FlagSource } from '../../src/model/store/flagSource';
import { OfflineSource } from '../../src/model/store/offlineSource';
import { ServerSource } from '../../src/services/serverSource';

/** The public members of the sources the connection defers that DeferredSource lacks: none. */
type NotPassedOn = Exclude<keyof ServerSource | keyof OfflineSource, keyof DeferredSource>;

const FLAG: FeatureSummary = { name: 'new-checkout-flow', project: 'default' } as FeatureSummary;

/** A server-like source, as ServerSource answers once listed. */
function builtSource(): FlagSource {
  return {
    kind: 'server',
    label: 'unleash.example.com/api',
    listingNote: 'The list may be incomplete.',
    failedProjects: [],
    listFeatures: async () => [FLAG],
    getFeature: async (project, name) => ({ name, project }) as never,
    getStrategySegments: async () => [],
    listEnvironments: async () => ['development'],
    findArchived: async () => undefined,
    webUrl: (project, name) => `https://unleash.example.com/projects/${project}/features/${name}`,
  };
}

describe('DeferredSource', () => {
  it('builds nothing until asked for flags, and shows what was known until then', async () => {
    let builds = 0;
    const source = new DeferredSource({ kind: 'files', label: () => '.unleash/development.json', fileCount: 1 }, async () => {
      builds++;
      return builtSource();
    });
    assert.equal(builds, 0);
    assert.equal(source.label, '.unleash/development.json');
    assert.equal(source.fileCount, 1);
    assert.equal(source.listingNote, undefined);
    assert.equal(source.webUrl('default', 'new-checkout-flow'), undefined);

    assert.deepEqual(await source.listFeatures(), [FLAG]);
    assert.equal(builds, 1);
    assert.equal(source.label, 'unleash.example.com/api');
    assert.equal(source.fileCount, undefined);
    assert.equal(source.listingNote, 'The list may be incomplete.');
    assert.equal(source.webUrl('default', 'new-checkout-flow'), 'https://unleash.example.com/projects/default/features/new-checkout-flow');
  });

  it('builds once for needs that come together', async () => {
    let builds = 0;
    const source = new DeferredSource({ kind: 'server', label: () => 'host' }, async () => {
      builds++;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return builtSource();
    });
    const [features, environments, feature] = await Promise.all([
      source.listFeatures(),
      source.listEnvironments(),
      source.getFeature('default', 'new-checkout-flow'),
    ]);
    assert.equal(builds, 1);
    assert.deepEqual([features.length, environments, feature.name], [1, ['development'], 'new-checkout-flow']);
  });

  it('tries again at the next need when building failed', async () => {
    let builds = 0;
    const source = new DeferredSource({ kind: 'server', label: () => 'host' }, async () => {
      builds++;
      if (builds === 1) throw new Error('the core bundle could not be read');
      return builtSource();
    });
    await assert.rejects(source.listFeatures(), /the core bundle could not be read/);
    assert.deepEqual(await source.listFeatures(), [FLAG]);
    assert.equal(builds, 2);
  });

  it('answers every call a server source or an offline source answers (none is hidden behind the deferral)', () => {
    // Checked by the type check (`npm run typecheck`): a public member added to either source and not to
    // DeferredSource makes `NotPassedOn` name it, and this line a type error.
    const everyMemberPassedOn: [NotPassedOn] extends [never] ? true : false = true;
    assert.equal(everyMemberPassedOn, true);
  });
});
