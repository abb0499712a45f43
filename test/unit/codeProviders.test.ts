/**
 * The editor side of completion, diagnostics and quick fixes against the real FlagStore, in the 'vscode' stand-in
 * (test/support/fakeVscode.ts): what the Problems panel holds while the flags load, after they loaded, after a
 * failed refresh and after typing (debounced); the completion list and quick fixes as the editor receives them; and
 * that none of it asks the flag source anything.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { HttpError } from '../../src/api/errors';
import type { Feature, FeatureSummary, Segment } from '../../src/api/schemas';
import type { FlagSource } from '../../src/model/store/flagSource';
import { FlagStore } from '../../src/model/store/flagStore';
import { installFakeVscode, Position, Range, Uri, type CodeAction, type CompletionItem, type MarkdownString } from '../support/fakeVscode';
import { recordingLogger } from '../support/recordingLogger';

const fake = installFakeVscode();

class FakeDocument {
  version = 1;
  readonly languageId: string;
  readonly uri: Uri;
  constructor(readonly path: string, public text: string) {
    this.uri = Uri.file(path);
    this.languageId = path.endsWith('.py') ? 'python' : 'typescript';
  }
  getText() {
    return this.text;
  }
  lineAt(line: number) {
    return { text: this.text.split('\n')[line] ?? '' };
  }
}

let CodeFlags: typeof import('../../src/services/codeFlags').CodeFlags;
let HoverSettingsByFolder: typeof import('../../src/services/hoverSettingsByFolder').HoverSettingsByFolder;
let FlagDiagnosticsPublisher: typeof import('../../src/code/flagDiagnosticsPublisher').FlagDiagnosticsPublisher;
let DIAGNOSTICS_DEBOUNCE_MS: typeof import('../../src/code/flagDiagnosticsPublisher').DIAGNOSTICS_DEBOUNCE_MS;
let FlagCompletionProvider: typeof import('../../src/code/flagCompletionProvider').FlagCompletionProvider;
let FlagCodeActionProvider: typeof import('../../src/code/flagCodeActions').FlagCodeActionProvider;
let registerStatusBar: typeof import('../../src/views/statusBar').registerStatusBar;
let registerFlagHovers: typeof import('../../src/hovers/flagHoverProvider').registerFlagHovers;
// Loaded once the stand-in answers `require('vscode')`.
before(async () => {
  CodeFlags = (await import('../../src/services/codeFlags')).CodeFlags;
  HoverSettingsByFolder = (await import('../../src/services/hoverSettingsByFolder')).HoverSettingsByFolder;
  FlagDiagnosticsPublisher = (await import('../../src/code/flagDiagnosticsPublisher')).FlagDiagnosticsPublisher;
  DIAGNOSTICS_DEBOUNCE_MS = (await import('../../src/code/flagDiagnosticsPublisher')).DIAGNOSTICS_DEBOUNCE_MS;
  FlagCompletionProvider = (await import('../../src/code/flagCompletionProvider')).FlagCompletionProvider;
  FlagCodeActionProvider = (await import('../../src/code/flagCodeActions')).FlagCodeActionProvider;
  registerStatusBar = (await import('../../src/views/statusBar')).registerStatusBar;
  registerFlagHovers = (await import('../../src/hovers/flagHoverProvider')).registerFlagHovers;
});

// ---- Data -------------------------------------------------------------------------

const env = (development: boolean, production: boolean) => [
  { name: 'development', enabled: development, sortOrder: 1 },
  { name: 'production', enabled: production, sortOrder: 2 },
];
const summaries: FeatureSummary[] = [
  { name: 'new-checkout-flow', project: 'default', type: 'release', environments: env(true, false) },
  { name: 'old-banner', project: 'default', type: 'release', stale: true, environments: env(true, true) },
];

class CountingSource implements FlagSource {
  readonly kind: 'server' | 'files' = 'server';
  readonly label: string = 'unleash.example.com';
  requests = 0;
  next: Promise<FeatureSummary[]> | undefined;
  listFeatures(): Promise<FeatureSummary[]> {
    this.requests++;
    return this.next ?? Promise.resolve(summaries);
  }
  getFeature(): Promise<Feature> {
    this.requests++;
    return Promise.reject(new Error('not used'));
  }
  async getStrategySegments(): Promise<Segment[]> {
    this.requests++;
    return [];
  }
  async listEnvironments(): Promise<string[]> {
    this.requests++;
    return [];
  }
  webUrl(project: string, name: string): string {
    return `https://unleash.example.com/projects/${project}/features/${name}`;
  }
}

const { logger } = recordingLogger();
const shown = (uri = 'file:///work/src/checkout.ts') =>
  fake.diagnostics(uri).map((d) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.character} ${d.severity} ${d.code} ${d.source}: ${d.message}`);

/** The store, CodeFlags and the diagnostics publisher as activate() wires them; `dispose` ends all three. */
function codeSide() {
  const store = new FlagStore({ info() {}, error() {} });
  const flags = new CodeFlags(store, logger, new HoverSettingsByFolder());
  const publisher = new FlagDiagnosticsPublisher(flags, logger);
  const dispose = () => {
    publisher.dispose();
    flags.dispose();
    store.dispose();
  };
  return { store, flags, publisher, dispose };
}

describe('diagnostics, completion and quick fixes in the editor', () => {
  it('nothing while loading or failed; the typo after loading; typing re-analyses once, debounced, with no request', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { store, flags, publisher, dispose } = codeSide();
    const document = new FakeDocument('/work/src/checkout.ts', `if (unleash.isEnabled('new-chekout-flow')) {}\nuseFlag("old-banner");`);
    fake.textDocuments.push(document);
    fake.documentOpened.fire(document);
    await publisher.settled();
    assert.deepEqual(shown(), [], 'no flag source yet');

    const source = new CountingSource();
    let finish!: (list: FeatureSummary[]) => void;
    source.next = new Promise((resolve) => (finish = resolve));
    await store.setSource(source, 'ready');
    assert.equal(store.state, 'loading', 'the open document calls an SDK: its diagnostics need the flags');
    assert.equal(source.requests, 1);
    const loading = store.load();
    fake.documentOpened.fire(document);
    await publisher.settled();
    assert.deepEqual(shown(), [], 'loading: no verdict');
    finish(summaries);
    await loading;
    await publisher.settled();
    assert.deepEqual(shown(), [
      '0:23-39 1 unknown-flag Unleash: No flag named "new-chekout-flow" on unleash.example.com. Did you mean "new-checkout-flow"?',
      '1:9-19 2 stale-flag Unleash: Flag "old-banner" (project default) is marked stale: ready to remove.',
    ]);

    // Typing: nothing until the edits settle, then one analysis; the source is never asked.
    const requests = source.requests;
    document.text = `if (unleash.isEnabled('new-checkout-flow')) {}\nuseFlag("old-banner");`;
    fake.documentChanged.fire({ document, contentChanges: [{}] });
    fake.documentChanged.fire({ document, contentChanges: [{}] });
    await publisher.settled();
    assert.equal(shown().length, 2, 'still the old verdicts while typing');
    t.mock.timers.tick(DIAGNOSTICS_DEBOUNCE_MS);
    await publisher.settled();
    assert.deepEqual(shown(), ['1:9-19 2 stale-flag Unleash: Flag "old-banner" (project default) is marked stale: ready to remove.']);

    // Completion and quick fixes read the same catalog: still no request.
    const completion = new FlagCompletionProvider(flags);
    const line = new FakeDocument('/work/src/new.ts', 'unleash.isEnabled("new-');
    const list = await completion.provideCompletionItems(line as never, new Position(0, 23) as never);
    assert.deepEqual(
      list?.items.map((item) => [item.label, item.detail, item.sortText, item.insertText, JSON.stringify(item.range)]),
      [
        ['new-checkout-flow', 'release · default · development ● production ○', '0199new-checkout-flow', 'new-checkout-flow',
          JSON.stringify({ inserting: new Range(0, 19, 0, 23), replacing: new Range(0, 19, 0, 23) })],
        ['old-banner', 'release · default · stale · development ● production ●', '1199old-banner', 'old-banner',
          JSON.stringify({ inserting: new Range(0, 19, 0, 23), replacing: new Range(0, 19, 0, 23) })],
      ],
    );
    const resolved = (await completion.resolveCompletionItem(list!.items[0] as never)) as unknown as CompletionItem;
    const doc = resolved.documentation as MarkdownString;
    assert.equal(doc.value, '**new\\-checkout\\-flow** · release · project default\n\n- development: enabled\n- production: disabled');
    assert.deepEqual([doc.isTrusted, doc.supportHtml], [false, false]);

    const actions = new FlagCodeActionProvider(flags, publisher);
    const stale = fake.diagnostics(document.uri.toString())[0]!;
    const offered = actions.provideCodeActions(document as never, stale.range as never, { diagnostics: [stale] } as never) as unknown as CodeAction[];
    assert.deepEqual(
      offered.map((a) => [a.title, a.command?.command, JSON.stringify(a.command?.arguments)]),
      [
        ['Reveal "old-banner" in the Flags tree', 'unleash.revealFlag', '[{"project":"default","name":"old-banner"}]'],
        ['Show details of "old-banner"', 'unleash.showFlagDetails', '[{"project":"default","name":"old-banner"}]'],
        ['Open "old-banner" in Unleash', 'unleash.openInWebUi', '[{"project":"default","name":"old-banner"}]'],
        ['Copy flag name "old-banner"', 'unleash.copyFlagName', '[{"project":"default","name":"old-banner"}]'],
      ],
    );
    assert.equal(source.requests, requests, 'typing, completion and quick fixes sent no request');

    // A failed refresh keeps every verdict of the catalog it had (marked out of date in the view).
    const verdicts = shown();
    assert.ok(verdicts.length > 0);
    source.next = Promise.reject(new Error('HTTP 500'));
    await store.refresh();
    assert.equal(store.state, 'ready');
    await publisher.settled();
    assert.deepEqual(shown(), verdicts);
    const kept = await completion.provideCompletionItems(line as never, new Position(0, 23) as never);
    assert.deepEqual(kept?.items.map((item) => item.label), list?.items.map((item) => item.label));

    // A source that never loaded has no catalog to judge names with: no verdict.
    const broken = new CountingSource();
    broken.next = Promise.reject(new Error('HTTP 500'));
    await store.setSource(broken, 'ready');
    assert.equal(store.state, 'error');
    await publisher.settled();
    assert.deepEqual(shown(), []);
    assert.equal(await completion.provideCompletionItems(line as never, new Position(0, 23) as never), undefined);

    dispose();
  });

  it('an archived name: held back until the lookup answers, then archived (never unknown first), with fixes that open it', async () => {
    class ArchivedSource extends CountingSource {
      readonly lookups: string[] = [];
      private readonly waiting: Array<() => void> = [];
      findArchived(name: string): Promise<FeatureSummary | undefined> {
        this.lookups.push(name);
        const found = name === 'old-promo' ? { name, project: 'default', archived: true, archivedAt: '2026-11-02T10:00:00.000Z' } : undefined;
        return new Promise((resolve) => this.waiting.push(() => resolve(found)));
      }
      answer(): void {
        for (const answer of this.waiting.splice(0)) answer();
      }
    }
    const { store, flags, publisher, dispose } = codeSide();
    void store.load(); // needed from the start: setSource reads the list
    const document = new FakeDocument('/work/src/promo.ts', `isEnabled('old-promo');\nisEnabled('no-such-flag');\nuseFlag("old-banner");`);
    fake.textDocuments.splice(0, fake.textDocuments.length, document);
    const source = new ArchivedSource();
    await store.setSource(source, 'ready');
    await publisher.settled();
    const uri = document.uri.toString();
    const stale = '2:9-19 2 stale-flag Unleash: Flag "old-banner" (project default) is marked stale: ready to remove.';
    assert.deepEqual(shown(uri), [stale], 'the two names the listing lacks wait for their lookups');
    assert.deepEqual(source.lookups, ['old-promo', 'no-such-flag']);

    source.answer();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await publisher.settled();
    assert.deepEqual(shown(uri), [
      '0:11-20 1 archived-flag Unleash: Flag "old-promo" (project default) is archived: code reading it always gets the default.',
      '1:11-23 1 unknown-flag Unleash: No flag named "no-such-flag" on unleash.example.com. Check the spelling; the flag may also be archived or in a project this workspace does not read.',
      stale,
    ]);
    assert.deepEqual(source.lookups, ['old-promo', 'no-such-flag'], 'asked once per name');

    const archived = fake.diagnostics(uri)[0]!;
    const offered = new FlagCodeActionProvider(flags, publisher).provideCodeActions(document as never, archived.range as never, { diagnostics: [archived] } as never) as unknown as CodeAction[];
    assert.deepEqual(offered.map((a) => [a.title, a.command?.command]), [
      ['Show details of "old-promo"', 'unleash.showFlagDetails'],
      ['Open "old-promo" in Unleash', 'unleash.openInWebUi'],
      ['Copy flag name "old-promo"', 'unleash.copyFlagName'],
    ]);
    dispose();
  });

  it('offline (export files): every unknown name shows at once; none waits for a lookup among archived flags', async () => {
    class FilesSource extends CountingSource {
      override readonly kind = 'files';
      override readonly label = '.unleash/production.json';
      readonly lookups: string[] = [];
      // As DeferredSource offers it for every source: the files cannot tell, and answer nothing.
      async findArchived(name: string): Promise<FeatureSummary | undefined> {
        this.lookups.push(name);
        return undefined;
      }
    }
    const { store, publisher, dispose } = codeSide();
    void store.load();
    const document = new FakeDocument('/work/src/many.ts', Array.from({ length: 25 }, (_, i) => `isEnabled('missing-${i}');`).join('\n'));
    fake.textDocuments.splice(0, fake.textDocuments.length, document);
    const source = new FilesSource();
    await store.setSource(source, 'ready');
    await publisher.settled();
    assert.equal(fake.diagnostics(document.uri.toString()).length, 25);
    assert.equal(fake.diagnostics(document.uri.toString())[0]?.message, 'No flag named "missing-0" in .unleash/production.json. Check the spelling; the flag may also be archived or in a project this workspace does not read.');
    assert.deepEqual(source.lookups, []);
    dispose();
  });

  it('the typo quick fix replaces the name in place', async () => {
    const { store, flags, publisher, dispose } = codeSide();
    void store.load(); // needed from the start: setSource reads the list
    const document = new FakeDocument('/work/app.py', `if client.is_enabled("new-checkout-flw"):`);
    fake.textDocuments.splice(0, fake.textDocuments.length, document);
    await store.setSource(new CountingSource(), 'ready');
    await publisher.settled();
    const [typo] = fake.diagnostics(document.uri.toString());
    assert.ok(typo);
    const offered = new FlagCodeActionProvider(flags, publisher).provideCodeActions(document as never, typo.range as never, { diagnostics: [typo] } as never) as unknown as CodeAction[];
    assert.deepEqual(
      offered.map((a) => [a.title, a.isPreferred, a.edit?.entries().flatMap(([, edits]) => edits).map((e) => [JSON.stringify(e.range), e.newText])]),
      [['Change to "new-checkout-flow"', true, [[JSON.stringify(new Range(0, 22, 0, 38)), 'new-checkout-flow']]]],
    );
    dispose();
  });

  it('a large catalog: 500 names at a time, as an incomplete list that narrows as typing goes on', async () => {
    const { store, flags, dispose } = codeSide();
    void store.load(); // needed from the start: setSource reads the list
    const source = new CountingSource();
    const many = Array.from({ length: 1_200 }, (_, i) => ({ name: `flag-${String(i).padStart(4, '0')}`, project: 'default' }));
    source.next = Promise.resolve([...many, ...summaries]);
    await store.setSource(source, 'ready');
    const completion = new FlagCompletionProvider(flags);
    const at = async (text: string) => {
      const list = await completion.provideCompletionItems(new FakeDocument('/work/src/new.ts', text) as never, new Position(0, text.length) as never);
      return { incomplete: list?.isIncomplete, labels: list?.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label)) ?? [] };
    };
    const opened = await at('unleash.isEnabled("');
    assert.deepEqual([opened.incomplete, opened.labels.length, opened.labels[0], opened.labels.at(-1)], [true, 500, 'flag-0000', 'flag-0499']);
    flags.recordUse('flag-1199');
    const ranked = await at('unleash.isEnabled("');
    assert.deepEqual([ranked.labels.length, ranked.labels.includes('flag-1199'), ranked.labels.at(-2)], [500, true, 'flag-0498'], 'a name used lately is among them');
    const narrowed = await at('unleash.isEnabled("flag-11');
    assert.equal(narrowed.incomplete, true, 'still a part of a large catalog: asked again at the next key');
    assert.deepEqual(narrowed.labels.filter((name) => !/f.*l.*a.*g.*-.*1.*1/.test(name)), [], 'only names that hold what is typed, in order');
    assert.deepEqual(many.slice(1_100).filter((flag) => !narrowed.labels.includes(flag.name)), [], 'the 100 names that start with it among them');
    assert.equal(narrowed.labels.length, 147);
    dispose();
  });

  it("names that break Unleash's naming rule are neither completed nor offered as a fix", async () => {
    const { store, flags, publisher, dispose } = codeSide();
    void store.load(); // needed from the start: setSource reads the list
    const document = new FakeDocument('/work/app.py', `if client.is_enabled("new-checkout-flw"):`);
    fake.textDocuments.splice(0, fake.textDocuments.length, document);
    const source = new CountingSource();
    // One edit from the typo, displayed as `new-checkout-flw`; and six 10 MB names.
    const hostile = [{ name: 'new-checkout-fl\u202ew' }, ...['\u202e', '\u200b', '\u00ad', '\u2066', '\u{E0041}', '\u0085'].map((ch, i) => ({ name: `huge-${i}${ch}${'x'.repeat(10_000_000)}` }))];
    source.next = Promise.resolve([...summaries, ...hostile]);
    await store.setSource(source, 'ready');
    await publisher.settled();
    const [typo] = fake.diagnostics(document.uri.toString());
    assert.equal(typo?.message, 'No flag named "new-checkout-flw" on unleash.example.com. Did you mean "new-checkout-flow"?');
    const offered = new FlagCodeActionProvider(flags, publisher).provideCodeActions(document as never, typo!.range as never, { diagnostics: [typo] } as never) as unknown as CodeAction[];
    assert.deepEqual(offered.map((a) => [a.title, a.edit?.entries().flatMap(([, edits]) => edits).map((e) => e.newText)]), [
      ['Change to "new-checkout-flow"', ['new-checkout-flow']],
    ]);
    const line = new FakeDocument('/work/src/new.ts', 'unleash.isEnabled("');
    const list = await new FlagCompletionProvider(flags).provideCompletionItems(line as never, new Position(0, 19) as never);
    assert.deepEqual(list?.items.map((item) => [item.label, item.insertText]), [['new-checkout-flow', 'new-checkout-flow'], ['old-banner', 'old-banner']]);
    dispose();
  });
});

describe("a workspace's SDK calls (a list setting a cloned repository can write)", () => {
  /**
   * The code side as activate() wires it, hovers included (they log what the hover settings left out), with a source
   * nothing has needed yet: a document that calls an SDK makes it read the flags (and the log says so).
   */
  async function wired() {
    const { logger: log, lines } = recordingLogger();
    const store = new FlagStore({ info() {}, error() {} });
    const settings = new HoverSettingsByFolder();
    const flags = new CodeFlags(store, log, settings);
    const publisher = new FlagDiagnosticsPublisher(flags, log);
    const hovers = registerFlagHovers({ store, settings, logger: log });
    await store.setSource(new CountingSource(), 'ready');
    assert.equal(store.state, 'idle');
    const open = (path: string, text: string) => {
      const document = new FakeDocument(path, text);
      fake.textDocuments.push(document);
      fake.documentOpened.fire(document);
    };
    const dispose = () => {
      hovers.dispose();
      publisher.dispose();
      flags.dispose();
      settings.dispose();
      store.dispose();
      fake.textDocuments.length = 0;
    };
    return { lines, open, dispose };
  }
  const calls = Array.from({ length: 50_000 }, (_, i) => `customCall${i}`);

  it('50,000 of them: the first 100 are read and the log says the rest are ignored; a call past them reads no flags', async () => {
    fake.set('workspace', 'unleash.hover.sdkCalls', calls);
    const { lines, open, dispose } = await wired();
    try {
      open('/work/src/late.ts', "if (customCall49999('new-checkout-flow')) {}");
      open('/work/src/early.ts', "if (customCall99('new-checkout-flow')) {}");
      assert.deepEqual(
        lines.filter((line) => line.startsWith('Setting ') || line.endsWith('reading the flags.')),
        [
          'Setting unleash.hover.sdkCalls: the entries past the first 100 (50000 in all); ignored.',
          '/work/src/early.ts calls an SDK: reading the flags.',
        ],
      );
    } finally {
      dispose();
      fake.set('workspace', 'unleash.hover.sdkCalls', undefined);
    }
  });

  it('in Restricted Mode none of them apply: only the built-in calls read the flags', async () => {
    fake.set('workspace', 'unleash.hover.sdkCalls', calls);
    fake.setTrusted(false);
    const { lines, open, dispose } = await wired();
    try {
      open('/work/src/custom.ts', "if (customCall7('new-checkout-flow')) {}");
      open('/work/src/builtin.ts', "if (unleash.isEnabled('new-checkout-flow')) {}");
      assert.deepEqual(
        lines.filter((line) => line.startsWith('Setting ') || line.endsWith('reading the flags.')),
        ['/work/src/builtin.ts calls an SDK: reading the flags.'],
      );
    } finally {
      dispose();
      fake.setTrusted(true);
      fake.set('workspace', 'unleash.hover.sdkCalls', undefined);
    }
  });
});

describe('status bar item', () => {
  it('follows the store: loading, ready with the count, error on the error colour with the reason; click offers actions', async () => {
    const store = new FlagStore({ info() {}, error() {} });
    void store.load(); // needed from the start: setSource reads the list
    const bar = registerStatusBar(store);
    const item = fake.statusBarItems.at(-1)!;
    const colour = (): string | undefined => item.backgroundColor?.id;
    assert.deepEqual([item.visible, item.command, item.name], [false, 'unleash.statusActions', 'Unleash'], 'start-up with nothing configured: hidden');
    assert.ok(fake.commands.has('unleash.statusActions'));

    const source = new CountingSource();
    await store.setSource(source, 'ready');
    assert.equal(item.text, '$(check) Unleash: unleash.example.com · 2 flags');
    assert.equal(colour(), undefined);
    assert.match(item.tooltip ?? '', /^2 flags from unleash\.example\.com\.\nTo clean up: 1 stale\.\nLast refreshed \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\.\nClick for Refresh, Test Connection, Connect and Show Log\.$/);

    // A refresh that fails keeps the flags, marked out of date with why, on the warning colour.
    const refreshed = item.tooltip?.split('\n').slice(1, 3).join('\n');
    source.next = Promise.reject(new HttpError({ status: 500, request: 'GET /api/admin/projects/default/features', serverMessage: 'db down' }));
    await store.refresh();
    assert.equal(item.text, '$(warning) Unleash: unleash.example.com · 2 flags, out of date');
    assert.equal(colour(), 'statusBarItem.warningBackground');
    assert.equal(
      item.tooltip,
      [
        '2 flags from unleash.example.com.',
        refreshed,
        "Out of date: the last refresh failed: the server failed (500: db down). Try again; if it keeps failing, check the server's logs. Failed request: GET /api/admin/projects/default/features.",
        'Click for Refresh, Test Connection, Connect and Show Log.',
      ].join('\n'),
    );

    // A source that never loaded: the error, on the error colour.
    const broken = new CountingSource();
    broken.next = Promise.reject(new Error('socket hang up'));
    await store.setSource(broken, 'ready');
    assert.equal(item.text, '$(error) Unleash: unleash.example.com');
    assert.equal(colour(), 'statusBarItem.errorBackground');
    assert.match(item.tooltip ?? '', /^Loading flags from unleash\.example\.com failed: .*socket hang up/);

    await store.setSource(undefined, 'noToken');
    assert.deepEqual([item.text, colour(), item.visible], ['$(key) Unleash: no token', 'statusBarItem.warningBackground', true]);
    await store.setSource(undefined, 'noServer');
    assert.equal(item.visible, false, 'no server set and no export files: hidden');
    bar.dispose();
    store.dispose();
  });
});
