import type { HostileScenario } from './scenario';
import { browserStore } from './offline';
import { GIGABYTE_OF_EXPORTS, writeGigabyteOfExports } from './offlineGigabyte.scenario';
import { viewMessage } from '../../src/model/tree/commandData';
import { rootNodes } from '../../src/model/tree/root';

/** offlineGigabyte's files, read by the browser build's connection: the same budget, the committed exports' note first. */
export const scenario: HostileScenario = {
  finding: 3,
  input: `the browser build: 1 GB of committed export files, ${GIGABYTE_OF_EXPORTS}`,
  prepare: writeGigabyteOfExports,
  async run(dir) {
    const store = await browserStore(dir);
    return `${store.state}: ${rootNodes(store).length} rows at the root, ${store.catalog.size} flags from ${store.currentSource?.label}; message: ${viewMessage(store) ?? 'none'}`;
  },
  expect:
    /^ready: \d+ rows at the root, \d{5} flags from \.unleash\/production-1\.json; message: These are the flags of the export files committed to the workspace \(\.unleash\/\*\.json\); the newest file is dated .* Export again in desktop VS Code to update them\. Not read: \.unleash\/zz-sparse-1\.json, .* \(larger than 100 MB\); \.unleash\/production-2\.json, .* \(past 100 MB for all files together\)\. At most 32 files, 100 MB together, are read: move the others out of \.unleash\/\.$/,
};
