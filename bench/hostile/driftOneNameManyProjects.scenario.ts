/**
 * Finding 2 of issue 39: the drift check was quadratic in a flag name repeated across projects. A workspace's export
 * file names one flag in 160,000 projects (5 MB); the server lists 100 flags. The check runs after each listing.
 */
import { checkDrift, driftServer } from './driftServer';
import { namesExport, writeExport } from './offline';
import type { HostileScenario } from './scenario';

const PROJECTS = 160_000;

export const scenario: HostileScenario = {
  finding: '39.2',
  input: `a workspace's export file naming one flag in ${PROJECTS.toLocaleString('en-US')} projects (5 MB), checked against a server after its listing`,
  async prepare(dir) {
    writeExport(dir, 'production.json', namesExport(Array.from({ length: PROJECTS }, () => 'same'), (i) => `p${i}`));
    return driftServer(Array.from({ length: 100 }, (_, i) => `flag-${i}`));
  },
  run: (dir, context) => checkDrift(dir, (context as { url: string }).url),
  expect: /^\.unleash\/production\.json: 1100 changes on the server · 101 diagnostics · log: Compared with the server in part: Showing part of \.unleash\/production\.json: the first 100,000 of 160,000 flags, "same" in 1,000 of its 100,000 projects\./,
};
