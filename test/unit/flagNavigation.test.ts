/**
 * The editor side of inlay hints, Go to Definition (F12) and Find All References (Shift+F12), in the 'vscode'
 * stand-in on a real folder: what the editor receives (hint labels, positions, tooltip, click; the details document
 * and the tree reveal; the usage locations), and that none of it asks the flag source anything.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Feature, FeatureSummary, Segment } from '../../src/api/schemas';
import type { FlagSource } from '../../src/model/store/flagSource';
import { CancellationTokenSource, installFakeVscode, Position, Range, Uri, type MarkdownString } from '../support/fakeVscode';
import { recordingLogger } from '../support/recordingLogger';
import { FlagStore } from '../../src/model/store/flagStore';

const folder = mkdtempSync(path.join(os.tmpdir(), 'unleash-navigation-'));
const fake = installFakeVscode(folder);
after(() => rmSync(folder, { recursive: true, force: true }));

let CodeFlags: typeof import('../../src/services/codeFlags').CodeFlags;
let HoverSettingsByFolder: typeof import('../../src/services/hoverSettingsByFolder').HoverSettingsByFolder;
let FlagInlayHintsProvider: typeof import('../../src/code/flagInlayHints').FlagInlayHintsProvider;
let FlagNavigationProvider: typeof import('../../src/code/flagNavigation').FlagNavigationProvider;
// Loaded once the stand-in answers `require('vscode')`.
before(async () => {
  CodeFlags = (await import('../../src/services/codeFlags')).CodeFlags;
  HoverSettingsByFolder = (await import('../../src/services/hoverSettingsByFolder')).HoverSettingsByFolder;
  FlagInlayHintsProvider = (await import('../../src/code/flagInlayHints')).FlagInlayHintsProvider;
  FlagNavigationProvider = (await import('../../src/code/flagNavigation')).FlagNavigationProvider;
});

const env = (development: boolean, production: boolean) => [
  { name: 'development', enabled: development, sortOrder: 1 },
  { name: 'production', enabled: production, sortOrder: 2 },
];
const summaries: FeatureSummary[] = [
  { name: 'pay', project: 'default', type: 'release', environments: env(true, false) },
  { name: 'pay-later', project: 'default', type: 'release', environments: env(false, true) },
];

class CountingSource implements FlagSource {
  readonly kind = 'server' as const;
  readonly label = 'unleash.example.com';
  requests = 0;
  async listFeatures(): Promise<FeatureSummary[]> {
    this.requests++;
    return summaries;
  }
  getFeature(): Promise<Feature> {
    this.requests++;
    return Promise.reject(new Error('not used'));
  }
  async getStrategySegments(): Promise<Segment[]> {
    return [];
  }
  async listEnvironments(): Promise<string[]> {
    return [];
  }
}

class FakeDocument {
  readonly uri: Uri;
  readonly languageId = 'typescript';
  constructor(file: string, readonly text: string) {
    this.uri = Uri.file(path.join(folder, file));
    mkdirSync(path.dirname(this.uri.fsPath), { recursive: true });
    writeFileSync(this.uri.fsPath, text);
  }
  get lineCount() {
    return this.text.split('\n').length;
  }
  lineAt(line: number) {
    return { text: this.text.split('\n')[line] ?? '' };
  }
  getText() {
    return this.text;
  }
}

const checkout = new FakeDocument('src/checkout.ts', "if (unleash.isEnabled('pay')) {}\nif (unleash.isEnabled('pay-later')) {}\n// pay\nisEnabled('nope')");
new FakeDocument('src/other.ts', "const on = useFlag('pay');\n");
const token = new CancellationTokenSource().token;

async function setUp() {
  const { logger } = recordingLogger();
  const store = new FlagStore(logger);
  const source = new CountingSource();
  void store.load();
  await store.setSource(source, 'ready');
  const hoverSettings = new HoverSettingsByFolder();
  const flags = new CodeFlags(store, logger, hoverSettings);
  return { store, source, flags, logger, dispose: () => (flags.dispose(), hoverSettings.dispose()) };
}

describe('inlay hints, Go to Definition and Find All References in the editor', () => {
  it('hints after each known name: marks, click to details, the hover with the state in words as tooltip', async () => {
    const t = await setUp();
    const provider = new FlagInlayHintsProvider(t.flags);
    try {
      const hints = provider.provideInlayHints(checkout as never, new Range(0, 0, 3, 0) as never, token as never);
      assert.deepEqual(
        hints.map((hint) => {
          const [part] = hint.label as Array<{ value: string; command?: { command: string; arguments?: unknown[] } }>;
          return `${hint.position.line}:${hint.position.character} ${part?.value} → ${part?.command?.command} ${JSON.stringify(part?.command?.arguments)}`;
        }),
        [
          '0:27 ● dev ○ prod → unleash.showFlagDetails [{"project":"default","name":"pay"}]',
          '1:33 ○ dev ● prod → unleash.showFlagDetails [{"project":"default","name":"pay-later"}]',
        ],
      );
      const resolved = await provider.resolveInlayHint(hints[0] as never, token as never);
      const tooltip = (resolved.label as Array<{ tooltip?: MarkdownString }>)[0]?.tooltip;
      assert.match(tooltip?.value ?? '', /^development enabled\\, production disabled\n\n---\n\n\*\*pay\*\* · release · project default\n/);
      assert.match(tooltip?.value ?? '', /_Strategies and variants could not be read._/, 'the source refused the details');
      assert.equal(t.source.requests, 2, 'the listing, then the details the tooltip shows: a hint itself reads only the catalog');
    } finally {
      provider.dispose();
      t.dispose();
    }
  });

  it('unleash.inlayHints.enabled off: no hints; on again: the editor is told to ask again', async () => {
    const t = await setUp();
    const provider = new FlagInlayHintsProvider(t.flags);
    let asked = 0;
    const subscription = provider.onDidChangeInlayHints(() => asked++);
    try {
      fake.set('user', 'unleash.inlayHints.enabled', false);
      assert.deepEqual(provider.provideInlayHints(checkout as never, new Range(0, 0, 3, 0) as never, token as never), []);
      fake.set('user', 'unleash.inlayHints.enabled', true);
      assert.equal(provider.provideInlayHints(checkout as never, new Range(0, 0, 3, 0) as never, token as never).length, 2);
      assert.equal(asked, 2);
    } finally {
      subscription.dispose();
      provider.dispose();
      t.dispose();
    }
  });

  it('F12 on a flag name: its details document, and the flag revealed in the Flags view; nothing on a comment word', async () => {
    const t = await setUp();
    const provider = new FlagNavigationProvider(t.flags, t.logger);
    try {
      const location = provider.provideDefinition(checkout as never, new Position(0, 24) as never);
      assert.equal(location?.uri.toString(), 'unleash-flag:/pay.txt?project=default&name=pay');
      assert.deepEqual(fake.executed.at(-1), { id: 'unleash.revealFlag', args: [{ project: 'default', name: 'pay' }] });
      assert.equal(provider.provideDefinition(checkout as never, new Position(2, 4) as never), undefined);
    } finally {
      t.dispose();
    }
  });

  it('Shift+F12 on a flag name: every exact use in the workspace', async () => {
    const t = await setUp();
    const provider = new FlagNavigationProvider(t.flags, t.logger);
    try {
      const locations = await provider.provideReferences(checkout as never, new Position(0, 24) as never, { includeDeclaration: true } as never, token as never);
      assert.deepEqual(
        locations.map((location) => `${path.relative(folder, location.uri.fsPath)}:${location.range.start.line}:${location.range.start.character}`),
        ['src/checkout.ts:0:23', 'src/other.ts:0:20'],
      );
    } finally {
      t.dispose();
    }
  });
});
