import type { HostileScenario } from './scenario';
import { offlineStore, writeExport } from './offline';
import { hoverMarkdown } from '../../src/model/content/hoverContent';

const ROWS = 5_000;

export const scenario: HostileScenario = {
  finding: 3,
  input: `an export file naming one flag in ${ROWS.toLocaleString('en-US')} rows of each list, with ${ROWS.toLocaleString('en-US')} tags (1.4 MB)`,
  async prepare(dir) {
    const rows = Array.from({ length: ROWS });
    writeExport(
      dir,
      'development.json',
      JSON.stringify({
        features: rows.map(() => ({ name: 'same', project: 'default' })),
        featureStrategies: rows.map((_, i) => ({ featureName: 'same', id: `s${i % 10}`, name: 'default', segments: [1] })),
        featureEnvironments: rows.map(() => ({ featureName: 'same', name: 'same', environment: 'development', enabled: true })),
        featureTags: rows.map((_, i) => ({ featureName: 'same', tagType: 'team', tagValue: `t${i}` })),
        contextFields: rows.map(() => ({ name: 'userId' })),
        segments: rows.map(() => ({ id: 1, name: 'beta' })),
        tagTypes: [],
      }),
    );
    return {};
  },
  async run(dir) {
    const store = await offlineStore(dir);
    const [summary] = store.catalog.byName('same');
    if (!summary) return `${store.state}: no flag named "same" (${store.catalog.size} flags)`;
    const details = await store.feature(summary.project ?? '', summary.name);
    const hover = hoverMarkdown({ matches: [{ summary, details }], sourceLabel: store.currentSource?.label ?? '', now: new Date() });
    const tags = (/\*\*Tags:\*\* ([^\n]*)/.exec(hover)?.[1] ?? 'no tags line').replace(/\\(.)/g, '$1');
    const strategies = details.environments?.map((env) => `${env.name}: ${env.strategies?.length} strategies`).join(', ');
    return `${store.catalog.size} flag; hover tags: ${tags}; ${strategies}`;
  },
  expect: /^1 flag; hover tags: team:t0, team:t1, .* and 4990 more; development: 5000 strategies$/,
};
