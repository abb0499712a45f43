/**
 * The cores of "Check Tag…" and "Export Environment…" (the code their commands run) against a real Unleash (7.5.1 or
 * 8.2.0) seeded with tools/unleash/seed-data.ts:
 *   node --import tsx --test test/contract/commands.contract.test.ts
 * Uses the server of UNLEASH_CONTRACT_URL + UNLEASH_CONTRACT_TOKEN when set, else starts (and stops) its own.
 */
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import { UnleashClient } from '../../src/api/client';
import type { ExportScope } from '../../src/api/exportQuery';
import { HttpError, NetworkError } from '../../src/api/errors';
import type { ExportResult } from '../../src/api/exportSchemas';
import { parseExportFile } from '../../src/model/export/exportFile';
import { takeSegments } from '../../src/model/export/exportSegmentsFile';
import { TimeSlices } from '../../src/base/timeSlices';
import { exportToFile } from '../../src/model/export/exportToFile';
import { checkTagExists, closestTag, distinctTags, parseTag, tagForMessage } from '../../src/model/tags/tagInput';
import { startFaultServer } from '../support/faultServer';
import { useRealUnleash } from './env';
import { SEED, seedFlagsTagged, type EnvironmentName, type SeedFlag } from '../../tools/unleash';

const unleash = useRealUnleash();
const clients: UnleashClient[] = [];
let dir: string;

function client(baseUrl = unleash.current.url): UnleashClient {
  const created = new UnleashClient({ baseUrl, getToken: () => unleash.current.adminToken, retryBaseMs: 10, timeoutMs: 30_000 });
  clients.push(created);
  return created;
}

/** A client that counts its requests, to show that invalid input never reaches the server. */
function countingClient(): { client: Pick<UnleashClient, 'getTag'>; requests: () => number } {
  const real = client();
  let requests = 0;
  return {
    client: {
      getTag: (type, value, call) => {
        requests++;
        return real.getTag(type, value, call);
      },
    },
    requests: () => requests,
  };
}

beforeEach(async () => {
  dir = await fsp.mkdtemp(path.join(tmpdir(), 'commands-contract-'));
});
afterEach(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

describe('check a tag (real server)', () => {
  it('team:payments exists', async () => {
    const { client: counting, requests } = countingClient();
    const check = await checkTagExists(counting, 'team:payments');
    assert.deepEqual(check, { ok: true, tag: { type: 'team', value: 'payments' }, text: 'team:payments', exists: true });
    assert.equal(requests(), 1);
  });

  it('team:paymnts does not exist (a 404 is the answer, not an error)', async () => {
    const check = await checkTagExists(client(), 'team:paymnts');
    assert.deepEqual(check, { ok: true, tag: { type: 'team', value: 'paymnts' }, text: 'team:paymnts', exists: false });
  });

  it('simple:needs review, a value with a space, exists; given as text or as an object', async () => {
    for (const input of ['simple:needs review', { type: 'simple', value: 'needs review' }]) {
      const check = await checkTagExists(client(), input);
      assert.ok(check.ok && check.exists, JSON.stringify(input));
    }
  });

  it('simple: legacy , a value with a space at each end, exists exactly so: typed with them it is found, without them not', async () => {
    const spaced = await checkTagExists(client(), 'simple: legacy ');
    assert.deepEqual(spaced, { ok: true, tag: { type: 'simple', value: ' legacy ' }, text: 'simple: legacy ', exists: true });
    assert.deepEqual((await client().getTag('simple', ' legacy '))?.tag, { type: 'simple', value: ' legacy ' }, 'the server keeps the spaces');
    assert.equal(((await checkTagExists(client(), 'simple:legacy')) as { exists: boolean }).exists, false);
  });

  it('"Did you mean" after simple:legacy offers the real value, from the tags of the flags listed, and that one exists', async () => {
    const known = distinctTags(await client().listFeatures());
    const near = closestTag({ type: 'simple', value: 'legacy' }, known);
    assert.deepEqual(near, { type: 'simple', value: ' legacy ' });
    assert.equal(tagForMessage(near), 'simple:" legacy "');
    assert.ok(((await checkTagExists(client(), near)) as { exists: boolean }).exists);
  });

  it('a tag no flag carries exists; matching is case-sensitive', async () => {
    assert.ok(((await checkTagExists(client(), 'jira:unused-tag')) as { exists: boolean }).exists);
    assert.equal(((await checkTagExists(client(), 'team:Payments')) as { exists: boolean }).exists, false);
  });

  it('the seed tags all exist', async () => {
    for (const tag of SEED.tags) {
      const check = await checkTagExists(client(), tag);
      assert.ok(check.ok && check.exists, `${tag.type}:${tag.value}`);
    }
  });

  it('invalid lengths are refused by the input check, before any request', async () => {
    const { client: counting, requests } = countingClient();
    const cases: Array<[string, string]> = [
      ['t:payments', 'Tag type must be 2 to 50 characters (it has 1).'],
      ['team:p', 'Tag value must be 2 to 50 characters (it has 1).'],
      [`team:${'p'.repeat(51)}`, 'Tag value must be 2 to 50 characters (it has 51).'],
      [`${'t'.repeat(51)}:payments`, 'Tag type must be 2 to 50 characters (it has 51).'],
      ['payments', 'Write the tag as type:value, e.g. team:payments.'],
    ];
    for (const [input, message] of cases) {
      assert.deepEqual(parseTag(input), { ok: false, message });
      assert.deepEqual(await checkTagExists(counting, input), { ok: false, message });
    }
    assert.equal(requests(), 0, 'no request reached the server');
  });
});

// ---------------------------------------------------------------------------------------------------------------

const live = SEED.flags.filter((flag) => !flag.archived);
const names = (flags: readonly SeedFlag[]) => flags.map((flag) => flag.name).sort();

/** What the seed says an export of `flags` in `environment` holds, in comparable form. */
function expected(flags: readonly SeedFlag[], environment: EnvironmentName) {
  return {
    names: names(flags),
    strategies: flags.reduce((sum, flag) => sum + flag.environments[environment].strategies.length, 0),
    strategyTitles: flags
      .flatMap((flag) => flag.environments[environment].strategies.map((s) => `${flag.name}/${s.name}/${s.title ?? ''}`))
      .sort(),
    tags: flags.flatMap((flag) => flag.tags.map((tag) => `${flag.name} ${tag.type}:${tag.value}`)).sort(),
    enabled: Object.fromEntries(flags.map((flag) => [flag.name, flag.environments[environment].enabled])),
  };
}

/** The same, read from an export file. */
function actual(result: ExportResult) {
  return {
    names: result.features.map((feature) => feature.name),
    strategies: result.featureStrategies.length,
    strategyTitles: result.featureStrategies.map((s) => `${s.featureName}/${s.name}/${s.title ?? ''}`).sort(),
    tags: (result.featureTags ?? []).map((tag) => `${tag.featureName} ${tag.tagType ?? tag.type}:${tag.tagValue}`).sort(),
    enabled: Object.fromEntries((result.featureEnvironments ?? []).map((env) => [env.featureName ?? env.name, env.enabled])),
  };
}

/** Each scope, what the seed says it holds, and the file the default template gives it (`<env>` for the environment). */
const scopes: Array<{ title: string; scope: ExportScope; flags: readonly SeedFlag[]; file: string }> = [
  { title: 'all flags', scope: { kind: 'all' }, flags: live, file: '<env>.json' },
  { title: 'project checkout', scope: { kind: 'project', project: 'checkout' }, flags: live.filter((flag) => flag.project === 'checkout'), file: '<env>.checkout.json' },
  { title: 'tag team:payments', scope: { kind: 'tag', type: 'team', value: 'payments' }, flags: seedFlagsTagged('team', 'payments'), file: '<env>.team_payments.json' },
  { title: 'tag simple:needs review', scope: { kind: 'tag', type: 'simple', value: 'needs review' }, flags: seedFlagsTagged('simple', 'needs review'), file: '<env>.simple_needs review.json' },
  {
    title: 'chosen flags',
    scope: { kind: 'features', names: ['maintenance-mode', 'new-checkout-flow'] },
    flags: live.filter((flag) => flag.name === 'maintenance-mode' || flag.name === 'new-checkout-flow'),
    file: '<env>.selected.json',
  },
];

describe('export to a file (real server)', () => {
  for (const { title, scope, flags, file } of scopes) {
    for (const environment of SEED.environments) {
      it(`${title} from ${environment}: as seeded, and byte-identical on a second run`, async () => {
        const first = await exportToFile({ client: client(), environment, scope, folder: dir });
        assert.equal(first.path, path.join(dir, '.unleash', file.replace('<env>', environment)));
        assert.equal(first.changed, true);
        const bytes = await fsp.readFile(first.path);
        const written = await parseExportFile(bytes);
        assert.deepEqual(actual(written), expected(flags, environment));
        assert.equal(first.flags, flags.length);
        assert.equal(first.strategies, expected(flags, environment).strategies);
        assert.equal(first.bytes, bytes.length);

        const stat = await fsp.stat(first.path);
        const second = await exportToFile({ client: client(), environment, scope, folder: dir });
        assert.equal(second.changed, false, 'the same environment exported twice gives the same bytes');
        assert.deepEqual(await fsp.readFile(first.path), bytes);
        assert.equal((await fsp.stat(first.path)).mtimeMs, stat.mtimeMs, 'an unchanged export is not rewritten');
      });
    }
  }

  it('writes whatever else the server sends (context fields, segments, tag types, dependencies, links)', async () => {
    const result = await exportToFile({ client: client(), environment: 'development', scope: { kind: 'all' }, folder: dir });
    const written = await parseExportFile(await fsp.readFile(result.path));
    assert.deepEqual(
      (written.tagTypes ?? []).map((type) => type.name).sort(),
      [...new Set(live.flatMap((flag) => flag.tags.map((tag) => tag.type)))].sort(),
    );
    assert.deepEqual(written.dependencies, [{ feature: SEED.dependency.child, dependencies: [{ feature: SEED.dependency.parent, enabled: true, variants: ['blue'] }] }]);
    assert.ok((written.segments ?? []).some((segment) => segment.name === 'internal-users'));
    assert.equal(written.segmentDefinitions, undefined, 'the export holds only what the server sent (Unleash imports nothing else)');
    // The segments' definitions, from the segment listing, beside the export: name, description, project and every constraint.
    assert.equal(result.segmentsPath, `${result.path}.segments`);
    const definitions = (await takeSegments(await fsp.readFile(result.segmentsPath ?? ''), new TimeSlices())).definitions;
    const internal = SEED.segments.find((segment) => segment.name === 'internal-users');
    const definition = definitions.find((segment) => segment.name === 'internal-users');
    assert.ok(internal && definition);
    assert.deepEqual(Object.keys(definition), ['id', 'name', 'description', 'constraints']);
    assert.equal(definition.description, internal.description);
    assert.deepEqual(definition.constraints.map((c) => [c.contextName, c.operator, c.values ?? c.value]), internal.constraints.map((c) => [c.contextName, c.operator, c.values ?? c.value]));
    assert.deepEqual(
      definitions.map((segment) => segment.id),
      (written.segments ?? []).map((segment) => segment.id),
      'exactly the segments the export uses',
    );
    assert.ok((written.contextFields ?? []).some((field) => field.name === 'tenantId'));
    const text = await fsp.readFile(result.path, 'utf8');
    assert.ok(!text.includes(unleash.current.adminToken), 'the token is not in the file');
  });

  it('an export interrupted by a failing server leaves the previous file intact', async () => {
    const good = await exportToFile({ client: client(), environment: 'development', scope: { kind: 'all' }, folder: dir });
    const previous = await fsp.readFile(good.path);
    const failing = await startFaultServer();
    try {
      const body = Buffer.from(JSON.stringify(await parseExportFile(previous)));
      const failures: Array<[string, () => void, new (...args: never[]) => Error]> = [
        ['a 500', () => failing.handle(() => ({ status: 500, body: { name: 'InternalError', message: 'database went away' } })), HttpError],
        [
          'the socket closed mid-body',
          () =>
            failing.handle((_request, res) => {
              res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
              res.write(body.subarray(0, body.length >> 1));
              setTimeout(() => res.socket?.destroy(), 20);
            }),
          NetworkError,
        ],
      ];
      for (const [what, setUp, errorClass] of failures) {
        setUp();
        await assert.rejects(
          exportToFile({ client: client(failing.url), environment: 'development', scope: { kind: 'all' }, folder: dir }),
          errorClass,
          what,
        );
        assert.deepEqual(await fsp.readFile(good.path), previous, `${what}: the previous file is byte-identical`);
        assert.deepEqual((await fsp.readdir(path.dirname(good.path))).sort(), ['development.json', 'development.json.segments'], `${what}: no temporary file is left`);
      }
    } finally {
      await failing.close();
    }
  });
});
