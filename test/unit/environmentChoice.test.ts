/**
 * `unleash.environments` on the vscode-free model: the tree row (strip, tooltip, screen-reader label), the hover,
 * the completion detail and documentation, and the inlay hint all show the chosen environments in the chosen
 * order, and say how many are hidden.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Feature, FeatureSummary, Segment } from '../../src/api/schemas';
import { Catalog } from '../../src/model/store/catalog';
import { chooseEnvironments, environmentSetting } from '../../src/model/store/environmentChoice';
import { completionDetail, completionDocumentation } from '../../src/model/code/flagCompletion';
import { FlagHints } from '../../src/model/code/flagHints';
import type { FlagSource } from '../../src/model/store/flagSource';
import { FlagStore } from '../../src/model/store/flagStore';
import { hoverMarkdown } from '../../src/model/content/hoverContent';
import { rootNodes } from '../../src/model/tree/root';

const flag: FeatureSummary = {
  name: 'dark-mode',
  project: 'default',
  type: 'release',
  environments: [
    { name: 'development', enabled: true, sortOrder: 1 },
    { name: 'staging', enabled: false, sortOrder: 2 },
    { name: 'production', enabled: false, sortOrder: 3 },
  ],
};

class OneFlag implements FlagSource {
  readonly kind = 'server' as const;
  readonly label = 'unleash.example.com';
  async listFeatures(): Promise<FeatureSummary[]> {
    return [flag];
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

async function treeRow(choice: string[]) {
  const store = new FlagStore({ info() {}, error() {} });
  void store.load();
  await store.setSource(new OneFlag(), 'ready');
  store.setEnvironmentChoice(choice);
  const [row] = rootNodes(store);
  assert.ok(row);
  return { description: row.description, tooltip: String(row.tooltip ?? ''), accessible: row.accessibleLabel };
}

describe('unleash.environments', () => {
  it('the setting: names in order, duplicates once; junk is none', () => {
    assert.deepEqual(environmentSetting([' production ', 'staging', 7, '']), ['production', 'staging']);
    assert.deepEqual(environmentSetting('production'), []);
    const { shown, hidden } = chooseEnvironments(flag.environments ?? [], ['production', 'nowhere', 'production', 'development']);
    assert.deepEqual([shown.map((env) => env.name), hidden], [['production', 'development'], 1]);
  });

  it('the tree row: the chosen strip, the hidden count in the tooltip, the state in words for screen readers', async () => {
    const all = await treeRow([]);
    const chosen = await treeRow(['production']);
    assert.match(all.description ?? '', /^d● s○ p○/);
    assert.match(chosen.description ?? '', /^p○/);
    assert.ok(!/d●/.test(chosen.description ?? ''));
    assert.match(chosen.tooltip, /Environments: production ○ disabled/);
    assert.match(chosen.tooltip, /2 more environments\\, hidden by unleash\\\.environments/);
    assert.match(chosen.accessible ?? '', /production disabled/);
    assert.ok(!/development/.test(chosen.accessible ?? ''));
  });

  it('the hover, the completion and the inlay hint: the chosen environments in their order, and how many are hidden', () => {
    const hover = hoverMarkdown({ matches: [{ summary: flag }], sourceLabel: 'unleash.example.com', now: new Date(), environments: ['production', 'development'] });
    const table = hover.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Environment') && !line.startsWith('| ---'));
    assert.deepEqual(table.map((line) => line.split('|')[1]?.trim()), ['production', 'development']);
    assert.match(hover, /_1 more environment\\, hidden by unleash\\\.environments_/);

    assert.match(completionDetail([flag], undefined, ['production']), /^release · default · production ○$/);
    assert.match(completionDocumentation([flag], undefined, ['production']), /- production: disabled\n\n2 more environments, hidden by unleash\.environments$/);

    const hints = new FlagHints(new Catalog([flag]), { environments: ['production', 'staging'] });
    assert.deepEqual(
      hints.line("isEnabled('dark-mode')", 0).map((hint) => `${hint.label} | ${hint.words}`),
      ['○ prod ○ stage | production disabled, staging disabled; 1 more environment, hidden by unleash.environments'],
    );
  });
});
