/**
 * Finding 4 of issue 39: offline mode bounded bytes, not rows. A repository's 37 MB export of 1,000,000 minimal rows,
 * in Restricted Mode: the store's load, the Flags view's root, and completion in a document.
 */
import { viewMessage } from '../../src/model/tree/commandData';
import { rootNodes } from '../../src/model/tree/root';
import { completionsOf } from './codeSide';
import { offlineStore, writeExport } from './offline';
import type { HostileScenario } from './scenario';

export const ROWS = 1_000_000;

/** `{"features":[{"name":"f0000000","project":"default"}, …], …}`: the smallest rows an export may hold. */
export function millionRows(): string {
  const rows = Array.from({ length: ROWS }, (_, i) => `{"name":"f${String(i).padStart(7, '0')}","project":"default"}`);
  return `{"features":[${rows.join(',')}],"featureStrategies":[],"tagTypes":[]}`;
}

export const scenario: HostileScenario = {
  finding: '39.4',
  input: `a repository's 37 MB export of ${ROWS.toLocaleString('en-US')} minimal rows (Restricted Mode): load, the Flags view's root, completion`,
  async prepare(dir) {
    writeExport(dir, 'production.json', millionRows());
    return {};
  },
  async run(dir) {
    const store = await offlineStore(dir, { trusted: false });
    const roots = rootNodes(store);
    const items = await completionsOf(store, dir, 'unleash.isEnabled("f00');
    return `${store.state}: ${store.catalog.size} flags, ${roots.length} rows at the root (first: ${roots[0]?.label}), ${items} completion items; message: ${viewMessage(store) ?? 'none'}`;
  },
  expect: /^ready: 100000 flags, 100 rows at the root \(first: f0000000 … f0000999\), 500 completion items; message: Showing part of \.unleash\/production\.json: the first 100,000 of 1,000,000 flags\./,
};
