import { truncateSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { HostileScenario } from './scenario';
import { offlineStore, realExport, writeExport } from './offline';
import { viewMessage } from '../../src/model/tree/commandData';
import { rootNodes } from '../../src/model/tree/root';

const MB = 1024 * 1024;
const REAL = 4;
const SPARSE = 6;
export const GIGABYTE_OF_EXPORTS = `${REAL} real exports of 59 MB (30,000 flags each), then ${SPARSE} files of 128 MB`;

/** Writes GIGABYTE_OF_EXPORTS into `dir`'s .unleash/; the sparse files take no disk space, and nothing should read them. */
export async function writeGigabyteOfExports(dir: string): Promise<Record<string, never>> {
  const real = realExport(59 * MB);
  for (let i = 1; i <= REAL; i++) writeExport(dir, `production-${i}.json`, real);
  for (let i = 1; i <= SPARSE; i++) {
    const file = path.join(dir, '.unleash', `zz-sparse-${i}.json`);
    writeFileSync(file, '');
    truncateSync(file, 128 * MB);
  }
  return {};
}

export const scenario: HostileScenario = {
  finding: 3,
  input: `1 GB of export files: ${GIGABYTE_OF_EXPORTS}`,
  prepare: writeGigabyteOfExports,
  async run(dir) {
    const store = await offlineStore(dir);
    return `${store.state}: ${rootNodes(store).length} rows at the root, ${store.catalog.size} flags from ${store.currentSource?.label}; message: ${viewMessage(store) ?? 'none'}`;
  },
  expect:
    /^ready: \d+ rows at the root, \d{5} flags from \.unleash\/production-1\.json; message: Not read: \.unleash\/zz-sparse-1\.json, .* \(larger than 100 MB\); \.unleash\/production-2\.json, .* \(past 100 MB for all files together\)\. At most 32 files, 100 MB together, are read: move the others out of \.unleash\/\.$/,
};
