/**
 * One status per flag, the same on every surface. For each status (live; stale; completed kept and completed
 * discarded at the same instant as `initial`, which a real server's listing reports as `initial`; archived, found by
 * name on a server and listed in export files) the tree row (label, description, screen-reader label), its tooltip,
 * the hover, the details document, completion, the diagnostic and the status bar are rendered from the real store,
 * and say the same. A refresh keeps what a read of the details proved, until the listing says otherwise.
 *   node --import tsx --test test/unit/flagStatus.test.ts
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Feature, FeatureSummary, Lifecycle, Segment } from '../../src/api/schemas';
import { FlagAnalyzer, type FlagDiagnostic } from '../../src/model/code/flagDiagnostics';
import { FlagCompletions } from '../../src/model/code/flagCompletion';
import { archivedFlagDocument, flagDocument } from '../../src/model/content/flagDocument';
import { flagQuickFixes } from '../../src/model/code/flagQuickFixes';
import { attentionCounts, flagStatus } from '../../src/model/store/flagStatus';
import type { FlagSource } from '../../src/model/store/flagSource';
import type { FlagStore } from '../../src/model/store/flagStore';
import { hoverMarkdown } from '../../src/model/content/hoverContent';
import { archivedFlagMarkdown } from '../../src/model/content/unlistedFlagContent';
import { statusContent } from '../../src/model/content/statusBarContent';
import { childrenOf } from '../../src/model/tree/children';
import type { TreeNode } from '../../src/model/tree/node';
import { describeLifecycle, lifecycleStage } from '../../src/model/text/flagText';
import { storeOver } from '../support/flagCatalog';

const NOW = new Date('2026-11-23T10:00:00.000Z');
/** Created and completed in the same instant: the listing says `initial`, the details `completed`. */
const AT = '2026-11-20T08:00:00.000Z';
const LABEL = 'unleash.example.com';
const envs = [
  { name: 'development', enabled: true },
  { name: 'production', enabled: false },
];

const initial: Lifecycle = { stage: 'initial', enteredStageAt: AT };
const live: Lifecycle = { stage: 'live', enteredStageAt: AT };
const kept: Lifecycle = { stage: 'completed', status: 'kept', enteredStageAt: AT };
const discarded: Lifecycle = { stage: 'completed', status: 'discarded', enteredStageAt: AT };

const row = (name: string, lifecycle: Lifecycle, extra: Partial<FeatureSummary> = {}): FeatureSummary => ({
  name, project: 'default', type: 'release', stale: false, environments: envs, lifecycle, ...extra,
});
const LISTED: FeatureSummary[] = [
  row('live-flag', live),
  row('stale-flag', live, { stale: true }),
  row('kept-flag', initial),
  row('discarded-flag', initial),
];
const DETAILS = new Map<string, Lifecycle>([
  ['live-flag', live],
  ['stale-flag', live],
  ['kept-flag', kept],
  ['discarded-flag', discarded],
]);
const ARCHIVED: FeatureSummary = {
  name: 'old-banner', project: 'default', type: 'release', stale: false, archived: true, archivedAt: '2026-11-02T10:00:00.000Z',
  environments: envs, lifecycle: initial,
};

class Source implements FlagSource {
  readonly kind = 'server' as const;
  readonly label = LABEL;
  rows: FeatureSummary[] = LISTED;
  readonly reads: string[] = [];
  readonly lookups: string[] = [];
  async listFeatures(): Promise<FeatureSummary[]> {
    return this.rows;
  }
  async getFeature(_project: string, name: string): Promise<Feature> {
    this.reads.push(name);
    const listed = this.rows.find((flag) => flag.name === name);
    if (!listed) throw new Error(`no ${name}`);
    return { ...listed, archived: false, environments: envs.map((env) => ({ ...env, strategies: [] })), lifecycle: DETAILS.get(name) ?? listed.lifecycle };
  }
  async getStrategySegments(): Promise<Segment[]> {
    return [];
  }
  async listEnvironments(): Promise<string[]> {
    return envs.map((env) => env.name);
  }
  async findArchived(name: string): Promise<FeatureSummary | undefined> {
    this.lookups.push(name);
    return name === ARCHIVED.name ? ARCHIVED : undefined;
  }
  webUrl(project: string, name: string): string {
    return `https://unleash.example.com/projects/${project}/features/${name}`;
  }
}

/** What each surface says of one flag's status. */
interface Surfaces {
  /** `label  description` as the tree draws the row. */
  row: string | undefined;
  screenReader: string | undefined;
  /** The tooltip's status paragraph (its last). */
  tooltip: string | undefined;
  /** The hover's status paragraph. */
  hover: string;
  /** The details document's status fields. */
  document: string[];
  completion: string | undefined;
  diagnostic: string | undefined;
  /** The status bar tooltip's line about flags to clean up. */
  statusBar: string | undefined;
}

const statusFields = (document: string) => document.split('\n').filter((line) => /^(Lifecycle|Stale|Archived): /.test(line));

async function diagnosticOf(store: FlagStore, name: string): Promise<FlagDiagnostic | undefined> {
  const options = () => ({
    sourceLabel: LABEL,
    sourceKind: 'server' as const,
    status: (flag: FeatureSummary) => store.status(flag),
    archived: (text: string) => store.peekArchived(text),
  });
  const analyzer = new FlagAnalyzer(store.catalog);
  const code = `if (unleash.isEnabled('${name}')) {}`;
  let [found] = await analyzer.analyse(code, options());
  // A name the listing lacks waits for its lookup among archived flags (the publisher asks, then analyses again).
  if (found?.awaitsLookup) {
    await store.findArchived(found.text);
    [found] = await analyzer.analyse(code, options());
  }
  return found;
}

async function surfaces(store: FlagStore, name: string): Promise<Surfaces> {
  const summary = store.catalog.byName(name)[0];
  const status = summary ? store.status(summary) : undefined;
  const rows = (await childrenOf(undefined, store, undefined, { now: () => NOW })) as TreeNode[];
  const node = rows.find((candidate) => candidate.flag?.name === name);
  const attention = attentionCounts(store.catalog.flags.map((flag) => store.status(flag)));
  const bar = statusContent({ state: 'ready', source: store.currentSource, flagCount: store.catalog.size, configured: true, attention });
  const diagnostic = (await diagnosticOf(store, name))?.message;
  if (!summary) {
    // Not listed: an archived flag a server finds by name.
    const archived = await store.findArchived(name);
    assert.ok(archived, name);
    return {
      row: undefined,
      screenReader: undefined,
      tooltip: undefined,
      hover: archivedFlagMarkdown(archived, 'isEnabled', LABEL).split('\n\n')[0] ?? '',
      document: statusFields(archivedFlagDocument(archived, LABEL)),
      completion: undefined,
      diagnostic,
      statusBar: bar.tooltip.split('\n').find((line) => line.startsWith('To clean up')),
    };
  }
  const details = store.peekFeature('default', name);
  assert.ok(details && status, name);
  const completions = new FlagCompletions(store.catalog, (flag) => store.status(flag));
  return {
    row: node && `${node.label}  ${node.description ?? ''}`,
    screenReader: node?.accessibleLabel,
    tooltip: node?.tooltip?.split('\n\n').at(-1),
    hover: hoverMarkdown({ matches: [{ summary, details, status }], sourceLabel: LABEL, now: NOW }).split('\n\n')[1] ?? '',
    document: statusFields(flagDocument({ summary, details, status, segments: new Map(), sourceLabel: LABEL, now: NOW })),
    completion: completions.items({ typed: name, quote: "'" }).find((item) => item.label === name)?.detail,
    diagnostic,
    statusBar: bar.tooltip.split('\n').find((line) => line.startsWith('To clean up')),
  };
}

const since = 'since 2026\\-11\\-20';
const EXPECTED: Record<string, Surfaces> = {
  'live-flag': {
    row: 'live-flag  d● p○ · live',
    screenReader: 'live-flag, development enabled, production disabled, live',
    tooltip: `Lifecycle: live ${since}`,
    hover: `Lifecycle: live ${since}`,
    document: ['Lifecycle: live since 2026-11-20', 'Stale: no', 'Archived: no'],
    completion: 'release · default · live · development ● production ○',
    diagnostic: undefined,
    statusBar: 'To clean up: 1 completed (discarded), 1 completed (kept), 1 stale.',
  },
  'stale-flag': {
    row: 'stale-flag  d● p○ · stale · live',
    screenReader: 'stale-flag, development enabled, production disabled, stale, live',
    tooltip: `**Stale** · Lifecycle: live ${since}`,
    hover: `**Stale** · Lifecycle: live ${since}`,
    document: ['Lifecycle: live since 2026-11-20', 'Stale: yes', 'Archived: no'],
    completion: 'release · default · stale · live · development ● production ○',
    diagnostic: 'Flag "stale-flag" (project default) is marked stale: ready to remove.',
    statusBar: 'To clean up: 1 completed (discarded), 1 completed (kept), 1 stale.',
  },
  'kept-flag': {
    row: 'kept-flag  d● p○ · kept',
    screenReader: 'kept-flag, development enabled, production disabled, completed (kept)',
    tooltip: `Lifecycle: completed \\(kept\\) ${since}`,
    hover: `Lifecycle: completed \\(kept\\) ${since}`,
    document: ['Lifecycle: completed (kept) since 2026-11-20', 'Stale: no', 'Archived: no'],
    completion: 'release · default · completed (kept) · development ● production ○',
    diagnostic: 'Flag "kept-flag" (project default) is completed (kept): remove the flag and keep the code it turns on.',
    statusBar: 'To clean up: 1 completed (discarded), 1 completed (kept), 1 stale.',
  },
  'discarded-flag': {
    row: 'discarded-flag  d● p○ · discarded',
    screenReader: 'discarded-flag, development enabled, production disabled, completed (discarded)',
    tooltip: `Lifecycle: completed \\(discarded\\) ${since}`,
    hover: `Lifecycle: completed \\(discarded\\) ${since}`,
    document: ['Lifecycle: completed (discarded) since 2026-11-20', 'Stale: no', 'Archived: no'],
    completion: 'release · default · completed (discarded) · development ● production ○',
    diagnostic: 'Flag "discarded-flag" (project default) is completed (discarded): remove the flag and the code it turns on.',
    statusBar: 'To clean up: 1 completed (discarded), 1 completed (kept), 1 stale.',
  },
  'old-banner': {
    row: undefined,
    screenReader: undefined,
    tooltip: undefined,
    hover: '**old\\-banner** is archived · project default · archived 2026-11-02',
    document: ['Stale: no', 'Archived: yes'],
    completion: undefined,
    diagnostic: 'Flag "old-banner" (project default) is archived: code reading it always gets the default.',
    statusBar: 'To clean up: 1 completed (discarded), 1 completed (kept), 1 stale.',
  },
};

describe('one status per flag, the same on every surface (a server)', () => {
  it('once the details are read, every surface says what they say; archived is archived everywhere, never unknown', async () => {
    const source = new Source();
    const store = await storeOver(source);
    for (const flag of LISTED) await store.feature('default', flag.name);
    for (const [name, expected] of Object.entries(EXPECTED)) assert.deepEqual(await surfaces(store, name), expected, name);
    assert.deepEqual(source.lookups, ['old-banner'], 'the archived name is looked up once');
    store.dispose();
  });

  it('a refresh keeps what the details proved while the listing says the same; a new listed stage wins', async () => {
    const source = new Source();
    const store = await storeOver(source);
    await store.feature('default', 'kept-flag');
    await store.refresh();
    assert.equal(store.peekFeature('default', 'kept-flag'), undefined, 'the refresh forgot the details');
    const summary = store.catalog.byName('kept-flag')[0] as FeatureSummary;
    assert.equal(lifecycleStage(store.status(summary).lifecycle as Lifecycle), 'completed (kept)');
    const rows = (await childrenOf(undefined, store)) as TreeNode[];
    assert.equal(rows.find((node) => node.flag?.name === 'kept-flag')?.description, 'd● p○ · kept');
    assert.deepEqual(source.reads, ['kept-flag'], 'read once: the refresh did not need it again');

    // The server now lists another stage: that is the news, and what was proved before is dropped.
    const later = '2026-11-22T08:00:00.000Z';
    source.rows = LISTED.map((flag) => (flag.name === 'kept-flag' ? { ...flag, lifecycle: { stage: 'live', enteredStageAt: later } } : flag));
    await store.refresh();
    const moved = store.catalog.byName('kept-flag')[0] as FeatureSummary;
    assert.equal(describeLifecycle(store.status(moved).lifecycle as Lifecycle), 'live since 2026-11-22');
    store.dispose();
  });

  it('details that prove a stage fire a status change (diagnostics, completion and the status bar follow)', async () => {
    const store = await storeOver(new Source());
    let changes = 0;
    store.onDidChangeStatus(() => changes++);
    const version = store.statusVersion;
    await store.feature('default', 'live-flag');
    assert.deepEqual([changes, store.statusVersion], [0, version], 'the details say what the listing says: nothing changed');
    await store.feature('default', 'kept-flag');
    assert.deepEqual([changes, store.statusVersion], [1, version + 1]);
    store.dispose();
  });

  it('the quick fixes of an archived name open it (details, Unleash), and do not offer the tree that does not list it', async () => {
    const store = await storeOver(new Source());
    const found = await diagnosticOf(store, 'old-banner');
    assert.ok(found);
    const fixes = flagQuickFixes(found, { quote: "'", webUrl: (project, name) => `https://unleash.example.com/projects/${project}/features/${name}` });
    assert.deepEqual(fixes.map((fix) => fix.title), ['Show details of "old-banner"', 'Open "old-banner" in Unleash', 'Copy flag name "old-banner"']);
    store.dispose();
  });
});

describe('one status per flag, from export files (archived flags are listed there)', () => {
  it('an archived row reads archived on the row, tooltip, hover, document, completion, diagnostic and status bar', async () => {
    const files: FlagSource = {
      kind: 'files',
      label: '.unleash/development.json',
      listFeatures: async () => [{ ...ARCHIVED, lifecycle: undefined }],
      getFeature: async () => ({ ...ARCHIVED, lifecycle: undefined, environments: envs.map((env) => ({ ...env, strategies: [] })) }),
      getStrategySegments: async () => [],
      listEnvironments: async () => ['development', 'production'],
    };
    const store = await storeOver(files);
    await store.feature('default', 'old-banner');
    const shown = await surfaces(store, 'old-banner');
    assert.deepEqual(shown, {
      row: 'old-banner  d● p○ · archived',
      screenReader: 'old-banner, development enabled, production disabled, archived',
      tooltip: '**Archived**',
      hover: '**Archived**',
      document: ['Stale: no', 'Archived: yes'],
      completion: 'release · default · archived · development ● production ○',
      diagnostic: 'Flag "old-banner" (project default) is archived: code reading it always gets the default.',
      statusBar: 'To clean up: 1 archived.',
    });
    store.dispose();
  });
});

describe('flagStatus', () => {
  it('the stage with its outcome, cleaned: a hostile outcome shows no bidi or invisible character', () => {
    assert.equal(lifecycleStage(kept), 'completed (kept)');
    assert.equal(lifecycleStage({ ...kept, status: 'kept\u202e\u200b\u0007' }), 'completed (kept)');
    assert.equal(describeLifecycle(discarded), 'completed (discarded) since 2026-11-20');
  });

  it('details over a proven stage over the listing row; archived from either; a stage from before archiving is history', () => {
    assert.deepEqual(flagStatus(row('x', initial)), { stale: false, archived: false, lifecycle: initial });
    assert.deepEqual(flagStatus(row('x', initial), undefined, kept), { stale: false, archived: false, lifecycle: kept });
    assert.deepEqual(flagStatus(row('x', initial), { lifecycle: discarded }, kept), { stale: false, archived: false, lifecycle: discarded });
    assert.deepEqual(flagStatus(row('x', initial), { lifecycle: null }), { stale: false, archived: false, lifecycle: initial });
    assert.deepEqual(flagStatus(ARCHIVED), { stale: false, archived: true });
    assert.equal(flagStatus({ lifecycle: { stage: 'archived', enteredStageAt: AT } }).archived, true);
    assert.equal(flagStatus({ stale: true }, { stale: false }).stale, false);
  });
});
