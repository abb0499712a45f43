/**
 * A flag's history and usage against a real Unleash (7.5.1 or 8.2.0), read back as the user sees them: the hover's
 * lines and the details document's text. The changes and metrics would alter what other files assert of the shared
 * server (`never seen`, the event log), so this file starts its own seeded server of the generation under test, and
 * there: edits a constraint of new-checkout-flow in production, adds a strategy, enables production (the event log
 * records each), and reports evaluations with backend tokens of both environments (then waits, bounded, for the
 * server's flush).
 *   UNLEASH_CONTRACT_SERVER=8.2.0 node --import tsx --test test/contract/activity.contract.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UnleashClient } from '../../src/api/client';
import { ForbiddenError } from '../../src/api/errors';
import { featureEventsSchema } from '../../src/api/activitySchemas';
import { activityMarkdown, activitySections } from '../../src/model/activity/activityText';
import { FlagActivity, HISTORY_STEP, USAGE_HOURS } from '../../src/model/activity/flagActivity';
import { flagDocument } from '../../src/model/content/flagDocument';
import { FlagStore } from '../../src/model/store/flagStore';
import { hoverMarkdown } from '../../src/model/content/hoverContent';
import { ServerSource } from '../../src/services/serverSource';
import { serverVersionFromEnv, startRealUnleash, type RealUnleash } from '../../tools/unleash';
import { backendToken, changeCheckoutFlowInProduction, sendMetrics, waitForUsage } from '../../tools/unleash/activity';
import { adminClient } from '../../tools/unleash/seed';

let server: RealUnleash;
const clients: UnleashClient[] = [];

before(async () => {
  server = await startRealUnleash({ version: serverVersionFromEnv(), seed: true });
  await changeCheckoutFlowInProduction(server.url, server.adminToken);
  const production = await backendToken(server.url, server.adminToken, 'production');
  await sendMetrics(server.url, server.backendToken, 'checkout-web', {
    'new-checkout-flow': { yes: 30, no: 12 },
    'pricing-experiment': { yes: 5, no: 1, variants: { control: 2, treatment: 3, disabled: 1 } },
  });
  await sendMetrics(server.url, production, 'checkout-api', { 'new-checkout-flow': { yes: 1100, no: 100 } });
  await waitForUsage(server.url, server.adminToken, 'new-checkout-flow', 1242);
  await waitForUsage(server.url, server.adminToken, 'pricing-experiment', 6);
}, { timeout: 600_000 });

after(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server?.stop();
});

function client(token = server.adminToken, requests?: string[]): UnleashClient {
  const created = new UnleashClient({
    baseUrl: server.url,
    getToken: () => token,
    timeoutMs: 30_000,
    onEvent: (event) => {
      if (event.kind === 'response') requests?.push(event.request);
    },
  });
  clients.push(created);
  return created;
}

/** The store and activity as the extension builds them, over the real server. */
async function realActivity(): Promise<{ store: FlagStore; activity: FlagActivity; warnings: string[] }> {
  const store = new FlagStore({ info() {}, error() {} });
  void store.load(); // needed from the start: setSource reads the list
  await store.setSource(new ServerSource(client(), [], ''), 'ready');
  assert.equal(store.state, 'ready', `the store did not load: ${String(store.error)}`);
  const warnings: string[] = [];
  return { store, activity: new FlagActivity(store, { warn: (message) => warnings.push(message) }), warnings };
}

/** The hover of a flag once its details, last change and usage are read: what the provider shows on a second hover. */
async function hoverOf(store: FlagStore, activity: FlagActivity, name: string): Promise<string[]> {
  const summary = store.catalog.byName(name)[0]!;
  const project = summary.project ?? 'default';
  const details = await store.feature(project, name);
  await Promise.all([activity.latest(project, name), activity.usage(name)]);
  const now = new Date();
  const text = activityMarkdown({ latest: activity.peekLatest(project, name), usage: activity.peekUsage(name), now, hours: USAGE_HOURS });
  return hoverMarkdown({ matches: [{ summary, details, activity: text }], sourceLabel: 'unleash', now }).split('\n');
}

const WHEN = String.raw`(just now|\d+ minutes? ago)`;

/**
 * A row of the usage table: `counts` (aligned as the table shows them), then the 24-hour strip with the evaluations in
 * the current hour (the last character), or the one before when the hour turned meanwhile.
 */
function assertUsageRow(row: string, counts: string): void {
  assert.equal(row.slice(0, -24), counts);
  assert.match(row.slice(-24), /^(·{23}█|·{22}█·)$/);
}

describe(`history and usage (real server ${serverVersionFromEnv()})`, () => {
  it('the hover says the last change, who made it and when, and the evaluations of the last 24 hours per environment', async () => {
    const { store, activity } = await realActivity();
    const lines = await hoverOf(store, activity, 'new-checkout-flow');
    const change = lines.find((line) => line.startsWith('**Last change:**'));
    assert.match(change ?? '', new RegExp(`^\\*\\*Last change:\\*\\* enabled in production · admin · ${WHEN}  $`));
    const usage = lines.find((line) => line.startsWith('**Usage'));
    assert.equal(usage, '**Usage, last 24 h:** production 1\\,200 \\(1\\,100 yes · 100 no\\) · development 42 \\(30 yes · 12 no\\)');
  });

  it('the details document lists the changes newest first, worded for people, and a usage table with variants', async () => {
    const { store, activity } = await realActivity();
    const name = 'new-checkout-flow';
    const details = await store.feature('default', name);
    const now = new Date();
    const [history, usage] = await Promise.all([activity.history('default', name), activity.usage(name)]);
    const text = await flagDocument({ details, segments: new Map(), sourceLabel: 'unleash', now }, { tail: () => activitySections(history, usage, now, USAGE_HOURS) });
    const lines = text.split('\n');
    const start = lines.indexOf('History (newest first)');
    assert.ok(start > 0, 'a History section');
    const time = String.raw`\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d(\.\d{3})?)? UTC`;
    const expected = [
      'enabled in production',
      'added strategy “Everyone at launch” in production',
      'changed the constraints of “Staff e-mail addresses” in production',
      'added a link',
      'tagged jira:PAY-123',
      'tagged team:payments',
      'added strategy “Staff e-mail addresses” in production',
      'enabled in development',
    ];
    const changes = lines.slice(start + 2, start + 2 + expected.length);
    assert.equal(changes.length, expected.length);
    changes.forEach((line, i) => assert.match(line, new RegExp(`^${time} · admin · ${expected[i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`), line));
    const created = lines.slice(start + 2).find((line) => / · created the flag$/.test(line));
    assert.ok(created, 'the creation is listed last of all');

    const usageStart = lines.indexOf('Usage, last 24 hours');
    assert.ok(usageStart > start);
    const table = lines.slice(usageStart + 2, usageStart + 6);
    assert.equal(table[0], 'Environment  Evaluations    Yes   No  Per hour, oldest first');
    assertUsageRow(table[1]!, 'production         1,200  1,100  100  ');
    assertUsageRow(table[2]!, 'development           42     30   12  ');
    assert.equal(table[3], '');
    assert.equal(lines[usageStart + 6], 'Applications: checkout-api, checkout-web');
  });

  it('variants show where they are counted', async () => {
    const { activity } = await realActivity();
    const usage = await activity.usage('pricing-experiment');
    const lines = activitySections({ value: { events: [] } }, usage, new Date(), USAGE_HOURS).split('\n');
    const at = lines.findIndex((line) => line.startsWith('development'));
    assertUsageRow(lines[at]!, 'development            6    5   1  ');
    assert.equal(lines[at + 1], '  Variants: treatment 3, control 2, disabled 1');
  });

  it('a flag nobody evaluated', async () => {
    const { store, activity } = await realActivity();
    const lines = await hoverOf(store, activity, 'ops-log-level');
    assert.equal(lines.find((line) => line.startsWith('**Usage')), '**Usage, last 24 h:** not evaluated');
  });

  it('search and the deprecated per-flag endpoint list the same newest events, newest first', async () => {
    const res = await fetch(`${server.url}/api/admin/events/new-checkout-flow`, { headers: { Authorization: server.adminToken }, signal: AbortSignal.timeout(30_000) });
    assert.equal(res.status, 200);
    const legacy = featureEventsSchema.parse(await res.json());
    const page = await client().featureEvents('new-checkout-flow', { project: 'default', limit: 100, offset: 0 });
    assert.equal(page.total, legacy.totalEvents);
    assert.deepEqual(legacy.events.map((event) => event.id), page.events.map((event) => event.id));
    const ids = page.events.map((event) => event.id ?? 0);
    assert.deepEqual(ids, [...ids].sort((a, b) => b - a));
    // Only the search writes the server's markdown summary.
    assert.equal(legacy.events.every((event) => event.summary === undefined), true);
    assert.equal(page.events.every((event) => typeof event.summary === 'string'), true);
  });

  it('pages: limit and offset, and the project narrows a name', async () => {
    const all = await client().featureEvents('new-checkout-flow', { project: 'default', limit: 100, offset: 0 });
    const second = await client().featureEvents('new-checkout-flow', { project: 'default', limit: 2, offset: 2 });
    assert.deepEqual(second.events.map((event) => event.id), all.events.slice(2, 4).map((event) => event.id));
    const elsewhere = await client().featureEvents('new-checkout-flow', { project: 'checkout', limit: 10, offset: 0 });
    assert.deepEqual(elsewhere, { events: [], total: 0 });
  });

  it('the details document reads the next 200 changes from where the last page ended; a change made in between is listed once', async () => {
    const busy = 'busy-history';
    const api = adminClient(server.url, server.adminToken);
    await api.call('POST', '/api/admin/projects/default/features', { name: busy, type: 'release' });
    for (let i = 0; i < 210; i++) await api.call('POST', `/api/admin/projects/default/features/${busy}/environments/development/${i % 2 === 0 ? 'on' : 'off'}`);
    const { activity } = await realActivity();
    const first = await activity.history('default', busy);
    assert.ok(first && 'value' in first);
    assert.equal(first.value.events.length, HISTORY_STEP);
    const recorded = first.value.total ?? 0;
    assert.ok(recorded > HISTORY_STEP, `${recorded} changes recorded`);
    const offer = activitySections(first, { value: [] }, new Date(), USAGE_HOURS, { step: HISTORY_STEP, how: 'Read More History.' }).split('\n');
    assert.ok(offer.includes(`The newest 200 of ${recorded} changes. Read the next ${recorded - 200}: Read More History.`), offer.slice(-12).join('\n'));
    // A change made meanwhile moves every page by one.
    await api.call('POST', `/api/admin/projects/default/features/${busy}/environments/development/on`);
    const more = await activity.history('default', busy, undefined, 2 * HISTORY_STEP);
    assert.ok(more && 'value' in more);
    const ids = more.value.events.map((entry) => entry.id as number);
    const all: number[] = [];
    for (let offset = 0; offset < recorded + 1; offset += 100) {
      all.push(...(await client().featureEvents(busy, { project: 'default', limit: 100, offset })).events.map((event) => event.id as number));
    }
    assert.deepEqual(ids, all.slice(1), 'every change up to the first one, each once, newest first (the one made meanwhile is the next read)');
    assert.equal(more.value.events.at(-1)?.what, 'created the flag');
  });

  it('a token that may not read the event log leaves history out, says why once, and asks no more', async () => {
    const requests: string[] = [];
    const source = new ServerSource(client(server.backendToken, requests), [], '');
    const store = { currentSource: source, catalog: new FlagStore({ info() {}, error() {} }).catalog, onDidChange: () => ({ dispose() {} }) };
    const warnings: string[] = [];
    const activity = new FlagActivity(store, { warn: (message) => warnings.push(message) });
    const first = await activity.latest('default', 'new-checkout-flow');
    const second = await activity.latest('default', 'pricing-experiment');
    assert.deepEqual(first, second);
    assert.ok(first && 'forbidden' in first && first.forbidden);
    const line = activityMarkdown({ latest: first, usage: { value: [] }, now: new Date(), hours: USAGE_HOURS }).split('  \n')[0];
    assert.equal(
      line,
      '_History not shown: This API token is a client \\(backend or frontend\\) token\\, and the Admin API does not accept those \\(403\\)\\. ' +
        'Create an admin token or a personal access token in Unleash and set it\\. Failed request\\: GET \\/api\\/admin\\/search\\/events\\._',
    );
    assert.equal(requests.length, 1, 'one request: the 403 is remembered');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /^History is left out: the token may not read the event log\./);
    // The client error itself, for the record.
    await assert.rejects(client(server.backendToken).featureUsage('new-checkout-flow', 24), ForbiddenError);
  });
});
