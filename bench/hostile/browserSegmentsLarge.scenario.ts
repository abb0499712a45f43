/** Finding 6 of issue 39 in the browser build: the export with its 38 MB `.segments` file, read on the host's thread in slices. */
import { browserStore } from './offline';
import type { HostileScenario } from './scenario';
import { writeSegmentsCase } from './segmentsLarge.scenario';

export const scenario: HostileScenario = {
  finding: '39.6',
  input: "the browser build: a repository's export with a 38 MB .segments file of 20,000 segments: load, then a strategy's segments",
  async prepare(dir) {
    writeSegmentsCase(dir);
    return {};
  },
  async run(dir) {
    const store = await browserStore(dir);
    const feature = await store.feature('default', 'segmented');
    const strategy = feature.environments?.[0]?.strategies?.[0];
    const segments = strategy?.id ? await store.strategySegments(strategy.id) : [];
    return `${store.state}: ${store.catalog.size} flag; segments ${segments.map((segment) => segment.name).join(', ')}`;
  },
  expect: /^ready: 1 flag; segments segment-1, segment-2, segment-3, segment-19998, segment-19999$/,
};
