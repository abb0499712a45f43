/**
 * What history, usage and drift add to what users wait for (issue 30):
 *
 * - **hover, once cached**: the hover's markdown for a flag with its details, as today (`hoverMarkdown`), against the
 *   same hover with its last change and usage (FlagActivity's cached answers read with `peekLatest`/`peekUsage`,
 *   `activityMarkdown`, `hoverMarkdown`): the usage of 3 environments × 5 applications × 24 hours, a strategy update
 *   as the last change. Microseconds per hover, median and p99 over `--iterations`.
 * - **drift check on refresh**: `exportDrift` of the export of `development` (10,000 flags, 25 of them changed since)
 *   against the catalog just listed, timed right after that listing (`UnleashClient.listFeatures()` from the
 *   benchmark server in its child process, bench/server.ts, and its `Catalog`), as a refresh runs them: the check's
 *   share of a refresh. Also the snapshot of the file (made once per version of the file, not per refresh).
 *
 *   npx tsx bench/activity.bench.ts [--quick] [--iterations 5000] [--no-write]
 *
 * Writes bench/results/activity.json. Nothing is asserted.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { UnleashClient } from '../src/api/client';
import type { Feature, FeatureSummary } from '../src/api/schemas';
import type { FeatureEvent, FeatureMetricsRow } from '../src/api/activitySchemas';
import { Emitter } from '../src/base/emitter';
import { activityMarkdown } from '../src/model/activity/activityText';
import { Catalog } from '../src/model/store/catalog';
import { exportDrift, exportSnapshot } from '../src/model/export/exportDrift';
import { FlagActivity, USAGE_HOURS } from '../src/model/activity/flagActivity';
import type { FlagSource } from '../src/model/store/flagSource';
import { hoverMarkdown } from '../src/model/content/hoverContent';
import { listingSource } from '../test/support/flagCatalog';
import { generateDataset } from './data';
import { gc, machine, round, single, stats, type Stats } from './measure';
import { startBenchServers } from './server';
import { TimeSlices } from '../src/base/timeSlices';

const TOKEN = '*:*.bench-admin-token';
const FLAGS = 10_000;
const CHANGED = 25;

function micro(samples: number[]): { median: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: round(sorted[sorted.length >> 1]! * 1000, 2), p99: round(sorted[Math.floor(sorted.length * 0.99)]! * 1000, 2) };
}

/** A flag as a hover shows it once its details, last change and usage are read. */
async function hoverCase(iterations: number, warmup: number) {
  const now = new Date();
  const hour = Math.floor(now.getTime() / 3_600_000) * 3_600_000;
  const strategy = { id: 's1', name: 'flexibleRollout', title: 'Staff e-mail addresses', parameters: { rollout: '10', stickiness: 'default' }, constraints: [{ contextName: 'userId', operator: 'STR_ENDS_WITH', values: ['@example.com'] }] };
  const details: Feature = {
    name: 'new-checkout-flow',
    project: 'default',
    type: 'release',
    description: 'New one-page checkout flow',
    environments: ['development', 'staging', 'production'].map((name, i) => ({ name, enabled: i !== 1, strategies: [strategy], lastSeenAt: now.toISOString() })),
    tags: [{ type: 'team', value: 'payments' }],
  };
  const summary: FeatureSummary = { name: details.name, project: 'default', type: 'release', environments: details.environments?.map(({ name, enabled }) => ({ name, enabled })) };
  const event: FeatureEvent = {
    id: 78,
    type: 'feature-strategy-update',
    createdBy: 'alice@example.com',
    createdAt: new Date(hour - 7_200_000).toISOString(),
    environment: 'production',
    preData: strategy,
    data: { ...strategy, constraints: [{ contextName: 'userId', operator: 'STR_ENDS_WITH', values: ['@example.org'] }] },
  };
  const rows: FeatureMetricsRow[] = [];
  for (const environment of ['development', 'staging', 'production']) {
    for (let app = 0; app < 5; app++) {
      for (let back = 0; back < 24; back++) {
        rows.push({ timestamp: new Date(hour - back * 3_600_000).toISOString(), environment, appName: `app-${app}`, yes: (back * 7 + app) % 50, no: back % 3, variants: {} });
      }
    }
  }
  const source: FlagSource = {
    ...listingSource([summary], { details: [details] }),
    flagHistory: async () => ({ events: [event], total: 1 }),
    flagUsage: async () => rows,
  };
  const activity = new FlagActivity({ currentSource: source, catalog: Catalog.empty, onDidChange: new Emitter<void>().event }, { warn() {} });
  await Promise.all([activity.latest('default', details.name), activity.usage(details.name)]);

  const today = () => hoverMarkdown({ matches: [{ summary, details }], sourceLabel: source.label, now: new Date() });
  const withActivity = () => {
    const at = new Date();
    const text = activityMarkdown({ latest: activity.peekLatest('default', details.name), usage: activity.peekUsage(details.name), now: at, hours: USAGE_HOURS });
    return hoverMarkdown({ matches: [{ summary, details, activity: text }], sourceLabel: source.label, now: at });
  };
  for (let i = 0; i < warmup; i++) {
    today();
    withActivity();
  }
  const a: number[] = [];
  const b: number[] = [];
  gc();
  for (let i = 0; i < iterations; i++) {
    // Alternating which goes first, as bench/measure.ts pair() does.
    const first = i % 2 === 0 ? today : withActivity;
    const second = i % 2 === 0 ? withActivity : today;
    let started = performance.now();
    first();
    (i % 2 === 0 ? a : b).push(performance.now() - started);
    started = performance.now();
    second();
    (i % 2 === 0 ? b : a).push(performance.now() - started);
  }
  return { today: micro(a), withActivity: micro(b), chars: { today: today().length, withActivity: withActivity().length }, rows: rows.length };
}

/** The drift check of a 10,000-flag export against the catalog a refresh just listed, beside that listing. */
async function driftCase(quick: boolean) {
  const servers = await startBenchServers([FLAGS]);
  const client = new UnleashClient({ baseUrl: servers.byFlags(FLAGS).url, getToken: () => TOKEN, timeoutMs: 120_000 });
  try {
    const listed = await client.listFeatures();
    if (listed.length !== FLAGS) throw new Error(`expected ${FLAGS} flags, got ${listed.length}`);
    const catalog = new Catalog(listed);
    const exported = generateDataset(FLAGS).exportFor('development');
    // 25 flags changed on the server since the export: their state in the file is flipped.
    const file = {
      ...exported,
      featureEnvironments: exported.featureEnvironments.map((env, i) => (i % Math.floor(FLAGS / CHANGED) === 0 ? { ...env, enabled: !env.enabled } : env)),
    } as unknown as Parameters<typeof exportSnapshot>[0];
    const snapshotStats = await single(() => exportSnapshot(file, 'development.json'), quick ? 2 : 5, quick ? 5 : 21);
    const snapshot = exportSnapshot(file, 'development.json');
    const scope = { failed: new Set<string>() };
    const drift = await exportDrift(snapshot, catalog, scope, TimeSlices.unsliced());
    const changes = drift.added.length + drift.removed.length + drift.enabled.length + drift.disabled.length;
    // As on a refresh: the listing (and its Catalog), then the check against what it just listed; each timed.
    const listingMs: number[] = [];
    const checkMs: number[] = [];
    const reps = quick ? 5 : 21;
    for (let i = 0; i < reps + 2; i++) {
      gc();
      let started = performance.now();
      const fresh = new Catalog(await client.listFeatures());
      const listed = performance.now() - started;
      started = performance.now();
      await exportDrift(snapshot, fresh, scope, TimeSlices.unsliced());
      const checked = performance.now() - started;
      if (i < 2) continue;
      listingMs.push(listed);
      checkMs.push(checked);
    }
    const check = stats(checkMs);
    const listing = stats(listingMs);
    return { flags: FLAGS, changes, check, listing, share: round((check.median / listing.median) * 100, 2), snapshot: snapshotStats };
  } finally {
    await client.close();
    await servers.stop();
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const quick = argv.includes('--quick');
  const at = argv.indexOf('--iterations');
  const iterations = at >= 0 ? Number(argv[at + 1]) : quick ? 1_000 : 5_000;
  const m = machine();
  const hover = await hoverCase(iterations, Math.min(500, iterations));
  const drift = await driftCase(quick);
  const strip = (s: Stats) => ({ median: s.median, min: s.min, max: s.max });
  console.log(`${m.cpu} (${m.cores} cores), Node ${m.node}, load average ${m.loadAverage}; ${new Date().toISOString()}`);
  console.log('| measure | ours | today / listing | share |');
  console.log('| --- | --- | --- | --- |');
  console.log(`| hover with last change and usage, cached (${hover.rows} usage rows), median | ${hover.withActivity.median} µs | ${hover.today.median} µs (hover as today) | +${round(hover.withActivity.median - hover.today.median, 2)} µs |`);
  console.log(`| same, p99 | ${hover.withActivity.p99} µs | ${hover.today.p99} µs | +${round(hover.withActivity.p99 - hover.today.p99, 2)} µs |`);
  console.log(`| drift check on refresh, ${drift.flags.toLocaleString('en-US')} flags (${drift.changes} changes), median | ${drift.check.median} ms | ${drift.listing.median} ms (the listing) | ${drift.share} % |`);
  console.log(`\nThe file's snapshot (once per version of the file): ${drift.snapshot.median} ms median. Hover markdown: ${hover.chars.today} → ${hover.chars.withActivity} characters.`);
  if (!argv.includes('--no-write')) {
    const out = path.join(__dirname, 'results', 'activity.json');
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(out, `${JSON.stringify({ name: 'activity', timestamp: new Date().toISOString(), machine: m, hover, drift: { ...drift, check: strip(drift.check), listing: strip(drift.listing), snapshot: strip(drift.snapshot) } }, null, 2)}\n`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
