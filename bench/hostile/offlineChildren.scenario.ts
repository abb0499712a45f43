import type { HostileScenario } from './scenario';
import { offlineStore, writeExport } from './offline';
import { hoverMarkdown } from '../../src/model/content/hoverContent';
import { rootNodes } from '../../src/model/tree/root';

const CHILDREN = 10_000;

export const scenario: HostileScenario = {
  finding: 3,
  input: `an export file of ${CHILDREN.toLocaleString('en-US')} flags depending on one parent, which depends on all of them (2 MB)`,
  async prepare(dir) {
    const children = Array.from({ length: CHILDREN }, (_, i) => `child-${String(i).padStart(5, '0')}`);
    writeExport(
      dir,
      'development.json',
      JSON.stringify({
        features: [{ name: 'parent', project: 'default' }, ...children.map((name) => ({ name, project: 'default' }))],
        featureStrategies: [],
        tagTypes: [],
        dependencies: [
          ...children.map((feature) => ({ feature, dependencies: [{ feature: 'parent', enabled: true }] })),
          { feature: 'parent', dependencies: children.map((feature) => ({ feature, enabled: true })) },
        ],
      }),
    );
    return {};
  },
  async run(dir) {
    const store = await offlineStore(dir);
    const roots = rootNodes(store);
    const summary = store.catalog.byName('parent')[0];
    if (!summary) return `${store.state}: no flag named "parent" (${store.catalog.size} flags)`;
    const details = await store.feature(summary.project ?? '', summary.name);
    const hover = hoverMarkdown({ matches: [{ summary, details }], sourceLabel: store.currentSource?.label ?? '', now: new Date() });
    const line = (label: string) => (new RegExp(`\\*\\*${label}:\\*\\* ([^\\n]*)`).exec(hover)?.[1] ?? `no ${label} line`).replace(/\\(.)/g, '$1').trim();
    return `${roots.length} rows at the root; hover of parent: children ${line('Children')}; parents ${line('Parents')}`;
  },
  expect: /^11 rows at the root; hover of parent: children child-00000, child-00001, .* and 99\d\d more; parents requires child-00000 enabled; .* and 9995 more$/,
};
