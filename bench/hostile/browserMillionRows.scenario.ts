/** Finding 4 of issue 39 in the browser build: the 37 MB export of 1,000,000 minimal rows, read on the host's thread in slices. */
import { viewMessage } from '../../src/model/tree/commandData';
import { rootNodes } from '../../src/model/tree/root';
import { browserStore, writeExport } from './offline';
import { millionRows, ROWS } from './offlineMillionRows.scenario';
import type { HostileScenario } from './scenario';

export const scenario: HostileScenario = {
  finding: '39.4',
  input: `the browser build: a repository's 37 MB export of ${ROWS.toLocaleString('en-US')} minimal rows`,
  async prepare(dir) {
    writeExport(dir, 'production.json', millionRows());
    return {};
  },
  async run(dir) {
    const store = await browserStore(dir);
    return `${store.state}: ${store.catalog.size} flags, ${rootNodes(store).length} rows at the root; message: ${viewMessage(store) ?? 'none'}`;
  },
  expect: /^ready: 100000 flags, 100 rows at the root; message: These are the flags of the export files committed .*Showing part of \.unleash\/production\.json: the first 100,000 of 1,000,000 flags\./,
};
