import type { HostileScenario } from './scenario';
import { offlineStore, realExport, writeExport } from './offline';
import { EXPORT_BUDGET } from '../../src/model/store/offlineFiles';
import { viewMessage } from '../../src/model/tree/commandData';
import { rootNodes } from '../../src/model/tree/root';

export const scenario: HostileScenario = {
  finding: 3,
  input: `one export file as large as the offline budget admits (${EXPORT_BUDGET.maxFileBytes / 2 ** 20} MB: about 51,500 flags as bench/data.ts writes them)`,
  async prepare(dir) {
    writeExport(dir, 'production.json', realExport(EXPORT_BUDGET.maxFileBytes));
    return {};
  },
  async run(dir) {
    const store = await offlineStore(dir);
    const roots = rootNodes(store);
    return `${store.state}: ${store.catalog.size} flags, ${roots.length} rows at the root; message: ${viewMessage(store) ?? 'none'}`;
  },
  expect: /^ready: \d{5} flags, \d+ rows at the root; message: none$/,
};
