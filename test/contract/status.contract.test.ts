/**
 * One status per flag against a real Unleash (7.5.1 or 8.2.0, of the run's generation), started for this file alone
 * and not seeded: its flags would change what every other file counts.
 *
 * What the server does that the extension relies on: a flag completed in the instant it was created (stages at the
 * same timestamp) is listed by the search as `initial`, while get-feature and the stage list say `completed` with
 * its outcome (`kept` / `discarded`; the `statusValue` given with it is stored but returned by no read). The search
 * with `archived=IS:true` finds archived flags, its `query` matching parts of names (so the exact name may be on a
 * later page). And what the extension shows from it: every surface says `completed (kept)` once the details are read,
 * and a refresh keeps it without reading them again; an archived name is archived in the diagnostic and the document.
 *   node --import tsx --test test/contract/status.contract.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UnleashClient } from '../../src/api/client';
import type { FeatureSummary } from '../../src/api/schemas';
import { FlagAnalyzer } from '../../src/model/code/flagDiagnostics';
import { FlagCompletions } from '../../src/model/code/flagCompletion';
import { archivedFlagDocument, flagDocument } from '../../src/model/content/flagDocument';
import { FlagStore } from '../../src/model/store/flagStore';
import { hoverMarkdown } from '../../src/model/content/hoverContent';
import { rootNodes } from '../../src/model/tree/root';
import { cleanupCandidates } from '../../src/model/activity/cleanup';
import { parseIsoUtc, utcDate } from '../../src/model/text/plainText';
import { ServerSource } from '../../src/services/serverSource';
import { escapeMarkdown } from '../../src/model/text/markdown';
import { startRealUnleash, SUITE_SEARCH_RATE_LIMIT, type RealUnleash } from '../../tools/unleash';
import { adminClient } from '../../tools/unleash/seed';

/** Completed in the instant they were created, with each outcome; and one completed later, as usual. */
const SAME_INSTANT = { 'same-kept': 'kept', 'same-discarded': 'discarded' } as const;
const LATER = 'later-kept';
/** Entered pre-live in the instant it was created (written in the database: what 8.x records in one go). */
const SAME_PRE_LIVE = 'same-pre-live';
/** Archived, with 149 more archived flags whose names hold it (`gone-170`…), created before it. */
const ARCHIVED = 'gone-17';

let unleash: RealUnleash;
const closers: Array<() => Promise<void>> = [];

before(async () => {
  unleash = await startRealUnleash({ seed: false, searchRateLimit: SUITE_SEARCH_RATE_LIMIT });
  const api = adminClient(unleash.url, unleash.adminToken);
  for (const name of [...Object.keys(SAME_INSTANT), LATER, SAME_PRE_LIVE]) await api.call('POST', '/api/admin/projects/default/features', { name, type: 'release' });
  // The server records a flag's `initial` stage shortly after creating it (in the background): wait for it.
  for (let tries = 0; ; tries++) {
    const rows = await unleash.postgres.psql("SELECT count(*) FROM feature_lifecycles WHERE stage = 'initial';");
    if (rows.trim() === '4') break;
    assert.ok(tries < 100, `initial stages recorded: ${rows.trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (const [name, status] of Object.entries(SAME_INSTANT)) {
    await api.call('POST', `/api/admin/projects/default/features/${name}/lifecycle/complete`, { status, statusValue: `why ${status}` });
  }
  await api.call('POST', `/api/admin/projects/default/features/${LATER}/lifecycle/complete`, { status: 'kept' });
  // The same instant: what an import or a database restore produces.
  await unleash.postgres.psql(
    "UPDATE feature_lifecycles c SET created_at = i.created_at FROM feature_lifecycles i WHERE c.feature = i.feature AND c.stage = 'completed' AND i.stage = 'initial' AND c.feature LIKE 'same-%';",
  );
  await unleash.postgres.psql(
    `INSERT INTO feature_lifecycles (feature, stage, created_at) SELECT feature, 'pre-live', created_at FROM feature_lifecycles WHERE feature = '${SAME_PRE_LIVE}' AND stage = 'initial';`,
  );
  await unleash.postgres.psql(
    [
      `INSERT INTO features (name, project, type, created_at, archived_at) SELECT '${ARCHIVED}' || i, 'default', 'release', now() - interval '1 day', now() FROM generate_series(0, 148) i;`,
      `INSERT INTO features (name, project, type, created_at, archived_at) VALUES ('${ARCHIVED}', 'default', 'release', now(), now());`,
    ].join('\n'),
  );
}, { timeout: 600_000 });

after(async () => {
  await Promise.all(closers.map((close) => close()));
  await unleash?.stop();
});

async function get<T>(path: string): Promise<T> {
  const response = await fetch(`${unleash.url}${path}`, { headers: { authorization: unleash.adminToken }, signal: AbortSignal.timeout(30_000) });
  assert.equal(response.status, 200, path);
  return (await response.json()) as T;
}

/** The store as the extension builds it over the server, loaded; the requests it sent. */
async function loadedStore(): Promise<{ store: FlagStore; requests: string[] }> {
  const requests: string[] = [];
  const client = new UnleashClient({
    baseUrl: unleash.url,
    getToken: () => unleash.adminToken,
    onEvent: (event) => {
      if (event.kind === 'response') requests.push(event.request);
    },
  });
  closers.push(() => client.close());
  const store = new FlagStore({ info() {}, error() {} });
  void store.load();
  await store.setSource(new ServerSource(client, [], ''), 'ready');
  assert.equal(store.state, 'ready', String(store.error));
  return { store, requests };
}

type Lifecycle = { stage: string; status?: string; enteredStageAt: string };

describe('the lifecycle at the same instant (real server)', () => {
  it('the search lists either stage of the instant (7.5.1: initial; 8.2.0: either, as the database sorts the tie); get-feature and the stage list say completed with its outcome; statusValue is not returned', async () => {
    const search = await get<{ features: Array<{ name: string; lifecycle: Lifecycle }> }>('/api/admin/search/features?limit=100&offset=0');
    const listed = new Map(search.features.map((flag) => [flag.name, flag.lifecycle]));
    for (const [name, status] of Object.entries(SAME_INSTANT)) {
      // `DISTINCT ON (feature) … ORDER BY created_at DESC`: stages of one instant tie, and the tie is the database's.
      assert.ok(['initial', 'completed'].includes(listed.get(name)?.stage ?? ''), `${name}: ${listed.get(name)?.stage}`);
      const feature = await get<{ lifecycle: Lifecycle }>(`/api/admin/projects/default/features/${name}`);
      assert.deepEqual([feature.lifecycle.stage, feature.lifecycle.status], ['completed', status], name);
      assert.equal(feature.lifecycle.enteredStageAt, listed.get(name)?.enteredStageAt, `${name}: the same instant`);
      assert.ok(!JSON.stringify(feature).includes(`why ${status}`), 'the statusValue given with it is not returned');
      const stages = await get<Lifecycle[]>(`/api/admin/projects/default/features/${name}/lifecycle`);
      assert.deepEqual(stages.map((stage) => [stage.stage, stage.status]), [['completed', status], ['initial', undefined]], name);
    }
    assert.deepEqual([listed.get(LATER)?.stage, listed.get(LATER)?.status], ['completed', 'kept'], 'completed later: listed as completed');
  });

  it('once the details are read every surface says completed (kept), and a refresh keeps it without reading them again', async () => {
    const { store, requests } = await loadedStore();
    const details = await store.feature('default', 'same-kept');
    const since = utcDate(parseIsoUtc(details.lifecycle?.enteredStageAt ?? '') as number);
    const check = async (when: string) => {
      const current = store.catalog.get('default', 'same-kept') as FeatureSummary;
      const status = store.status(current);
      const row = rootNodes(store).find((node) => node.flag?.name === 'same-kept');
      assert.equal(row?.description, 'd○ p○ · kept', when);
      assert.equal(row?.accessibleLabel, 'same-kept, development disabled, production disabled, completed (kept)', when);
      assert.equal(row?.tooltip?.split('\n\n').at(-1), `Lifecycle: ${escapeMarkdown(`completed (kept) since ${since}`)}`, when);
      const hover = hoverMarkdown({ matches: [{ summary: current, status }], sourceLabel: 'x', now: new Date() });
      assert.equal(hover.split('\n\n')[1], `Lifecycle: ${escapeMarkdown(`completed (kept) since ${since}`)}`, when);
      const document = await flagDocument({ summary: current, details, status, segments: new Map(), sourceLabel: 'x', now: new Date() });
      assert.ok(document.includes(`\nLifecycle: completed (kept) since ${since}\n`), when);
      const completion = new FlagCompletions(store.catalog, (flag) => store.status(flag)).items({ typed: 'same-kept', quote: "'" })[0];
      assert.equal(completion?.detail, 'release · default · completed (kept) · development ○ production ○', when);
      const [diagnostic] = await new FlagAnalyzer(store.catalog).analyse("isEnabled('same-kept')", {
        sourceLabel: 'x',
        sourceKind: 'server',
        status: (flag) => store.status(flag),
      });
      assert.equal(diagnostic?.message, 'Flag "same-kept" (project default) is completed (kept): remove the flag and keep the code it turns on.', when);
    };
    await check('after the details');
    await store.refresh();
    await store.stagesSettled();
    assert.equal(store.peekFeature('default', 'same-kept'), undefined, 'the refresh forgot the details');
    requests.length = 0;
    await check('after a refresh');
    assert.deepEqual(requests, [], 'nothing read again');
    store.dispose();
  });
});

describe('the stages a listing hides, read in the background (real server)', () => {
  it('after a listing, with no details read: completed and pre-live on every surface; the stage lists asked once', async (t) => {
    const { store, requests } = await loadedStore();
    // Which stage of the instant the search lists is the database's choice (see above): say how many it got wrong.
    const wrong = [...Object.keys(SAME_INSTANT), SAME_PRE_LIVE].filter((name) => store.catalog.get('default', name)?.lifecycle?.stage === 'initial');
    t.diagnostic(`listed as initial: ${wrong.join(', ') || 'none'}`);
    await store.stagesSettled();
    assert.deepEqual(requests.filter((request) => /^GET \/api\/admin\/projects\/[^/]+\/features\/[^/]+$/.test(request)), [], 'no details read');
    const stageLists = requests.filter((request) => request.endsWith('/lifecycle'));
    assert.equal(stageLists.length, store.catalog.size, 'every listed flag once');
    const rows = rootNodes(store);
    const completions = new FlagCompletions(store.catalog, (flag) => store.status(flag));
    const expected: Record<string, [string, string]> = {
      'same-kept': ['d○ p○ · kept', 'completed (kept)'],
      'same-discarded': ['d○ p○ · discarded', 'completed (discarded)'],
      [SAME_PRE_LIVE]: ['d○ p○ · pre-live', 'pre-live'],
      [LATER]: ['d○ p○ · kept', 'completed (kept)'],
    };
    for (const [name, [description, words]] of Object.entries(expected)) {
      const row = rows.find((node) => node.flag?.name === name);
      assert.equal(row?.description, description, name);
      assert.equal(row?.accessibleLabel, `${name}, development disabled, production disabled, ${words}`, name);
      assert.equal(completions.items({ typed: name, quote: "'" }).find((item) => item.label === name)?.detail, `release · default · ${words} · development ○ production ○`, name);
    }
    const cleanup = cleanupCandidates(store.catalog, new Date(), 0, (flag) => store.status(flag));
    assert.deepEqual(cleanup.map((candidate) => candidate.flag.name).sort(), [LATER, 'same-discarded', 'same-kept']);
    // A refresh of the same rows asks for none again.
    await store.refresh();
    requests.length = 0;
    await store.stagesSettled();
    assert.deepEqual(requests.filter((request) => request.endsWith('/lifecycle')), []);
    store.dispose();
  });
});

describe('archived flags found by name (real server)', () => {
  it('the exact name among 150 archived flags whose names hold it, on the second page; a name that is none is not found', async () => {
    const { store, requests } = await loadedStore();
    await store.stagesSettled();
    assert.equal(store.catalog.byName(ARCHIVED).length, 0, 'the listing leaves it out');
    requests.length = 0;
    const found = await store.findArchived(ARCHIVED);
    assert.deepEqual([found?.name, found?.project, found?.archived], [ARCHIVED, 'default', true]);
    assert.deepEqual(requests, ['GET /api/admin/search/features', 'GET /api/admin/search/features'], 'its query matched 150: two pages');
    assert.equal(await store.findArchived('gone-1'), undefined, 'every match read, none exactly it');

    const options = {
      sourceLabel: 'x',
      sourceKind: 'server' as const,
      status: (flag: FeatureSummary) => store.status(flag),
      archived: (name: string) => store.peekArchived(name),
    };
    const [diagnostic] = await new FlagAnalyzer(store.catalog).analyse(`isEnabled('${ARCHIVED}')`, options);
    assert.deepEqual(
      [diagnostic?.code, diagnostic?.message, diagnostic?.unlisted],
      ['archived-flag', `Flag "${ARCHIVED}" (project default) is archived: code reading it always gets the default.`, true],
    );
    const document = archivedFlagDocument(found as FeatureSummary, 'x');
    assert.match(document, /\nArchived: yes\n/);
    assert.match(document, /\nArchived at: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} UTC\n/);
    store.dispose();
  });
});
