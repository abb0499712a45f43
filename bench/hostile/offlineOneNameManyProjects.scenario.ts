/** Finding 4 of issue 39: one flag name in 320,000 projects of a repository's export file; the Flags view's root rows. */
import { viewMessage } from '../../src/model/tree/commandData';
import { rootNodes } from '../../src/model/tree/root';
import { namesExport, offlineStore, writeExport } from './offline';
import type { HostileScenario } from './scenario';

const PROJECTS = 320_000;

export const scenario: HostileScenario = {
  finding: '39.4',
  input: `a repository's export file naming one flag in ${PROJECTS.toLocaleString('en-US')} projects (Restricted Mode): the Flags view's root`,
  async prepare(dir) {
    writeExport(dir, 'production.json', namesExport(Array.from({ length: PROJECTS }, () => 'same'), (i) => `p${String(i).padStart(6, '0')}`));
    return {};
  },
  async run(dir) {
    const store = await offlineStore(dir, { trusted: false });
    return `${store.state}: ${store.catalog.size} flags, ${rootNodes(store).length} rows at the root; message: ${viewMessage(store) ?? 'none'}`;
  },
  expect: /^ready: 1000 flags, 1000 rows at the root; message: Showing part of \.unleash\/production\.json: the first 100,000 of 320,000 flags, "same" in 1,000 of its 100,000 projects, 1 more cut\./,
};
