/**
 * Issue 39: Show Flag Details on a flag of about 33 MB (hugeFlag.ts). The document is written in time slices of at
 * most 10 ms and stops at its budget, saying so.
 */
import { flagDocument } from '../../src/model/content/flagDocument';
import type { HostileScenario } from './scenario';
import { hugeFlagStore, type HugeFlag } from './hugeFlag';

export const scenario: HostileScenario = {
  finding: '39: details of a huge flag',
  input: 'Show Flag Details on a flag of about 33 MB: 600,000 constraint values, 120,000 parameters, six 900 KB JSON payloads, a 5 MB description',
  setUp: () => hugeFlagStore(),
  async run(_dir, _context, ready) {
    const { store, megabytes } = ready as HugeFlag;
    const details = await store.feature('default', 'huge');
    const text = await flagDocument({ details, segments: new Map(), sourceLabel: 'unleash.example.com', now: new Date() });
    store.dispose();
    const end = text.trimEnd();
    return `flag of ${megabytes} MB · document ${text.length.toLocaleString('en-US')} chars · ends "${end.slice(end.lastIndexOf('\n') + 1)}"`;
  },
  expect: /^flag of 3\d MB · document [\d,]+ chars · ends "… The document stops here: it reached 8,000,000 characters, the most the editor is given to show\. Open the flag in Unleash to read the rest\."$/,
};
