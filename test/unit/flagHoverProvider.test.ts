/**
 * The hover provider against the real FlagStore and a scripted FlagSource, in the 'vscode' stand-in
 * (test/support/fakeVscode.ts).
 */
import { before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CancelledError } from '../../src/api/errors';
import { featureSchema, featureSearchSchema, type Feature, type FeatureSummary, type Segment } from '../../src/api/schemas';
import { FlagAnalyzer } from '../../src/model/code/flagDiagnostics';
import { flagKey } from '../../src/model/store/catalog';
import type { FlagSource } from '../../src/model/store/flagSource';
import { escapeMarkdown } from '../../src/model/text/markdown';
import { FlagStore } from '../../src/model/store/flagStore';
import { CancellationTokenSource, installFakeVscode, Range, Uri, type Hover, type MarkdownString } from '../support/fakeVscode';

installFakeVscode();
let FlagHoverProvider: typeof import('../../src/hovers/flagHoverProvider').FlagHoverProvider;
let registerFlagHovers: typeof import('../../src/hovers/flagHoverProvider').registerFlagHovers;
let MAX_HOVER_LINE: number;
let LOOKUP_WAIT_MS: number;
let HoverSettingsByFolder: typeof import('../../src/services/hoverSettingsByFolder').HoverSettingsByFolder;
// Loaded once the stand-in answers `require('vscode')`.
before(async () => {
  FlagHoverProvider = (await import('../../src/hovers/flagHoverProvider')).FlagHoverProvider;
  registerFlagHovers = (await import('../../src/hovers/flagHoverProvider')).registerFlagHovers;
  MAX_HOVER_LINE = (await import('../../src/hovers/flagHoverProvider')).MAX_HOVER_LINE;
  LOOKUP_WAIT_MS = (await import('../../src/hovers/flagHoverProvider')).LOOKUP_WAIT_MS;
  HoverSettingsByFolder = (await import('../../src/services/hoverSettingsByFolder')).HoverSettingsByFolder;
});

// ---- Data and a scripted source -------------------------------------------------

const fixture = (name: string): unknown => JSON.parse(readFileSync(path.join(__dirname, '..', 'fixtures', name), 'utf8'));
const details = featureSchema.parse(fixture('feature-7.5.1.json'));
const summary = featureSearchSchema.parse(fixture('search-page.json')).features[0] as FeatureSummary;

type Mode = 'deferred' | 'immediate' | 'fail';

class ScriptedSource implements FlagSource {
  readonly kind = 'server' as const;
  readonly label = 'unleash.example.com';
  mode: Mode = 'deferred';
  readonly calls: string[] = [];
  readonly signals: AbortSignal[] = [];
  private readonly pending = new Map<string, (feature: Feature) => void>();
  listing: Promise<FeatureSummary[]> | undefined;

  constructor(
    private readonly summaries: FeatureSummary[],
    private readonly features: Map<string, Feature>,
  ) {}

  listFeatures(): Promise<FeatureSummary[]> {
    return this.listing ?? Promise.resolve(this.summaries);
  }
  getFeature(project: string, name: string, signal?: AbortSignal): Promise<Feature> {
    const key = flagKey(project, name);
    this.calls.push(`${project}/${name}`);
    if (signal) this.signals.push(signal);
    const feature = this.features.get(key) ?? { ...details, name, project };
    if (this.mode === 'immediate') return Promise.resolve(feature);
    if (this.mode === 'fail') return Promise.reject(new Error('HTTP 500'));
    return new Promise((resolve, reject) => {
      this.pending.set(key, resolve);
      signal?.addEventListener('abort', () => reject(new CancelledError()));
    });
  }
  /** Answers a deferred read. */
  answer(project: string, name: string): void {
    const key = flagKey(project, name);
    this.pending.get(key)?.(this.features.get(key) ?? { ...details, name, project });
    this.pending.delete(key);
  }
  async getStrategySegments(): Promise<Segment[]> {
    return [];
  }
  async listEnvironments(): Promise<string[]> {
    return ['development', 'production'];
  }
  webUrl(project: string, name: string): string {
    return `https://unleash.example.com/projects/${project}/features/${name}`;
  }
}

const logLines: string[] = [];
const logger = {
  trace: (m: string) => logLines.push(`trace ${m}`),
  debug: (m: string) => logLines.push(`debug ${m}`),
  info: (m: string) => logLines.push(`info ${m}`),
  warn: (m: string) => logLines.push(`warn ${m}`),
  error: (m: string | Error) => logLines.push(`error ${m}`),
  child() {
    return logger;
  },
};

function doc(...lines: string[]) {
  return { lineCount: lines.length, lineAt: (n: number) => ({ text: lines[n]! }) };
}
const at = (line: number, character: number) => ({ line, character });
const settle = () => new Promise((resolve) => setImmediate(resolve));

async function setup(summaries: FeatureSummary[] = [summary], features = new Map([[flagKey('default', details.name), details]])) {
  const source = new ScriptedSource(summaries, features);
  const store = new FlagStore({ info() {}, error() {} });
  void store.load(); // needed from the start: setSource reads the list
  await store.setSource(source, 'ready');
  const provider = new FlagHoverProvider(store, logger, { transforms: [], sdkCalls: undefined });
  return { source, store, provider };
}

/** What the editor shows of a hover: its one markdown, over its range. */
function shown(result: unknown): { contents: MarkdownString; range: Range | undefined } | undefined {
  const hover = result as Hover | undefined;
  if (!hover) return undefined;
  assert.equal(hover.contents.length, 1);
  return { contents: hover.contents[0]!, range: hover.range };
}

type Provider = InstanceType<typeof FlagHoverProvider>;
async function hoverAt(provider: Provider, line: string, character: number, cancellation = new CancellationTokenSource()) {
  return shown(await provider.provideHover(doc(line) as never, at(0, character) as never, cancellation.token as never));
}

const LINE = "  if (unleash.isEnabled('new-checkout-flow')) {";
const COLUMN = LINE.indexOf('checkout');

beforeEach(() => {
  logLines.length = 0;
});

// ---------------------------------------------------------------------------

describe('FlagHoverProvider', () => {
  it('answers from the summary at once, reads the details in the background, and the next hover shows them', async () => {
    const { source, store, provider } = await setup();
    const first = await hoverAt(provider, LINE, COLUMN);
    assert.ok(first);
    assert.match(first.contents.value, /^\*\*new\\-checkout\\-flow\*\* · release · project default\n/);
    assert.ok(first.contents.value.includes('| development | ●\u00a0enabled | never |'));
    assert.ok(first.contents.value.includes('**development** · has strategies  \n'));
    assert.ok(first.contents.value.includes('_Loading strategies and variants… hover again to see them._'));
    assert.deepEqual(source.calls, ['default/new-checkout-flow'], 'the read was started');
    assert.equal(store.peekFeature('default', 'new-checkout-flow'), undefined, 'and not waited for');

    // The range is the literal's content; only our two commands are enabled; no HTML, no theme icons.
    const start = LINE.indexOf("'") + 1;
    assert.deepEqual(first.range, new Range(0, start, 0, start + 'new-checkout-flow'.length));
    assert.deepEqual(first.contents.isTrusted, { enabledCommands: ['unleash.revealFlag', 'unleash.copyFlagName', 'unleash.showFlagDetails'] });
    assert.equal(first.contents.supportHtml, false);
    assert.equal(first.contents.supportThemeIcons, false);

    source.answer('default', 'new-checkout-flow');
    await settle();
    const second = await hoverAt(provider, LINE, COLUMN);
    assert.ok(second);
    assert.ok(second.contents.value.includes('**development** · 1 strategy\\: Gradual rollout\\: 25\\% of userId'));
    assert.ok(second.contents.value.includes('- production\\: control — 100\\%'));
    assert.ok(second.contents.value.includes('[Open in Unleash](<https://unleash.example.com/projects/default/features/new-checkout-flow>)'));
    assert.ok(!second.contents.value.includes('Loading'));
    assert.deepEqual(source.calls, ['default/new-checkout-flow'], 'no second read');
  });

  it('says when its states come from an out-of-date listing (the last refresh failed), and stops once one works', async () => {
    const { source, store, provider } = await setup();
    source.mode = 'immediate';
    const loadedAt = store.refreshedAt as Date;
    source.listing = Promise.reject(new Error('socket hang up'));
    await store.refresh();
    const stale = await hoverAt(provider, LINE, COLUMN);
    const minute = loadedAt.toISOString().slice(0, 16).replace('T', ' ');
    assert.ok(
      stale?.contents.value.endsWith(
        `\n\n_${escapeMarkdown(`Out of date: these states are those of ${minute} UTC; the last refresh failed (the status bar says why).`)}_\n\n_Source: unleash\\.example\\.com_`,
      ),
      stale?.contents.value,
    );
    source.listing = undefined;
    await store.refresh();
    assert.doesNotMatch((await hoverAt(provider, LINE, COLUMN))?.contents.value ?? '', /Out of date/);
  });

  it('shows details on the first hover when the source answers from memory (offline mode)', async () => {
    const { source, provider } = await setup();
    source.mode = 'immediate';
    const hover = await hoverAt(provider, LINE, COLUMN);
    assert.ok(hover?.contents.value.includes('1 strategy\\: Gradual rollout'));
  });

  it('passes the hover cancellation to the request', async () => {
    const { source, provider } = await setup();
    const cancellation = new CancellationTokenSource();
    const pending = hoverAt(provider, LINE, COLUMN, cancellation);
    cancellation.cancel();
    assert.equal(await pending, undefined, 'a cancelled hover shows nothing');
    assert.equal(source.signals.length, 1);
    assert.equal(source.signals[0]!.aborted, true, 'the only waiter cancelled: the request is aborted');
  });

  it('shows "could not be read" after a failed read, and retries only after the catalog changes', async () => {
    const { source, store, provider } = await setup();
    source.mode = 'fail';
    const first = await hoverAt(provider, LINE, COLUMN);
    assert.ok(first?.contents.value.includes('_Strategies and variants could not be read._'));
    assert.ok(logLines.some((line) => line.startsWith('warn ') && line.includes('HTTP 500')));
    await hoverAt(provider, LINE, COLUMN);
    assert.equal(source.calls.length, 1, 'not retried on every hover');
    await store.refresh();
    source.mode = 'immediate';
    const after = await hoverAt(provider, LINE, COLUMN);
    assert.equal(source.calls.length, 2);
    assert.ok(after?.contents.value.includes('1 strategy\\: Gradual rollout'));
  });

  it('says "No flag named" for an unknown name in an SDK call, and nothing elsewhere', async () => {
    const { provider } = await setup();
    const typo = "  if (unleash.isEnabled('new-chekout-flow')) {";
    const hover = await hoverAt(provider, typo, typo.indexOf('chekout'));
    assert.ok(hover);
    assert.ok(hover.contents.value.startsWith('No flag named `new-chekout-flow` on unleash\\.example\\.com\n\n`isEnabled` reads'));
    const start = typo.indexOf("'") + 1;
    assert.deepEqual(hover.range, new Range(0, start, 0, start + 'new-chekout-flow'.length));
    assert.equal(await hoverAt(provider, "const label = 'new-chekout-flow';", 18), undefined);
    assert.equal(await hoverAt(provider, 'const total = order.items.length;', 16), undefined, 'ordinary words');
  });

  it('does not call a name unknown while the catalog is still loading', async () => {
    const source = new ScriptedSource([summary], new Map());
    source.listing = new Promise(() => {});
    const store = new FlagStore({ info() {}, error() {} });
    void store.load(); // needed from the start: setSource reads the list
    void store.setSource(source, 'ready');
    assert.equal(store.state, 'loading');
    const provider = new FlagHoverProvider(store, logger, { transforms: [], sdkCalls: undefined });
    assert.equal(await hoverAt(provider, "isEnabled('new-chekout-flow')", 12), undefined);
  });

  it('shows every project that has the name, reading each one', async () => {
    const other: FeatureSummary = { ...summary, project: 'payments' };
    const { source, provider } = await setup([summary, other]);
    const hover = await hoverAt(provider, LINE, COLUMN);
    const sections = hover!.contents.value.split('\n\n---\n\n');
    assert.equal(sections.length, 2);
    assert.ok(sections[1]!.startsWith('**new\\-checkout\\-flow** · release · project payments'));
    assert.deepEqual(source.calls.sort(), ['default/new-checkout-flow', 'payments/new-checkout-flow']);
  });

  it('uses the name transforms and SDK calls it is given', async () => {
    const { provider } = await setup();
    provider.setOptions({ transforms: [{ kind: 'prefix', value: 'FLAG_' }, { kind: 'chain', transforms: [{ kind: 'prefix', value: 'FLAG_' }, { kind: 'screamingSnakeToKebab' }] }], sdkCalls: ['checkFlag'] });
    const line = 'if (flags.FLAG_NEW_CHECKOUT_FLOW) {';
    const hover = await hoverAt(provider, line, line.indexOf('NEW'));
    assert.ok(hover?.contents.value.startsWith('**new\\-checkout\\-flow**'));
    const typo = "checkFlag('nope')";
    assert.ok((await hoverAt(provider, typo, 12))?.contents.value.startsWith('No flag named `nope`'));
    assert.equal(await hoverAt(provider, "isEnabled('nope')", 12), undefined, 'only the configured calls');
  });

  it('builds the name index once per catalog, not per hover', async () => {
    const { store, provider } = await setup();
    const index = provider.nameIndex();
    assert.equal(index, new FlagAnalyzer(store.catalog).nameIndex, 'the catalog\'s one index, shared with diagnostics');
    for (let i = 0; i < 20; i++) await hoverAt(provider, LINE, COLUMN);
    assert.equal(provider.nameIndex(), index);
    assert.equal(logLines.filter((line) => line.includes('Indexed')).length, 1);
    await store.refresh();
    assert.notEqual(provider.nameIndex(), index, 'a new catalog, a new index');
  });

  it('gives no hover without a source or on a huge line', async () => {
    const store = new FlagStore({ info() {}, error() {} });
    void store.load(); // needed from the start: setSource reads the list
    const provider = new FlagHoverProvider(store, logger, { transforms: [], sdkCalls: undefined });
    assert.equal(await hoverAt(provider, LINE, COLUMN), undefined);
    const { provider: ready } = await setup();
    const huge = `${LINE}${' '.repeat(MAX_HOVER_LINE)}`;
    assert.equal(await hoverAt(ready, huge, COLUMN), undefined);
  });
});

describe('registerFlagHovers', () => {
  it('registers for the configured languages and again when the hover settings change', async () => {
    const fake = installFakeVscode();
    const registrations = fake.providers.hover;
    const store = new FlagStore({ info() {}, error() {} });
    void store.load(); // needed from the start: setSource reads the list
    const settings = new HoverSettingsByFolder();
    const disposable = registerFlagHovers({ store, settings, logger });
    assert.equal(registrations.length, 1);
    assert.deepEqual(registrations[0]!.selector, [{ scheme: 'file' }, { scheme: 'untitled' }]);

    fake.set('user', 'unleash.hover.languages', ['typescript', 'python']);
    assert.equal(registrations.length, 2);
    assert.equal(registrations[0]!.disposed, true);
    assert.deepEqual(registrations[1]!.selector, [
      { scheme: 'file', language: 'typescript' },
      { scheme: 'untitled', language: 'typescript' },
      { scheme: 'file', language: 'python' },
      { scheme: 'untitled', language: 'python' },
    ]);

    fake.set('user', 'unleash.serverUrl', 'https://unleash.example.com');
    assert.equal(registrations.length, 2, 'other settings do not re-register');

    fake.set('user', 'unleash.hover.enabled', false);
    assert.equal(registrations.length, 2);
    assert.equal(registrations[1]!.disposed, true, 'hovers off');

    fake.edit('user', { 'unleash.hover.enabled': true, 'unleash.hover.nameTransforms': [{ kind: 'prefix' }, { kind: 'nope' }] });
    assert.equal(registrations.length, 3);
    assert.ok(logLines.some((line) => line.startsWith('warn Setting unleash.hover.nameTransforms: a "prefix" transform needs')));

    disposable.dispose();
    assert.equal(registrations[2]!.disposed, true);
    settings.dispose();
    assert.equal(fake.configurationListeners(), 0);
  });
});

describe('FlagHoverProvider: hovers follow code', () => {
  it('a name in a comment gets no hover by default; in a string literal it does; matchAnywhere brings comments back', async () => {
    const { provider } = await setup();
    const comment = '  // new-checkout-flow is rolled out next week';
    assert.equal(await hoverAt(provider, comment, comment.indexOf('checkout')), undefined);
    for (const literal of ['"new-checkout-flow"', "'new-checkout-flow'", '`new-checkout-flow`']) {
      const line = `const flag = ${literal};`;
      const hover = await hoverAt(provider, line, line.indexOf('checkout'));
      assert.match(hover?.contents.value ?? '', /^\*\*new\\-checkout\\-flow\*\* · release/, literal);
    }
    const template = 'const flag = `new-checkout-flow${suffix}`;';
    assert.equal(await hoverAt(provider, template, template.indexOf('checkout')), undefined);

    // In YAML a value needs no quotes: a whole value is a literal there.
    const yaml = { lineCount: 1, languageId: 'yaml', lineAt: () => ({ text: '  flag: new-checkout-flow' }) };
    const inYaml = shown(await provider.provideHover(yaml as never, at(0, 12) as never, new CancellationTokenSource().token as never));
    assert.match(inYaml?.contents.value ?? '', /^\*\*new\\-checkout\\-flow\*\*/);

    provider.setOptions({ transforms: [], sdkCalls: undefined, matchAnywhere: true });
    const anywhere = await hoverAt(provider, comment, comment.indexOf('checkout'));
    assert.match(anywhere?.contents.value ?? '', /^\*\*new\\-checkout\\-flow\*\*/);
  });

  it('an identifier only through a name transform', async () => {
    const { provider } = await setup();
    const line = 'if (flags.NEW_CHECKOUT_FLOW) {}';
    assert.equal(await hoverAt(provider, line, line.indexOf('CHECKOUT')), undefined);
    provider.setOptions({ transforms: [{ kind: 'screamingSnakeToKebab' }], sdkCalls: undefined });
    const hover = await hoverAt(provider, line, line.indexOf('CHECKOUT'));
    assert.match(hover?.contents.value ?? '', /^\*\*new\\-checkout\\-flow\*\*/);
    assert.deepEqual(hover?.range, new Range(0, line.indexOf('NEW'), 0, line.indexOf(')')));
  });

  it('keeps the typo hint in SDK calls', async () => {
    const { provider } = await setup();
    const line = "unleash.isEnabled('new-chekout-flow')";
    const hover = await hoverAt(provider, line, line.indexOf('chekout'));
    assert.equal(
      hover?.contents.value,
      'No flag named `new-chekout-flow` on unleash\\.example\\.com\n\n`isEnabled` reads a flag by this name. Check the spelling; ' +
        'the flag may also be archived or in a project this workspace does not read.',
    );
  });
});

describe('FlagHoverProvider: archived flags', () => {
  const ARCHIVED_HOVER =
    '**old\\-banner** is archived · project default · archived 2026-11-02\n\n' +
    '`isEnabled` reads a flag by this name. SDKs no longer receive archived flags, so code reading it gets its default value. ' +
    'Revive the flag in Unleash, or remove the code.\n\n_Source: unleash\\.example\\.com_';
  const line = "if (unleash.isEnabled('old-banner')) {";

  /** A store over a source whose archived lookups answer when `answer` is called (or fail with `fail`). */
  async function archivedSetup() {
    const source = new ScriptedSource([summary], new Map());
    const asked: string[] = [];
    const waiting: Array<{ name: string; resolve: (flag: FeatureSummary | undefined) => void; reject: (error: Error) => void }> = [];
    Object.assign(source, {
      findArchived: (name: string) => {
        asked.push(name);
        return new Promise<FeatureSummary | undefined>((resolve, reject) => waiting.push({ name, resolve, reject }));
      },
    });
    const store = new FlagStore({ info() {}, error() {} });
    void store.load(); // needed from the start: setSource reads the list
    await store.setSource(source, 'ready');
    const provider = new FlagHoverProvider(store, logger, { transforms: [], sdkCalls: undefined });
    const answer = () => {
      for (const lookup of waiting.splice(0)) {
        lookup.resolve(lookup.name === 'old-banner' ? { name: lookup.name, project: 'default', archived: true, archivedAt: '2026-11-02T10:00:00.000Z' } : undefined);
      }
    };
    const fail = () => waiting.splice(0).forEach((lookup) => lookup.reject(new Error('HTTP 429')));
    return { store, provider, asked, answer, fail };
  }

  it('the first hover on an archived name waits for the lookup: archived, never unknown first; asked once', async () => {
    const { store, provider, asked, answer } = await archivedSetup();
    const first = hoverAt(provider, line, line.indexOf('banner'));
    setTimeout(answer, 50); // a server's round trip
    assert.equal((await first)?.contents.value, ARCHIVED_HOVER);
    assert.equal((await hoverAt(provider, line, line.indexOf('banner')))?.contents.value, ARCHIVED_HOVER);
    const typo = "unleash.isEnabled('no-such-flag')";
    const unknown = hoverAt(provider, typo, typo.indexOf('such'));
    setTimeout(answer, 10);
    assert.match((await unknown)?.contents.value ?? '', /^No flag named `no-such-flag`/);
    assert.deepEqual(asked, ['old-banner', 'no-such-flag']);
    store.dispose();
  });

  it('a lookup that fails is unknown (the store logs it and does not ask again until a refresh)', async () => {
    const { store, provider, asked, fail } = await archivedSetup();
    const first = hoverAt(provider, line, line.indexOf('banner'));
    setTimeout(fail, 10);
    assert.match((await first)?.contents.value ?? '', /^No flag named `old-banner` on unleash\\.example\\.com/);
    assert.match((await hoverAt(provider, line, line.indexOf('banner')))?.contents.value ?? '', /^No flag named/);
    assert.deepEqual(asked, ['old-banner']);
    store.dispose();
  });

  it('a lookup still out after LOOKUP_WAIT_MS says it is being checked, and the next hover has the answer', async () => {
    const { store, provider, answer } = await archivedSetup();
    const started = Date.now();
    const first = await hoverAt(provider, line, line.indexOf('banner'));
    assert.ok(Date.now() - started >= LOOKUP_WAIT_MS - 50);
    assert.equal(
      first?.contents.value,
      '`old-banner` is not among the flags listed from unleash\\.example\\.com.\n\n' +
        '`isEnabled` reads a flag by this name. Checking whether it is an archived flag… hover again in a moment.',
    );
    answer();
    await settle();
    assert.equal((await hoverAt(provider, line, line.indexOf('banner')))?.contents.value, ARCHIVED_HOVER);
    store.dispose();
  });
});

describe('FlagHoverProvider reads the flags on the first hover that needs them', () => {
  class CountingListing extends ScriptedSource {
    listings = 0;
    override listFeatures(): Promise<FeatureSummary[]> {
      this.listings++;
      return super.listFeatures();
    }
  }

  it('a hover outside any string literal reads nothing; the first on a literal reads the list once and answers', async () => {
    const source = new CountingListing([summary], new Map());
    const store = new FlagStore({ info() {}, error() {} });
    await store.setSource(source, 'ready');
    const provider = new FlagHoverProvider(store, logger, { transforms: [], sdkCalls: undefined });
    assert.equal(await hoverAt(provider, LINE, LINE.indexOf('unleash')), undefined);
    assert.deepEqual([store.state, source.listings], ['idle', 0], 'code, not a literal: nothing read');
    const first = await hoverAt(provider, LINE, COLUMN);
    assert.ok(first?.contents.value.startsWith('**new\\-checkout\\-flow**'), 'the first hover waits for the list and answers');
    assert.ok(await hoverAt(provider, LINE, COLUMN));
    assert.equal(source.listings, 1, 'the next hover reads nothing again');
    store.dispose();
  });

  it('with name transforms any word may name a flag: a hover there reads the list', async () => {
    const source = new CountingListing([summary], new Map());
    const store = new FlagStore({ info() {}, error() {} });
    await store.setSource(source, 'ready');
    const provider = new FlagHoverProvider(store, logger, { transforms: [{ kind: 'screamingSnakeToKebab' }], sdkCalls: undefined });
    const line = 'if (NEW_CHECKOUT_FLOW) {';
    assert.ok((await hoverAt(provider, line, line.indexOf('CHECKOUT')))?.contents.value.startsWith('**new\\-checkout\\-flow**'));
    assert.equal(source.listings, 1);
    store.dispose();
  });
});

describe('hover settings per folder (resource scope)', () => {
  it("each document follows its own folder's unleash.hover.*; the registration covers every folder's languages", async () => {
    const fake = installFakeVscode('/ws/web');
    fake.addFolder('/ws/api');
    fake.setInFolder('/ws/web', 'unleash.hover.languages', ['typescript']);
    fake.setInFolder('/ws/api', 'unleash.hover.languages', ['python']);
    fake.setInFolder('/ws/api', 'unleash.hover.sdkCalls', ['flag_on']);
    const registrations = fake.providers.hover;
    const { store } = await setup();
    const settings = new HoverSettingsByFolder();
    const disposable = registerFlagHovers({ store, settings, logger });
    try {
      assert.deepEqual(registrations.at(-1)!.selector, [
        { scheme: 'file', language: 'typescript' },
        { scheme: 'untitled', language: 'typescript' },
        { scheme: 'file', language: 'python' },
        { scheme: 'untitled', language: 'python' },
      ]);
      const hoverIn = async (file: string, languageId: string, line: string, character: number) => {
        const document = { uri: Uri.file(file), languageId, lineCount: 1, lineAt: () => ({ text: line }) };
        const provider = registrations.at(-1)!.provider as Provider;
        return shown(await provider.provideHover(document as never, at(0, character) as never, new CancellationTokenSource().token as never));
      };
      const ts = "isEnabled('new-checkout-flow')";
      assert.ok(await hoverIn('/ws/web/a.ts', 'typescript', ts, 12), 'web: TypeScript, built-in calls');
      assert.equal(await hoverIn('/ws/api/a.ts', 'typescript', ts, 12), undefined, "api: TypeScript is not in the folder's languages");
      const typo = "flag_on('nope')";
      assert.ok((await hoverIn('/ws/api/app.py', 'python', typo, 10))?.contents.value.startsWith('No flag named `nope`'), "api: the folder's SDK calls");
      assert.equal(await hoverIn('/ws/web/app.py', 'python', typo, 10), undefined, "web: Python is not in the folder's languages");

      fake.setInFolder('/ws/web', 'unleash.hover.enabled', false);
      assert.equal(await hoverIn('/ws/web/a.ts', 'typescript', ts, 12), undefined, 'web: hovers off there');
      assert.ok(await hoverIn('/ws/api/app.py', 'python', "flag_on('new-checkout-flow')", 10), 'api: still on');
    } finally {
      disposable.dispose();
      settings.dispose();
    }
  });
});
