/**
 * Finding 6 of issue 39: a 38 MB `.segments` file beside a repository's export was validated and indexed in one go.
 * The export holds one flag whose strategy uses 5 of the file's 20,000 segments (each with constraints of many
 * values); the store loads, and the tree expands the strategy's segments (Restricted Mode).
 */
import { segmentsPathFor } from '../../src/model/export/exportSegmentsPath';
import { offlineStore, writeExport } from './offline';
import type { HostileScenario } from './scenario';

const SEGMENTS = 20_000;

/** The export and its segments file (about 38 MB). */
export function writeSegmentsCase(dir: string): void {
  const values = Array.from({ length: 100 }, (_, i) => `user-${String(i).padStart(8, '0')}`);
  const definitions = Array.from({ length: SEGMENTS }, (_, id) => ({
    id,
    name: `segment-${id}`,
    constraints: [{ contextName: 'userId', operator: 'IN', values }],
  }));
  writeExport(dir, segmentsPathFor('production.json'), JSON.stringify({ segmentDefinitions: definitions }));
  writeExport(
    dir,
    'production.json',
    JSON.stringify({
      features: [{ name: 'segmented', project: 'default' }],
      featureStrategies: [{ featureName: 'segmented', name: 'default', segments: [1, 2, 3, 19_998, 19_999] }],
      featureEnvironments: [{ name: 'segmented', featureName: 'segmented', environment: 'production', enabled: true }],
      segments: [],
      tagTypes: [],
    }),
  );
}

export const scenario: HostileScenario = {
  finding: '39.6',
  input: `a repository's export with a 38 MB .segments file of ${SEGMENTS.toLocaleString('en-US')} segments (Restricted Mode): load, then a strategy's segments`,
  async prepare(dir) {
    writeSegmentsCase(dir);
    return {};
  },
  async run(dir) {
    const store = await offlineStore(dir, { trusted: false });
    const feature = await store.feature('default', 'segmented');
    const strategy = feature.environments?.[0]?.strategies?.[0];
    const segments = strategy?.id ? await store.strategySegments(strategy.id) : [];
    return `${store.state}: ${store.catalog.size} flag; segments ${segments.map((segment) => `${segment.name} (${segment.constraints.length} constraint)`).join(', ')}`;
  },
  expect: /^ready: 1 flag; segments segment-1 \(1 constraint\), segment-2 \(1 constraint\), segment-3 \(1 constraint\), segment-19998 \(1 constraint\), segment-19999 \(1 constraint\)$/,
};
