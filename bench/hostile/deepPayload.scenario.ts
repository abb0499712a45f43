/**
 * Finding 4: a variant payload of 1 MB of JSON nested 500,000 deep (`[[[…]]]`). Expanding the flag, then its
 * Variants row (each variant row carries its Copy Payload text), and opening Show Flag Details pretty-print it.
 */
import type { Feature, FeatureSummary } from '../../src/api/schemas';
import { flagDocument } from '../../src/model/content/flagDocument';
import { childrenOf } from '../../src/model/tree/children';
import { listingSource, storeOver } from '../../test/support/flagCatalog';
import type { HostileScenario } from './scenario';

const DEPTH = 500_000;

export const scenario: HostileScenario = {
  finding: 4,
  input: 'a variant payload of 1 MB of JSON nested 500,000 deep',
  async run() {
    const payload = { type: 'json', value: `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}` };
    const variant = { name: 'deep', weight: 1000, weightType: 'variable', stickiness: 'default', payload };
    const summary: FeatureSummary = { name: 'deep-payload', project: 'default', environments: [{ name: 'production', enabled: true }] };
    const details: Feature = { ...summary, environments: [{ name: 'production', enabled: true, strategies: [], variants: [variant] }] };
    const source = listingSource([summary], { details: [details], environments: ['production'] });
    const store = await storeOver(source);
    const [flagRow] = await childrenOf(undefined, store);
    const group = (await childrenOf(flagRow, store)).find((node) => node.kind === 'group');
    const [row] = await childrenOf(group, store);
    const document = await flagDocument({ details, segments: new Map(), sourceLabel: source.label, now: new Date(0) });
    const payloadLine = document.split('\n').find((line) => line.includes('Payload')) ?? '';
    return `row "${row?.label}" · ${row?.description} · copies ${row?.copyText?.length} chars · details ${document.length} chars, "${payloadLine.trim()}"`;
  },
  expect: /^row "deep — 100%" · variable · stickiness: default · json: \[\[\[.*copies \d+ chars · details \d+ chars, "Payload \(json\):"$/,
};
