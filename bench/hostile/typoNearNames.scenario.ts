/**
 * Finding 1 of issue 39: "Did you mean" had no bound per document. A cloned repository ships its own export (the
 * catalog: 10,000 names that differ in one place) and a 15 KB file of 300 near-typos of them; the workspace is in
 * Restricted Mode. Opening the file: its diagnostics, as the Problems panel lists them.
 */
import { MAX_SUGGESTED_PER_DOCUMENT } from '../../src/model/code/flagSuggestions';
import { problemsOf } from './codeSide';
import { namesExport, offlineStore, writeExport } from './offline';
import type { HostileScenario } from './scenario';

const NAMES = 10_000;
const TYPOS = 300;
const names = Array.from({ length: NAMES }, (_, i) => `checkout-variant-${String(i).padStart(5, '0')}`);

export const scenario: HostileScenario = {
  finding: '39.1',
  input: `a repository's export of ${NAMES.toLocaleString('en-US')} names one edit apart, and a 15 KB file of ${TYPOS} near-typos of them (Restricted Mode)`,
  async prepare(dir) {
    writeExport(dir, 'production.json', namesExport(names));
    return {};
  },
  async run(dir) {
    const store = await offlineStore(dir, { trusted: false });
    const code = Array.from({ length: TYPOS }, (_, i) => `isEnabled('checkout-variamt-${String(i * 7).padStart(5, '0')}');`).join('\n');
    const messages = await problemsOf(store, dir, `${dir}/src/typos.ts`, code);
    const suggested = messages.filter((message) => message.includes('Did you mean')).length;
    return `${messages.length} unknown names: ${suggested} with "Did you mean", ${messages.length - suggested} without (at most ${MAX_SUGGESTED_PER_DOCUMENT} a document); first: ${messages[0] ?? 'none'}`;
  },
  expect: /^300 unknown names: 20 with "Did you mean", 280 without \(at most 20 a document\); first: No flag named "checkout-variamt-00000" in \.unleash\/production\.json\. Did you mean "checkout-variant-00000", "checkout-variant-00010", or "checkout-variant-00020"\?$/,
};
