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
import { CancellationTokenSource, installFakeVscode, MarkdownString, Uri, type CodeLens, type Hover, type TreeItem } from '../support/fakeVscode';
import { FlagStore } from '../../src/model/store/flagStore';
import { FlagActivity } from '../../src/model/activity/flagActivity';

const fake = installFakeVscode();
let FlagHoverProvider: typeof import('../../src/hovers/flagHoverProvider').FlagHoverProvider;
let ACTIVITY_WAIT_MS: number;
let registerFlagsView: typeof import('../../src/views/flagsTree').registerFlagsView;
let registerFlagDetails: typeof import('../../src/commands/flagDetails').registerFlagDetails;
// Loaded once the stand-in answers `require('vscode')`.
before(async () => {
  FlagHoverProvider = (await import('../../src/hovers/flagHoverProvider')).FlagHoverProvider;
  ACTIVITY_WAIT_MS = (await import('../../src/hovers/flagHoverProvider')).ACTIVITY_WAIT_MS;
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

  it('the details document shows 200 changes, and "Read More History" the next 200 in the same document, until all are shown', async () => {
    const source = new Source();
    const all = 450;
    source.flagHistory = async (_project, name, page) => {
      source.calls.push(`history ${name} ${page.limit}@${page.offset}`);
      const events = Array.from({ length: Math.max(0, Math.min(page.limit, all - page.offset)) }, (_, i) => ({
        id: all - page.offset - i,
        type: 'feature-environment-enabled',
        environment: `env-${all - page.offset - i}`,
        createdBy: 'alice',
        createdAt: changedAt,
      }));
      return { events, total: all };
    };
    const { store, activity } = await setUp(source);
    const registration = registerFlagDetails({ store, view: { selected: () => undefined }, logger, activity });
    try {
      const uri = Uri.parse('unleash-flag:/checkout.txt?project=default&name=checkout');
      const changes = (text: string) => text.split('\n').filter((line) => / · alice · enabled in env-\d+$/.test(line));
      let document = await fake.vscode.workspace.openTextDocument(uri);
      assert.equal(changes(document.getText()).length, 200);
      const offer = 'The newest 200 of 450 changes. Read the next 200: "Read More History" above this line, or "Unleash: Read More History" in the Command Palette.';
      const lines = document.getText().split('\n');
      assert.ok(lines.includes(offer), lines.slice(-20).join('\n'));
      // The code lens sits on that line and runs the command for this document.
      const lenses = fake.providers.codeLenses.map((entry) => (entry.provider as { provideCodeLenses(d: unknown): CodeLens[] }).provideCodeLenses(document)).flat();
      assert.deepEqual(
        lenses.map((lens) => [lens.range.start.line, lens.command?.title, lens.command?.command]),
        [[lines.indexOf(offer), '$(history) Read More History: the next 200 changes', 'unleash.readMoreHistory']],
      );
      source.calls.length = 0;
      assert.equal(await fake.commands.get('unleash.readMoreHistory')?.(...(lenses[0]?.command?.arguments ?? [])), 400);
      document = await fake.vscode.workspace.openTextDocument(uri);
      assert.deepEqual(changes(document.getText()).slice(198, 202).map((line) => line.split(' · ').at(-1)), ['enabled in env-252', 'enabled in env-251', 'enabled in env-250', 'enabled in env-249']);
      assert.ok(document.getText().includes('The newest 400 of 450 changes. Read the next 50:'));
      assert.deepEqual(source.calls.filter((call) => call.startsWith('history')), ['history checkout 50@200', 'history checkout 50@250', 'history checkout 50@300', 'history checkout 50@350'], 'only the pages after those shown');
      await fake.commands.get('unleash.readMoreHistory')?.(uri);
      document = await fake.vscode.workspace.openTextDocument(uri);
      assert.equal(changes(document.getText()).length, 450);
      assert.doesNotMatch(document.getText(), /The newest|Read More History/);
      assert.deepEqual(fake.providers.codeLenses.map((entry) => (entry.provider as { provideCodeLenses(d: unknown): CodeLens[] }).provideCodeLenses(document)).flat(), []);
    } finally {
      registration.dispose();
    }
  });

  it('a change nested 6,000 deep: the hover and the details word it (no RangeError, nothing silently left out)', async () => {
    const source = new Source();
    let deep: unknown = {};
    for (let i = 0; i < 6_000; i++) deep = { a: deep };
    const update = { type: 'feature-strategy-update', environment: 'production', createdBy: 'mallory', createdAt: changedAt, preData: { name: 'default', constraints: [] }, data: { name: 'default', constraints: deep } };
    source.flagHistory = async () => ({ events: [update], total: 1 });
    const { store, activity } = await setUp(source);
    const provider = new FlagHoverProvider(store, logger, { transforms: [], sdkCalls: undefined }, activity);
    const hover = await hoverText(provider);
    assert.ok(hover.split('\n').includes('**Last change:** changed the constraints of Standard in production · mallory · 3 hours ago  '), hover);
    const registration = registerFlagDetails({ store, view: { selected: () => undefined }, logger, activity });
    try {
      const text = (await fake.vscode.workspace.openTextDocument(Uri.parse('unleash-flag:/checkout.txt?project=default&name=checkout'))).getText();
      const tail = text.slice(text.indexOf('History (newest first)')).split('\n');
      assert.match(tail[2] ?? '', / · mallory · changed the constraints of Standard in production$/);
      assert.ok(tail.includes('Usage, last 24 hours'));
    } finally {
      registration.dispose();
    }
  });
});
