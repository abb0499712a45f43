/**
 * Finding 9: flag names holding the invisible characters the filter used to miss (U+200B–U+200D, U+2060–U+2064,
 * U+00AD, the tag block U+E0000–U+E007F). The Flags view's rows, from the real store and tree: nothing invisible is
 * left, and each such name is marked as breaking Unleash's naming rule.
 */
import type { Feature, FeatureSummary, Segment } from '../../src/api/schemas';
import type { FlagSource } from '../../src/model/store/flagSource';
import { FlagStore } from '../../src/model/store/flagStore';
import { rootNodes } from '../../src/model/tree/root';
import type { HostileScenario } from './scenario';

const NAMES = ['pay\u200Bment', 'wo\u2060rd', 'soft\u00ADhyphen', 'tag\u{E0041}\u{E0042}ged', 'plain'];

class Names implements FlagSource {
  readonly kind = 'server' as const;
  readonly label = 'unleash.example.com';
  async listFeatures(): Promise<FeatureSummary[]> {
    return NAMES.map((name) => ({ name, project: 'default', environments: [] }));
  }
  getFeature(): Promise<Feature> {
    throw new Error('not read');
  }
  async getStrategySegments(): Promise<Segment[]> {
    return [];
  }
  async listEnvironments(): Promise<string[]> {
    return [];
  }
}

export const scenario: HostileScenario = {
  finding: 9,
  input: 'flag names holding U+200B, U+2060, U+00AD and tag characters U+E0041–U+E0042',
  async run() {
    const store = new FlagStore({ info() {}, error() {} });
    void store.load();
    await store.setSource(new Names(), 'ready');
    const labels = rootNodes(store).map((node) => String(node.label));
    const invisible = labels.filter((label) => /[\u200B-\u200D\u2060-\u2064\u00AD]|[\u{E0000}-\u{E007F}]/u.test(label));
    store.dispose();
    return `rows: ${labels.map((label) => JSON.stringify(label)).join(', ')} · invisible characters left: ${invisible.length}`;
  },
  expect: /^rows: .*"plain".* · invisible characters left: 0$/,
};
