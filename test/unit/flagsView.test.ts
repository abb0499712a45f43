/**
 * The Flags view and the flag commands in plain Node, in the 'vscode' stand-in (test/support/fakeVscode.ts): the
 * TreeItems they build (untrusted markdown tooltips, codicons, context values, what selecting a row does), the view's
 * description and message, and what each command does with a tree node or `{ project, name }`.
 *   node --import tsx --test test/unit/flagsView.test.ts
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HttpError } from '../../src/api/errors';
import type { Feature, FeatureSummary, Segment } from '../../src/api/schemas';
import type { FlagSource } from '../../src/model/store/flagSource';
import type { TreeNode } from '../../src/model/tree/node';
import { CancellationTokenSource, installFakeVscode, MarkdownString, Uri, type FakeTreeView, type TreeItem } from '../support/fakeVscode';
import { FlagStore } from '../../src/model/store/flagStore';
import { Commands, Views } from '../../src/base/constants';

const fake = installFakeVscode();

let registerFlagsView: typeof import('../../src/views/flagsTree').registerFlagsView;
let registerFlagCommands: typeof import('../../src/commands/flags').registerFlagCommands;
let registerFlagDetails: typeof import('../../src/commands/flagDetails').registerFlagDetails;
// Loaded once the stand-in answers `require('vscode')`.
before(async () => {
  registerFlagsView = (await import('../../src/views/flagsTree')).registerFlagsView;
  registerFlagCommands = (await import('../../src/commands/flags')).registerFlagCommands;
  registerFlagDetails = (await import('../../src/commands/flagDetails')).registerFlagDetails;
});

// ------------------------------------------------------------------------------------------------ data

class Source implements FlagSource {
  readonly kind = 'server' as const;
  readonly label = 'unleash.example.com';
  listCalls = 0;
  web = (project: string, name: string) => `https://unleash.example.com/projects/${project}/features/${name}`;
  constructor(
    private readonly flags: FeatureSummary[],
    private readonly details: Record<string, Feature> = {},
  ) {}
  async listFeatures(): Promise<FeatureSummary[]> {
    this.listCalls++;
    return this.flags;
  }
  async getFeature(project: string, name: string): Promise<Feature> {
    const feature = this.details[`${project}/${name}`];
    if (!feature) throw new Error(`Flag ${name} is gone`);
    return feature;
  }
  async getStrategySegments(): Promise<Segment[]> {
    return [];
  }
  async listEnvironments(): Promise<string[]> {
    return ['development'];
  }
  webUrl(project: string, name: string): string {
    return this.web(project, name);
  }
}

const flag = (name: string, project = 'default'): FeatureSummary => ({
  name,
  project,
  type: 'release',
  description: `About ${name}`,
  environments: [{ name: 'development', enabled: true }],
});

const logger = {
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return logger;
  },
};

async function setUp(flags: FeatureSummary[], details: Record<string, Feature> = {}) {
  const source = new Source(flags, details);
  const store = new FlagStore({ info() {}, error() {} });
  void store.load(); // needed from the start: setSource reads the list
  await store.setSource(source, 'ready');
  const view = registerFlagsView({ store, logger });
  const commands = registerFlagCommands({ store, view, logger });
  const treeView = fake.treeViews.at(-1) as FakeTreeView<TreeNode>;
  return {
    source,
    store,
    view,
    treeView,
    run: (id: string, ...args: unknown[]) => fake.commands.get(id)?.(...args),
    dispose: () => {
      commands.dispose();
      view.disposable.dispose();
    },
  };
}

const DETAILS: Record<string, Feature> = {
  'default/with-links': {
    name: 'with-links',
    project: 'default',
    environments: [{ name: 'development', enabled: true, strategies: [] }],
    children: ['alpha'],
    links: [
      { id: 'a', url: 'https://example.com/doc', title: 'Docs' },
      { id: 'b', url: 'command:workbench.action.quit', title: 'Quit' },
      { id: 'c', url: 'javascript:alert(1)', title: '[x](command:evil)' },
    ],
  },
};

// ------------------------------------------------------------------------------------------------ tests

describe('Flags view', () => {
  it('reads the flag list when the view is first shown, not before', async () => {
    const source = new Source([flag('alpha')], {});
    const store = new FlagStore({ info() {}, error() {} });
    await store.setSource(source, 'ready');
    const view = registerFlagsView({ store, logger });
    const treeView = fake.treeViews.at(-1) as FakeTreeView<TreeNode>;
    try {
      assert.deepEqual([store.state, source.listCalls], ['idle', 0], 'registered, hidden: nothing read');
      treeView.setVisible(true);
      assert.deepEqual([store.state, source.listCalls], ['loading', 1], 'shown: the list is read');
      await store.load();
      treeView.setVisible(false);
      treeView.setVisible(true);
      assert.deepEqual([store.state, source.listCalls], ['ready', 1], 'shown again: nothing more');
    } finally {
      view.disposable.dispose();
      store.dispose();
    }
  });

  it('creates the tree view with collapse-all, the source as description, and items from the model', async () => {
    const t = await setUp([flag('beta'), flag('alpha'), flag('with-links')], DETAILS);
    try {
      assert.equal(t.treeView.id, Views.flags);
      assert.equal(t.treeView.options.showCollapseAll, true);
      assert.equal(t.treeView.description, 'unleash.example.com');
      assert.equal(t.treeView.message, undefined);

      const provider = t.view.provider;
      const roots = await provider.getChildren();
      assert.deepEqual(roots.map((node) => node.label), ['alpha', 'beta', 'with-links']);
      const item = provider.getTreeItem(roots[0] as TreeNode) as unknown as TreeItem;
      assert.equal(item.id, 'flag:default%2Falpha');
      assert.equal(item.label, 'alpha');
      assert.equal(item.description, 'd●');
      assert.equal(item.contextValue, 'feature:enabled:web');
      assert.equal(item.collapsibleState, 1);
      assert.equal(item.iconPath?.id, 'rocket');
      assert.deepEqual(item.accessibilityInformation, { label: 'alpha, development enabled' });
      assert.equal(item.command, undefined);
      // The tooltip is built on hover, as untrusted markdown without HTML or icons.
      assert.equal(item.tooltip, undefined);
      const resolved = provider.resolveTreeItem(item as never, roots[0] as TreeNode) as unknown as TreeItem;
      const tooltip = resolved.tooltip as MarkdownString;
      assert.ok(tooltip instanceof MarkdownString);
      assert.equal(tooltip.value, (roots[0] as TreeNode).tooltip);
      assert.equal(tooltip.isTrusted, false);
      assert.equal(tooltip.supportHtml, false);
      assert.equal(tooltip.supportThemeIcons, false);
    } finally {
      t.dispose();
    }
  });

  it('rows open only http(s) links, reveal the flags they point at, and retry failed loads', async () => {
    const t = await setUp([flag('alpha'), flag('with-links')], DETAILS);
    try {
      const provider = t.view.provider;
      const roots = await provider.getChildren();
      const rows = await provider.getChildren(roots[1]);
      const items = rows.map((node) => provider.getTreeItem(node) as unknown as TreeItem);
      assert.deepEqual(
        items.map((item) => [item.label, item.contextValue, item.command?.command, item.command?.arguments?.map(String)]),
        [
          ['development', 'environment:enabled', undefined, undefined],
          ['alpha', 'child', Commands.revealFlag, ['default', 'alpha']],
          ['Docs', 'link:web', 'vscode.open', ['https://example.com/doc']],
          ['Quit', 'link', undefined, undefined],
          ['[x](command:evil)', 'link', undefined, undefined],
        ],
      );

      const failed = await provider.getChildren(roots[0]);
      assert.equal(failed.length, 1);
      const errorItem = provider.getTreeItem(failed[0] as TreeNode) as unknown as TreeItem;
      assert.equal(errorItem.label, 'Could not read the flag. Unexpected error: Flag alpha is gone');
      assert.equal(errorItem.iconPath?.id, 'error');
      assert.equal(errorItem.command?.command, Commands.refresh);
      assert.equal(errorItem.command?.arguments?.[0], roots[0]);

      // Retry: the refresh command with the node asks VS Code for that node's children again.
      const fired: unknown[] = [];
      const subscription = provider.onDidChangeTreeData((node) => fired.push(node));
      await t.run(Commands.refresh, roots[0]);
      assert.deepEqual(fired, [roots[0]]);
      assert.equal(t.source.listCalls, 1);
      subscription.dispose();
    } finally {
      t.dispose();
    }
  });

  it("redraws a flag's row when its details arrive, so the row reads what the details say", async () => {
    const listed = { ...flag('promo'), lifecycle: { stage: 'initial', enteredStageAt: '2026-11-20T08:00:00.000Z' } };
    const details: Feature = {
      name: 'promo',
      project: 'default',
      environments: [{ name: 'development', enabled: true, strategies: [] }],
      lifecycle: { stage: 'completed', status: 'discarded', enteredStageAt: '2026-11-20T08:00:00.000Z' },
    };
    const t = await setUp([listed], { 'default/promo': details });
    try {
      const provider = t.view.provider;
      const [row] = (await provider.getChildren()) as [TreeNode];
      assert.equal((provider.getTreeItem(row) as unknown as TreeItem).description, 'd● · initial');
      const fired: unknown[] = [];
      provider.onDidChangeTreeData((node) => fired.push(node));
      await t.store.feature('default', 'promo');
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(fired, [row]);
      assert.equal((provider.getTreeItem(row) as unknown as TreeItem).description, 'd● · discarded');
    } finally {
      t.dispose();
    }
  });

  it('redraws its rows when stages read in the background after a listing change a status (no details read)', async () => {
    const at = '2026-11-20T08:00:00.000Z';
    const listed = { ...flag('promo'), lifecycle: { stage: 'initial', enteredStageAt: at } };
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const t = await setUp([listed]);
    try {
      (t.source as unknown as { flagStages: FlagSource['flagStages'] }).flagStages = async () => {
        await answered;
        return [{ stage: 'completed', status: 'kept', enteredStageAt: at }, { stage: 'initial', enteredStageAt: at }];
      };
      await t.store.refresh();
      const provider = t.view.provider;
      const [row] = (await provider.getChildren()) as [TreeNode];
      assert.equal((provider.getTreeItem(row) as unknown as TreeItem).description, 'd● · initial');
      const fired: unknown[] = [];
      provider.onDidChangeTreeData((node) => fired.push(node));
      answer();
      await t.store.stagesSettled();
      assert.deepEqual(fired, [undefined], 'the rows are drawn again');
      const [again] = (await provider.getChildren()) as [TreeNode];
      assert.equal((provider.getTreeItem(again) as unknown as TreeItem).description, 'd● · kept');
    } finally {
      t.dispose();
    }
  });

  it('redraws when the store changes; a refresh that fails keeps the rows, marked out of date with why', async () => {
    const t = await setUp([flag('alpha')]);
    try {
      const fired: unknown[] = [];
      t.view.provider.onDidChangeTreeData((node) => fired.push(node));
      const loaded = t.store.refreshedAt?.toISOString().slice(0, 16).replace('T', ' ');
      t.source.listFeatures = async () => {
        throw new HttpError({ status: 503, request: 'GET /api/admin/search/features', serverMessage: 'overloaded' });
      };
      await t.run(Commands.refresh);
      assert.deepEqual(fired, [undefined, undefined], 'loading, then the kept rows');
      assert.equal(t.store.state, 'ready');
      assert.equal(t.treeView.description, 'unleash.example.com · out of date');
      assert.equal(
        t.treeView.message,
        `Out of date: these are the flags of ${loaded} UTC. Could not refresh the flags. unleash.example.com failed (503: overloaded). ` +
          "Try again; if it keeps failing, check the server's logs. Failed request: GET /api/admin/search/features.",
      );
      assert.deepEqual((await t.view.provider.getChildren()).map((node) => node.label), ['alpha']);
      assert.ok(fake.progress >= 1, 'loading shows progress in the view');

      // The next refresh that works is current again.
      t.source.listFeatures = async () => [flag('alpha'), flag('beta')];
      await t.run(Commands.refresh);
      assert.equal(t.treeView.description, 'unleash.example.com');
      assert.equal(t.treeView.message, undefined);
      assert.deepEqual((await t.view.provider.getChildren()).map((node) => node.label), ['alpha', 'beta']);
    } finally {
      t.dispose();
    }
  });

  it('a row of a project that could not be read retries the whole listing when selected', async () => {
    const t = await setUp([flag('alpha')]);
    try {
      const failure = {
        project: 'odd',
        error: new HttpError({ status: 500, request: 'GET /api/admin/projects/odd/features', serverMessage: "Cannot read properties of undefined (reading 'some')" }),
        searchError: new HttpError({ status: 502, request: 'GET /api/admin/search/features' }),
      };
      Object.assign(t.source, { failedProjects: [failure] });
      await t.run(Commands.refresh);
      const roots = await t.view.provider.getChildren();
      assert.deepEqual(roots.map((node) => node.label), ['default', 'odd']);
      const item = t.view.provider.getTreeItem(roots[1] as TreeNode) as unknown as TreeItem;
      assert.deepEqual(item.command && [item.command.command, item.command.arguments], ['unleash.refresh', []]);
      const before = t.source.listCalls;
      await t.run(item.command!.command, ...(item.command!.arguments ?? []));
      assert.equal(t.source.listCalls, before + 1, 'the flag list was read again');
    } finally {
      t.dispose();
    }
  });
});

describe('flag commands', () => {
  it('copy flag name: from a node or { project, name }, with a status bar message', async () => {
    const t = await setUp([flag('alpha'), flag('$(alert)-flag')]);
    try {
      const roots = await t.view.provider.getChildren();
      assert.equal(await t.run(Commands.copyFlagName, roots[1]), 'alpha');
      assert.equal(fake.clipboard, 'alpha');
      assert.equal(fake.statusBarMessages.at(-1), 'Copied flag name "alpha"');
      assert.equal(await t.run(Commands.copyFlagName, { project: 'default', name: "it's(1)" }), "it's(1)");
      assert.equal(fake.statusBarMessages.at(-1), 'Copied flag name "it\'s(1)"');
      // Without an argument: the selected row.
      t.treeView.selection = [roots[1] as TreeNode];
      assert.equal(await t.run(Commands.copyFlagName), 'alpha');
    } finally {
      t.dispose();
    }
  });

  it("a name that breaks Unleash's naming rule is not copied, searched for or opened; the warning says why", async () => {
    const name = 'new-check\u202eout';
    const t = await setUp([flag('alpha'), flag(name)]);
    try {
      const [node] = (await t.view.provider.getChildren()).filter((row) => row.flag?.name === name);
      assert.equal(node?.label, 'new-check out (not a valid Unleash name)');
      assert.equal(node?.contextValue.includes('web'), false, 'no Open in Unleash in the menu');
      fake.clipboard = 'before';
      const why = "breaks Unleash's naming rule (1 to 100 letters, digits and - _ . ! ~ * ' ( )). Show Flag Details shows the name with its hidden characters made visible.";
      assert.equal(await t.run(Commands.copyFlagName, node), undefined);
      assert.equal(fake.clipboard, 'before');
      assert.equal(fake.texts('warning').at(-1), `Not copied: "new-check out" ${why}`);
      assert.equal(await t.run(Commands.findUsages, { project: 'default', name }), undefined);
      assert.equal(fake.texts('warning').at(-1), `Not searched: "new-check out" ${why}`);
      const opened = fake.opened.length;
      assert.equal(await t.run(Commands.openInWebUi, { project: 'default', name }), undefined);
      assert.equal(fake.opened.length, opened);
      assert.equal(fake.texts('warning').at(-1), `Not opened: "new-check out" ${why}`);
    } finally {
      t.dispose();
    }
  });

  it('open in Unleash: opens the http(s) page, refuses any other address', async () => {
    const t = await setUp([flag('alpha')]);
    try {
      const [alpha] = await t.view.provider.getChildren();
      const url = await t.run(Commands.openInWebUi, alpha);
      assert.equal(url, 'https://unleash.example.com/projects/default/features/alpha');
      assert.equal(fake.opened.at(-1), url);

      const opened = fake.opened.length;
      t.source.web = () => 'javascript:alert(1)';
      assert.equal(await t.run(Commands.openInWebUi, { project: 'default', name: 'alpha' }), undefined);
      assert.equal(fake.opened.length, opened);
      assert.equal(
        fake.texts('warning').at(-1),
        'Not opened: "javascript:alert(1)" is not an http or https address. Check unleash.webUrl and unleash.serverUrl.',
      );
    } finally {
      t.dispose();
    }
  });

  it('find flag: a quick pick over every flag reveals the chosen one, inside its project group', async () => {
    const t = await setUp([flag('alpha', 'web'), flag('beta', 'default'), flag('gamma', 'web')]);
    try {
      fake.pick = (items) => (items as Array<{ label: string }>).find((item) => item.label === 'gamma');
      const picked = await t.run(Commands.findFlag);
      assert.deepEqual(picked, { project: 'web', name: 'gamma' });
      const quickPick = fake.quickPicks.at(-1) as { items: Array<{ label: string; description: string; detail?: string }>; options: Record<string, unknown> };
      assert.deepEqual(
        quickPick.items.map((item) => [item.label, item.description, item.detail]),
        [
          ['alpha', 'web · development ●', 'About alpha'],
          ['beta', 'default · development ●', 'About beta'],
          ['gamma', 'web · development ●', 'About gamma'],
        ],
      );
      assert.equal(quickPick.options.matchOnDescription, true);
      const revealed = t.treeView.revealed.at(-1);
      assert.equal(revealed?.node.label, 'gamma');
      assert.equal(revealed?.node.parent?.label, 'web');
      assert.deepEqual(revealed?.options, { select: true, focus: true, expand: false });
      // The parent chain VS Code walks to reveal it is the tree's own nodes.
      const roots = await t.view.provider.getChildren();
      assert.equal(t.view.provider.getParent(revealed?.node as TreeNode), roots[1]);
      assert.ok((await t.view.provider.getChildren(roots[1])).includes(revealed?.node as TreeNode));

      fake.pick = () => undefined;
      assert.equal(await t.run(Commands.findFlag), undefined);
      assert.deepEqual(await t.run(Commands.findFlag, 'beta'), { project: 'default', name: 'beta' });
    } finally {
      t.dispose();
    }
  });

  it('reveal flag: (project, name) from hovers; says so when the flag is not loaded', async () => {
    const t = await setUp([flag('alpha')]);
    try {
      assert.equal(await t.run(Commands.revealFlag, 'default', 'alpha'), true);
      assert.equal(t.treeView.revealed.at(-1)?.node.label, 'alpha');
      assert.equal(await t.run(Commands.revealFlag, 'default', 'nope'), false);
      assert.equal(fake.texts('info').at(-1), 'The flag "nope" (project default) is not among the flags loaded.');
      assert.equal(await t.run(Commands.revealFlag, '[x](command:evil)'), false);
      assert.equal(fake.texts('info').at(-1), 'No flag named "[x] (command:evil)" is loaded.');
    } finally {
      t.dispose();
    }
  });

  it('refresh re-reads the flag list', async () => {
    const t = await setUp([flag('alpha')]);
    try {
      assert.equal(await t.run(Commands.refresh), 'ready');
      assert.equal(t.source.listCalls, 2);
    } finally {
      t.dispose();
    }
  });
});

describe('flag details and Copy Value', () => {
  const payload = '{"color":"green","sizes":[1,2]}';
  const details: Feature = {
    name: 'promo',
    project: 'default',
    description: 'A promotion',
    environments: [
      {
        name: 'development',
        enabled: true,
        strategies: [
          {
            id: 's1',
            name: 'default',
            segments: [],
            constraints: [{ contextName: 'country', operator: 'IN', values: ['DE', 'FR'] }],
            variants: [{ name: 'green', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: payload } }],
          },
        ],
      },
    ],
  };

  it('Show Flag Details opens a read-only document of the whole flag; Copy Value copies a payload and values in full', async () => {
    const t = await setUp([flag('promo')], { 'default/promo': details });
    const registration = registerFlagDetails({ store: t.store, view: t.view, logger });
    try {
      const uri = (await t.run(Commands.showFlagDetails, { project: 'default', name: 'promo' })) as string;
      assert.equal(uri, 'unleash-flag:/promo.txt?project=default&name=promo');
      assert.deepEqual(fake.shownDocuments.slice(-1), [uri]);
      // From the palette with nothing selected: a pick of the flags.
      fake.pick = (items) => items[0];
      assert.equal(await t.run(Commands.showFlagDetails), uri);
      assert.deepEqual((fake.quickPicks.at(-1)?.options as { title?: string }).title, 'Unleash: Show Flag Details');
      const provider = fake.contentProviders.get('unleash-flag');
      assert.ok(provider);
      const text = (await provider.provideTextDocumentContent(Uri.parse(uri), new CancellationTokenSource().token)) ?? '';
      assert.ok(text.startsWith('promo\n=====\nProject: default\n'), text);
      assert.ok(text.includes('      - country is one of (2 values)\n          DE\n          FR\n'), text);
      assert.ok(text.includes('      Payload (json):\n          {\n            "color": "green",\n'), text);

      const provider2 = t.view.provider;
      const [row] = await provider2.getChildren();
      const [environment] = await provider2.getChildren(row);
      const [strategy] = await provider2.getChildren(environment);
      const inside = await provider2.getChildren(strategy);
      const constraint = inside.find((node) => node.kind === 'constraint') as TreeNode;
      assert.equal(await t.run(Commands.copyValue, constraint), 'DE\nFR');
      assert.equal(fake.clipboard, 'DE\nFR');
      assert.equal(fake.statusBarMessages.at(-1), 'Copied the values of country is one of DE, FR');
      const variants = await provider2.getChildren(inside.find((node) => node.label === 'Variants'));
      assert.equal(variants[0]?.contextValue, 'variant:payload');
      assert.equal(await t.run(Commands.copyValue, variants[0]), '{\n  "color": "green",\n  "sizes": [\n    1,\n    2\n  ]\n}');
      assert.equal(fake.statusBarMessages.at(-1), 'Copied the payload of green — 100%');
    } finally {
      registration.dispose();
      t.dispose();
    }
  });
});

