/**
 * Issue 39: Compare Environments (development ↔ production) on a flag of about 33 MB (hugeFlag.ts). Each side is
 * written in time slices of at most 10 ms and stops at its budget, saying so.
 */
import { environmentText } from '../../src/model/content/environmentComparison';
import type { HostileScenario } from './scenario';
import { hugeFlagStore, type HugeFlag } from './hugeFlag';

export const scenario: HostileScenario = {
  finding: '39: comparison of a huge flag',
  input: 'Compare Environments on a flag of about 33 MB: in each environment 300,000 constraint values, 60,000 parameters, three 900 KB JSON payloads',
  setUp: () => hugeFlagStore(),
  async run(_dir, _context, ready) {
    const { store } = ready as HugeFlag;
    const feature = await store.feature('default', 'huge');
    const left = await environmentText([{ feature }], 'development', new Map());
    const right = await environmentText([{ feature }], 'production', new Map());
    store.dispose();
    const last = (text: string) => text.trimEnd().slice(text.trimEnd().lastIndexOf('\n') + 1);
    return `development ${left.length.toLocaleString('en-US')} chars, production ${right.length.toLocaleString('en-US')} chars · ends "${last(right)}"`;
  },
  expect: /^development [\d,]+ chars, production [\d,]+ chars · ends "… The document stops here: it reached 8,000,000 characters, the most the editor is given to show\. Open the flag in Unleash to read the rest\."$/,
};
