/**
 * Exports go back into Unleash: every file "Export Environment…" writes (each scope, each environment) of the seeded
 * server passes `POST /api/admin/features-batch/validate` on a second server of the same generation started on a
 * fresh database (a file of several projects, validated into one, but for the other projects' segments), imports
 * there with `POST /api/admin/features-batch/import` (one project at a time, as the import takes them), and exports
 * again through the extension to the same bytes, the segments files too (the files leave out the strategy and link
 * ids a server assigns: the import gives new ones, see docs/unleash-api-notes.md).
 *
 * What the target needs first, as a person promoting the files would do it: the projects (SQL: open-source Unleash
 * cannot create them), the segments of the segments files (created in the order of their ids, so that a fresh
 * database gives them the same ids), and the context fields of the exports (the import creates missing ones itself,
 * but without their sort order).
 *   node --import tsx --test test/contract/exportImport.contract.test.ts
 */
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { UnleashClient } from '../../src/api/client';
import type { ExportScope } from '../../src/api/exportQuery';
import type { SegmentDefinition } from '../../src/api/schemas';
import type { ExportResult } from '../../src/api/exportSchemas';
import { takeSegments } from '../../src/model/export/exportSegmentsFile';
import { TimeSlices } from '../../src/base/timeSlices';
import { exportToFile } from '../../src/model/export/exportToFile';
import { useRealUnleash } from './env';
import { SEED, serverVersionFromEnv, startRealUnleash, type RealUnleash } from '../../tools/unleash';
import { adminClient } from '../../tools/unleash/seed';
import { personalToken } from '../../tools/unleash/personalToken';

const source = useRealUnleash();
let target: RealUnleash;
let importToken: string;
let dir: string;
const clients: UnleashClient[] = [];

const SCOPES: Array<{ title: string; scope: ExportScope }> = [
  { title: 'all flags', scope: { kind: 'all' } },
  { title: 'project default', scope: { kind: 'project', project: 'default' } },
  { title: 'project checkout', scope: { kind: 'project', project: 'checkout' } },
  { title: 'tag team:payments', scope: { kind: 'tag', type: 'team', value: 'payments' } },
  { title: 'tag simple:needs review', scope: { kind: 'tag', type: 'simple', value: 'needs review' } },
  { title: 'chosen flags', scope: { kind: 'features', names: ['maintenance-mode', 'new-checkout-flow'] } },
];

interface Written {
  title: string;
  environment: string;
  scope: ExportScope;
  /** The export's text and its segments file's text (undefined: none). */
  text: string;
  segments?: string;
}

function client(url: string, token: string): UnleashClient {
  const created = new UnleashClient({ baseUrl: url, getToken: () => token, retryBaseMs: 10, timeoutMs: 60_000 });
  clients.push(created);
  return created;
}

/** Exports every scope of every environment from `url` into `folder`, as the command writes them. */
async function exportAll(url: string, token: string, folder: string): Promise<Written[]> {
  await fsp.mkdir(folder, { recursive: true });
  const written: Written[] = [];
  for (const environment of SEED.environments) {
    for (const { title, scope } of SCOPES) {
      const result = await exportToFile({ client: client(url, token), environment, scope, folder });
      written.push({
        title,
        environment,
        scope,
        text: await fsp.readFile(result.path, 'utf8'),
        segments: result.segmentsPath ? await fsp.readFile(result.segmentsPath, 'utf8') : undefined,
      });
    }
  }
  return written;
}

async function post(url: string, token: string, route: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${url}${route}`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** The one project of an export's flags, or `default` when they are of several (the import takes one project). */
function projectOf(result: ExportResult): string {
  const projects = new Set(result.features.map((feature) => feature.project ?? 'default'));
  return projects.size === 1 ? [...projects][0]! : 'default';
}

let exported: Written[] = [];

before(async () => {
  target = await startRealUnleash({ version: serverVersionFromEnv(), seed: false });
  importToken = await personalToken(target.url, target.admin);
  dir = await fsp.mkdtemp(path.join(tmpdir(), 'export-import-contract-'));
}, { timeout: 600_000 });

after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await target?.stop();
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

describe('exports import back into Unleash (a second server, fresh database)', () => {
  it('writes every scope of every environment as an export Unleash knows, with the segment definitions beside it', async () => {
    exported = await exportAll(source.current.url, source.current.adminToken, path.join(dir, 'source'));
    assert.equal(exported.length, SCOPES.length * SEED.environments.length);
    for (const file of exported) {
      const result = JSON.parse(file.text) as Record<string, unknown>;
      assert.deepEqual(
        Object.keys(result).filter((key) => !['features', 'featureStrategies', 'featureEnvironments', 'contextFields', 'featureTags', 'segments', 'tagTypes', 'dependencies', 'links'].includes(key)),
        [],
        `${file.title} from ${file.environment}: only keys the server writes`,
      );
      const used = (result.segments as unknown[] | undefined)?.length ?? 0;
      assert.equal(file.segments !== undefined, used > 0, `${file.title} from ${file.environment}: a segments file exactly when segments are used`);
    }
    assert.ok(exported.some((file) => file.segments), 'some export uses segments');
  });

  it('passes validate on the target once its projects, segments and context fields exist (a file of several projects: but for segments of another project)', async () => {
    const api = adminClient(target.url, target.adminToken);
    await target.postgres.psql(
      [
        'BEGIN;',
        ...SEED.projects
          .filter((project) => project.id !== 'default')
          .flatMap((project) => [
            `INSERT INTO projects (id, name, description) VALUES ('${project.id}', '${project.name}', '${project.description}');`,
            `INSERT INTO project_settings (project, default_stickiness, project_mode) VALUES ('${project.id}', 'default', 'open');`,
            ...SEED.environments.map((environment) => `INSERT INTO project_environments (project_id, environment_name) VALUES ('${project.id}', '${environment}');`),
          ]),
        'COMMIT;',
      ].join('\n'),
    );
    const definitions = new Map<number, SegmentDefinition>();
    for (const file of exported) {
      if (file.segments) for (const definition of (await takeSegments(Buffer.from(file.segments), new TimeSlices())).definitions) definitions.set(definition.id, definition);
    }
    for (const definition of [...definitions.values()].sort((a, b) => a.id - b.id)) {
      const { id, name, description, project, constraints } = definition;
      const created = await api.call<{ id: number }>('POST', '/api/admin/segments', { name, description, constraints, ...(project ? { project } : {}) });
      assert.equal(created.id, id, `segment ${name} gets the id it had on the source (a fresh database, created in id order)`);
    }
    const contextFields = new Map<string, Record<string, unknown>>();
    for (const file of exported) for (const field of (JSON.parse(file.text) as ExportResult).contextFields ?? []) contextFields.set(field.name, field);
    const builtIn = new Set(((await api.call<Array<{ name: string }>>('GET', '/api/admin/context')) ?? []).map((field) => field.name));
    for (const field of contextFields.values()) {
      if (builtIn.has(String(field.name))) continue;
      const { name, description, stickiness, sortOrder, legalValues } = field;
      await api.call('POST', '/api/admin/context', { name, description, stickiness, sortOrder, legalValues });
    }

    for (const file of exported) {
      const data = JSON.parse(file.text) as ExportResult;
      const project = projectOf(data);
      const answer = await post(target.url, target.adminToken, '/api/admin/features-batch/validate', { project, environment: file.environment, data });
      const label = `${file.title} from ${file.environment}`;
      assert.equal(answer.status, 200, `${label}: ${JSON.stringify(answer.body)}`);
      const { errors } = answer.body as { errors: Array<{ message: string; affectedItems: string[] }> };
      if (new Set(data.features.map((feature) => feature.project)).size === 1) {
        assert.deepEqual(errors, [], label);
        continue;
      }
      // A file of several projects is imported into one: a segment of another project is not there for it.
      for (const error of errors) {
        assert.match(error.message, /segments that need to be created first/, label);
        for (const name of error.affectedItems) {
          const owner = [...definitions.values()].find((definition) => definition.name === name)?.project;
          assert.ok(owner && owner !== project, `${label}: ${name} is a segment of another project than ${project}`);
        }
      }
    }
  });

  it('imports each project into the target, whose exports through the extension are the same bytes', async () => {
    for (const environment of SEED.environments) {
      for (const project of SEED.projects.map((p) => p.id)) {
        const file = exported.find((f) => f.environment === environment && f.scope.kind === 'project' && f.scope.project === project);
        assert.ok(file);
        const answer = await post(target.url, importToken, '/api/admin/features-batch/import', { project, environment, data: JSON.parse(file.text) });
        assert.equal(answer.status, 200, `import of ${project} into ${environment}: ${JSON.stringify(answer.body)}`);
      }
    }
    const again = await exportAll(target.url, target.adminToken, path.join(dir, 'target'));
    for (const [i, file] of again.entries()) {
      const before = exported[i]!;
      assert.equal(file.text, before.text, `${before.title} from ${before.environment}`);
      assert.equal(file.segments, before.segments, `${before.title} from ${before.environment}: the segments file`);
    }
  });
});
