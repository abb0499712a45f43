/**
 * Where a flag's last change and usage show, in the 'vscode' stand-in: the hover (read on the first hover, shown from
 * memory on the next, with no request), the flag row's tooltip, and the details document's History and Usage
 * sections; export files say nothing in the hover and why in the document.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { EventPage } from '../../src/api/activityReader';
import type { Feature, FeatureSummary, Segment } from '../../src/api/schemas';
import type { FeatureMetricsRow } from '../../src/api/activitySchemas';
import type { FlagSource } from '../../src/model/store/flagSource';
import type { TreeNode } from '../../src/model/tree/node';
import { CancellationTokenSource, installFakeVscode, MarkdownString, Uri, type Hover, type TreeItem } from '../support/fakeVscode';
import { FlagStore } from '../../src/model/store/flagStore';
import { FlagActivity } from '../../src/model/activity/flagActivity';

const fake = installFakeVscode();
let FlagHoverProvider: typeof import('../../src/hovers/flagHoverProvider').FlagHoverProvider;
let ACTIVITY_WAIT_MS: number;
let registerFlagsView: typeof import('../../src/views/flagsTree').registerFlagsView;
let registerFlagDetails: typeof import('../../src/commands/flagDetails').registerFlagDetails;
// Loaded once the stand-in answers `require('vscode')`.
before(async () => {
  ({ FlagHoverProvider, ACTIVITY_WAIT_MS } = await import('../../src/hovers/flagHoverProvider'));
  registerFlagsView = (await import('../../src/views/flagsTree')).registerFlagsView;
  registerFlagDetails = (await import('../../src/commands/flagDetails')).registerFlagDetails;
});

const hourAgo = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();
const changedAt = new Date(Date.now() - 3 * 3_600_000).toISOString();

class Source implements FlagSource {
  readonly kind: 'server' | 'files' = 'server';
  readonly label = 'unleash.example.com';
  readonly calls: string[] = [];
  /** Answers history and usage a few milliseconds late, as a server does (never within the hover's one turn). */
  delayMs = 0;
  async listFeatures(): Promise<FeatureSummary[]> {
    return [{ name: 'checkout', project: 'default', type: 'release', environments: [{ name: 'production', enabled: true }] }];
  }
  async getFeature(project: string, name: string): Promise<Feature> {
    this.calls.push(`feature ${name}`);
    return { name, project, environments: [{ name: 'production', enabled: true, strategies: [] }] };
  }
  async getStrategySegments(): Promise<Segment[]> {
    return [];
  }
  async listEnvironments(): Promise<string[]> {
    return ['production'];
  }
  async flagHistory(_project: string, name: string, page: { limit: number; offset: number }): Promise<EventPage> {
    this.calls.push(`history ${name} ${page.limit}`);
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    return {
      events: [
        { type: 'feature-environment-enabled', environment: 'production', createdBy: 'alice', createdAt: changedAt },
        { type: 'feature-created', createdBy: 'bob', createdAt: '2026-01-02T03:04:00Z' },
      ].slice(0, page.limit),
      total: 2,
    };
  }
  async flagUsage(name: string): Promise<FeatureMetricsRow[]> {
    this.calls.push(`usage ${name}`);
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    return [{ timestamp: hourAgo, environment: 'production', appName: 'web', yes: 90, no: 10 }];
  }
}

const logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, child: () => logger };

async function setUp(source: FlagSource) {
  const store = new FlagStore({ info() {}, error() {} });
  void store.load(); // needed from the start: setSource reads the list
  await store.setSource(source, 'ready');
  const activity = new FlagActivity(store, logger);
  return { store, activity };
}

const LINE = "if (unleash.isEnabled('checkout')) {";
const doc = { lineCount: 1, lineAt: () => ({ text: LINE }) };
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

async function hoverText(provider: InstanceType<typeof FlagHoverProvider>): Promise<string> {
  const hover = (await provider.provideHover(doc as never, { line: 0, character: LINE.indexOf('checkout') + 2 } as never, new CancellationTokenSource().token as never)) as
    | Hover
    | undefined;
  return (hover?.contents[0] as MarkdownString | undefined)?.value ?? '';
}

describe('the last change and usage of a flag', () => {
  it('the first hover waits for the last change and usage and shows them; the next answers from memory, asking nothing', async () => {
    const source = new Source();
    source.delayMs = 5;
    const { store, activity } = await setUp(source);
    const provider = new FlagHoverProvider(store, logger, { transforms: [], sdkCalls: undefined }, activity);
    const first = await hoverText(provider);
    const lines = first.split('\n');
    assert.ok(lines.includes('**Last change:** enabled in production · alice · 3 hours ago  '), first);
    assert.ok(lines.includes('**Usage, last 24 h:** production 100 \\(90 yes · 10 no\\)'), first);
    assert.doesNotMatch(first, /Reading the last change|hover again/);
    await settle();
    const calls = source.calls.length;
    const second = await hoverText(provider);
    assert.equal(source.calls.length, calls, 'nothing asked again');
    assert.equal(second, first);
    assert.deepEqual(source.calls.filter((call) => !call.startsWith('feature')).sort(), ['history checkout 1', 'usage checkout']);
  });

  it('a server slower than the wait: the hover says where they will show, and the next hover shows them', async () => {
    const source = new Source();
    source.delayMs = ACTIVITY_WAIT_MS + 200;
    const { store, activity } = await setUp(source);
    const provider = new FlagHoverProvider(store, logger, { transforms: [], sdkCalls: undefined }, activity);
    const first = await hoverText(provider);
    assert.ok(first.split('\n').includes('_Still reading the last change and usage: they show in the next hover, and in the details (Show details)._'), first);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const second = await hoverText(provider);
    assert.ok(second.split('\n').includes('**Usage, last 24 h:** production 100 \\(90 yes · 10 no\\)'), second);
  });

  it('export files: the hover says nothing of history or usage', async () => {
    const source = new Source();
    (source as { kind: string }).kind = 'files';
    (source as Partial<Source>).flagHistory = undefined;
    (source as Partial<Source>).flagUsage = undefined;
    const { store, activity } = await setUp(source);
    const provider = new FlagHoverProvider(store, logger, { transforms: [], sdkCalls: undefined }, activity);
    await hoverText(provider);
    await settle();
    const text = await hoverText(provider);
    assert.doesNotMatch(text, /Last change|Usage|Reading/);
  });

  it("the flag row's tooltip waits for them and adds them under the row's own", async () => {
    const source = new Source();
    const { store, activity } = await setUp(source);
    const view = registerFlagsView({ store, logger, activity });
    try {
      const [row] = await view.provider.getChildren();
      const item = view.provider.getTreeItem(row as TreeNode) as unknown as TreeItem;
      const resolved = (await view.provider.resolveTreeItem(item as never, row as TreeNode, new CancellationTokenSource().token as never)) as unknown as TreeItem;
      const tooltip = (resolved.tooltip as MarkdownString).value;
      assert.ok(tooltip.startsWith(`${(row as TreeNode).tooltip}\n\n`), tooltip);
      assert.ok(tooltip.endsWith('**Last change:** enabled in production · alice · 3 hours ago  \n**Usage, last 24 h:** production 100 \\(90 yes · 10 no\\)'), tooltip);
      assert.equal((resolved.tooltip as MarkdownString).isTrusted, false);
    } finally {
      view.disposable.dispose();
    }
  });

  it('the details document ends with the change list and the usage table', async () => {
    const source = new Source();
    const { store, activity } = await setUp(source);
    const registration = registerFlagDetails({ store, view: { selected: () => undefined }, logger, activity });
    try {
      const provider = fake.contentProviders.get('unleash-flag');
      const text = (await provider?.provideTextDocumentContent(Uri.parse('unleash-flag:/checkout.txt?project=default&name=checkout'), new CancellationTokenSource().token)) ?? '';
      const tail = text.slice(text.indexOf('History (newest first)')).split('\n');
      assert.deepEqual(tail.slice(0, 4).map((line) => line.replace(/^\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d(\.\d{3})?)? UTC/, '<time>')), [
        'History (newest first)',
        '----------------------',
        '<time> · alice · enabled in production',
        '<time> · bob · created the flag',
      ]);
      assert.deepEqual(tail.slice(5, 9), ['Usage, last 24 hours', '--------------------', 'Environment  Evaluations  Yes  No  Per hour, oldest first', 'production           100   90  10  ·······················█']);
    } finally {
      registration.dispose();
    }
  });
});
