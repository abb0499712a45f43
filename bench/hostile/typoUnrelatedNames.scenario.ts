/**
 * Finding 1 of issue 39, the other shape: 1,000 unknown names that resemble nothing, against 10,000 random names of a
 * repository's export (Restricted Mode). Opening the file: its diagnostics.
 */
import { problemsOf } from './codeSide';
import { namesExport, offlineStore, randomNames, writeExport } from './offline';
import type { HostileScenario } from './scenario';

const NAMES = 10_000;
const UNKNOWN = 1_000;

export const scenario: HostileScenario = {
  finding: '39.1',
  input: `a repository's export of ${NAMES.toLocaleString('en-US')} random names, and a file of ${UNKNOWN.toLocaleString('en-US')} unrelated unknown names (Restricted Mode)`,
  async prepare(dir) {
    writeExport(dir, 'production.json', namesExport(randomNames(NAMES, 1)));
    return {};
  },
  async run(dir) {
    const store = await offlineStore(dir, { trusted: false });
    const code = randomNames(UNKNOWN, 2).map((name) => `isEnabled('${name}');`).join('\n');
    const messages = await problemsOf(store, dir, `${dir}/src/unknown.ts`, code);
    const suggested = messages.filter((message) => message.includes('Did you mean')).length;
    return `${messages.length} unknown names, ${suggested} with "Did you mean"; ${store.catalog.size} flags`;
  },
  expect: /^1000 unknown names, 0 with "Did you mean"; 10000 flags$/,
};
