/**
 * Finding 3 of issue 39: the drift check's reader had none of offline mode's budget (100 files of up to 64 MB each,
 * no total). A workspace holds four hard links of one 44 MB export (22,000 flags, none of which the server lists
 * any more); the check and the diagnostics on the files run after the listing.
 */
import { linkSync } from 'node:fs';
import * as path from 'node:path';
import { checkDrift, driftServer } from './driftServer';
import { realExport, writeExport } from './offline';
import type { HostileScenario } from './scenario';

const MB = 1024 * 1024;

export const scenario: HostileScenario = {
  finding: '39.3',
  input: 'four hard links of one 44 MB export file (about 22,000 flags the server no longer lists), checked against a server after its listing',
  async prepare(dir) {
    writeExport(dir, 'production-1.json', realExport(44 * MB));
    for (const n of [2, 3, 4]) linkSync(path.join(dir, '.unleash', 'production-1.json'), path.join(dir, '.unleash', `production-${n}.json`));
    return driftServer(['listed-only']);
  },
  run: (dir, context) => checkDrift(dir, (context as { url: string }).url),
  expect: /^\.unleash\/production-1\.json: \d+ changes on the server; \.unleash\/production-2\.json: \d+ changes on the server; \.unleash\/production-3\.json: not compared: past 100 MB for all export files together; \.unleash\/production-4\.json: not compared: past 100 MB for all export files together · 202 diagnostics · log: Not compared with the server: \.unleash\/production-3\.json \(overBudget\) \| Not compared with the server: \.unleash\/production-4\.json \(overBudget\)$/,
};
