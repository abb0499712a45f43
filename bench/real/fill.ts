/**
 * Fills a real Unleash with N realistic flags (bench/data.ts) through `POST /api/admin/features-batch/import`, and
 * caches the filled database as a pg_dump under bench/results/real-cache/, keyed by server version, flag count, seed
 * and FILL_VERSION, so the next run restores it in seconds instead of importing again.
 *
 * What goes in: six projects (all but `default` inserted with SQL: open-source Unleash has no create-project
 * endpoint), twelve segments (Admin API), then per project the import of chunks of flags in
 * creation order (a child's parent is always in the same or an earlier chunk). The server accepts at most 500 kB per
 * import body, so a chunk holds about 300 flags. Every flag gets its description, type, stale and impression-data
 * flags, tags, links, and in development its environment variants, strategies (constraints, strategy
 * variants, segments) and switch, and a parent dependency on 3 % of them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { personalToken } from '../../tools/unleash/personalToken';
import type { RunningPostgres } from '../../tools/unleash/postgres';
import { run } from '../../tools/unleash/procs';
import { adminClient } from '../../tools/unleash/seed';
import { insertProjects, sqlString } from '../../tools/unleash/sql';
import { mapLimited } from '../../src/base/mapLimited';
import { ENVIRONMENTS, generateDataset, type Dataset, type ExportBody } from '../data';

/** Bump when what the fill puts in the database changes: old dumps are then ignored. */
const FILL_VERSION = 2;
const SEED = 1;
/** The server's body limit for features-batch is 500 kB; stay below it. */
const MAX_BODY = 480_000;
const FIRST_CHUNK = 300;
/**
 * The environment the flags are imported into (strategies, variants, switch). Production is left as a new flag has
 * it (off, no strategy): importing it too doubles a fill that takes minutes, and changes none of the reads measured
 * (the listings carry both environments either way; the export measured is development's).
 */
const FILLED_ENVIRONMENT = 'development';
/** One import request of a chunk took 11–130 s on this 2-core machine under load. */
const IMPORT_TIMEOUT_MS = 300_000;

/** Flags of one project, parents before their children (a child's parent is in the same project). */
function creationOrder(flags: ExportBody['features'], dependencies: ExportBody['dependencies']): string[] {
  const parentOf = new Map(dependencies.map((d) => [d.feature, d.dependencies[0]?.feature]));
  const depth = (name: string, seen = 0): number => {
    const parent = parentOf.get(name);
    return parent === undefined || seen > 10 ? 0 : 1 + depth(parent, seen + 1);
  };
  return flags
    .map((f) => ({ name: f.name, depth: depth(f.name) }))
    .sort((a, b) => a.depth - b.depth || (a.name < b.name ? -1 : 1))
    .map((f) => f.name);
}

/**
 * What the real server refuses in the generated data: an inverted REGEX constraint, tenant ids outside the legal
 * values of `tenantId` (the generator draws random ones, so the field gets no legal values here), and a dependency
 * chain (a parent that is itself a child: Unleash allows one level).
 */
function importable(body: ExportBody, oneLevel: (d: ExportBody['dependencies'][number]) => boolean): ExportBody {
  return {
    ...body,
    dependencies: body.dependencies.filter(oneLevel),
    contextFields: body.contextFields.map((c) => (c.name === 'tenantId' ? { ...c, legalValues: [] } : c)),
    featureStrategies: body.featureStrategies.map((s) => ({
      ...s,
      constraints: s.constraints.map((c) => (c.operator === 'REGEX' && c.inverted ? { ...c, inverted: false } : c)),
    })),
  };
}

/** Splits `names` into consecutive chunks whose import body stays under MAX_BODY. */
function chunks(data: Dataset, environment: string, names: string[]): string[][] {
  const out: string[][] = [];
  let size = FIRST_CHUNK;
  for (let at = 0; at < names.length; ) {
    const chunk = names.slice(at, at + size);
    if (JSON.stringify(data.exportNamed(environment, chunk)).length > MAX_BODY && chunk.length > 1) {
      size = Math.max(1, Math.floor(size * 0.8));
      continue;
    }
    out.push(chunk);
    at += chunk.length;
  }
  return out;
}

/** Fills the server at `url` (its admin token and login) with `flags` bench flags; answers the requests and time. */
export async function fill(
  server: { url: string; adminToken: string; admin: { username: string; password: string } },
  psql: RunningPostgres['psql'],
  flags: number,
  log: (line: string) => void,
): Promise<{ requests: number; ms: number }> {
  const started = Date.now();
  const api = adminClient(server.url, server.adminToken);
  // The import takes a user's token, not an admin token (personalToken.ts).
  const user = adminClient(server.url, await personalToken(server.url, server.admin, 'bench fill'), IMPORT_TIMEOUT_MS);
  const data = generateDataset(flags, SEED);
  const all = data.exportFor('development');
  const projects = [...new Set(all.features.map((f) => f.project))].sort();
  const children = new Set(all.dependencies.map((d) => d.feature));
  const parents = new Set(all.dependencies.flatMap((d) => d.dependencies.map((p) => p.feature)));
  const oneLevel = (d: ExportBody['dependencies'][number]): boolean =>
    !parents.has(d.feature) && d.dependencies.every((p) => !children.has(p.feature));

  // 1. Projects other than default: SQL (OSS Unleash has no create-project endpoint).
  const created = projects.filter((p) => p !== 'default').map((id) => ({ id, name: id, description: `Bench project ${id}` }));
  await insertProjects(psql, created, ENVIRONMENTS.map((e) => e.name));

  // 2. Segments, by name (the import maps export segment ids to existing segments by name).
  const segmentNames = new Set<string>();
  for (const env of ENVIRONMENTS) for (const s of data.exportFor(env.name).segments) segmentNames.add(s.name);
  for (const name of [...segmentNames].sort()) {
    await api.call('POST', '/api/admin/segments', {
      name,
      description: `Bench segment ${name}`,
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['1', '2', '3'], inverted: false, caseInsensitive: false }],
    });
  }

  // 3. Flags: per project, chunks in creation order, into development only. The first chunk goes alone (it
  //    creates the tag types and context fields); then two projects at a time, the largest first.
  let requests = 0;
  const jobs = projects
    .map((project) => {
      const own = all.features.filter((f) => f.project === project);
      const order = creationOrder(own, all.dependencies);
      return { project, steps: chunks(data, FILLED_ENVIRONMENT, order).map((chunk) => ({ environment: FILLED_ENVIRONMENT, chunk })) };
    })
    .sort((a, b) => b.steps.length - a.steps.length || (a.project < b.project ? -1 : 1));
  const runStep = async (project: string, step: { environment: string; chunk: string[] }): Promise<void> => {
    const t = Date.now();
    const body = { project, environment: step.environment, data: importable(data.exportNamed(step.environment, step.chunk), oneLevel) };
    await user.call('POST', '/api/admin/features-batch/import', body);
    requests++;
    log(`fill: ${project}/${step.environment}: ${step.chunk.length} flags in ${Date.now() - t} ms`);
  };
  const first = jobs[0]!;
  await runStep(first.project, first.steps.shift()!);
  await mapLimited(jobs, 2, async (job) => {
    for (const step of job.steps) await runStep(job.project, step);
  });
  return { requests, ms: Date.now() - started };
}

// ---- The cache ---------------------------------------------------------------------------------------------------

const CACHE_DIR = path.join(__dirname, '..', 'results', 'real-cache');

export function cacheFile(version: string, flags: number): string {
  return path.join(CACHE_DIR, `unleash-${version}-${flags}-flags-seed${SEED}-fill${FILL_VERSION}.dump`);
}

type Db = Pick<RunningPostgres, 'host' | 'port' | 'user' | 'database' | 'binDir'>;

const connection = (db: Db): string[] => ['-h', db.host, '-p', String(db.port), '-U', db.user, '-d', db.database];

/** pg_dump (custom format) of the filled database, written atomically. */
export async function saveDump(db: Db, file: string): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  await run(path.join(db.binDir, 'pg_dump'), ['-Fc', '--no-owner', '-f', partial, ...connection(db)]);
  fs.renameSync(partial, file);
}

/**
 * Restores a dump into the empty database before Unleash starts, and removes its API tokens, so Unleash creates
 * this run's admin token at start (it only does so when no token exists).
 */
export async function restoreDump(db: Db & Pick<RunningPostgres, 'psql'>, file: string): Promise<void> {
  await run(path.join(db.binDir, 'pg_restore'), ['--no-owner', '--exit-on-error', ...connection(db), file]);
  await db.psql('TRUNCATE api_tokens CASCADE; TRUNCATE personal_access_tokens;');
}

// ---- Larger sets: copies of an imported one --------------------------------------------------------------------

/**
 * The import endpoint creates flags one by one (about 45 ms a flag on an idle 2-core machine, several times that on a
 * busy one: 10,000 flags would take many minutes). A larger set is therefore the imported 1,000-flag set copied in
 * SQL, before Unleash starts: copy g of flag `x` is `x.r<g>` with the same project, description, type, tags,
 * lifecycle, links, dependencies and development strategies (new ids, same constraints, variants and segments).
 */
const COPIED: Record<string, Record<string, (column: string) => string>> = {
  features: { name: renamed },
  feature_environments: { feature_name: renamed },
  feature_strategies: { id: newId, feature_name: renamed },
  feature_strategy_segment: { feature_strategy_id: newId },
  feature_tag: { feature_name: renamed },
  feature_lifecycles: { feature: renamed },
  dependent_features: { parent: renamed, child: renamed },
  feature_link: { id: renamed, feature_name: renamed },
};

function renamed(column: string): string {
  return `${column} || '.r' || copies.g`;
}

/** The same new id for a strategy and its segment links: a UUID derived from the old id and the copy number. */
function newId(column: string): string {
  return `md5(${column} || '.r' || copies.g)::uuid::text`;
}

export async function multiply(psql: RunningPostgres['psql'], factor: number): Promise<void> {
  if (!Number.isInteger(factor) || factor < 2 || factor > 100) throw new Error(`multiply: factor ${factor} out of 2–100`);
  const tables = Object.keys(COPIED);
  const rows = await psql(
    `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name IN (${tables.map(sqlString).join(', ')}) ORDER BY table_name, ordinal_position;`,
  );
  const columns = new Map<string, string[]>();
  for (const line of rows.split('\n').filter(Boolean)) {
    const [table, column] = line.split('|') as [string, string];
    columns.set(table, [...(columns.get(table) ?? []), column]);
  }
  const statements = tables.map((table) => {
    const list = columns.get(table);
    if (!list) throw new Error(`multiply: table ${table} not found`);
    const transforms = COPIED[table]!;
    const select = list.map((column) => (transforms[column] ? transforms[column]!(`"${table}"."${column}"`) : `"${table}"."${column}"`));
    return `INSERT INTO "${table}" (${list.map((c) => `"${c}"`).join(', ')}) SELECT ${select.join(', ')} FROM "${table}" CROSS JOIN copies;`;
  });
  await psql(['BEGIN;', `CREATE TEMP TABLE copies AS SELECT g FROM generate_series(2, ${factor}) AS g;`, ...statements, 'COMMIT;', 'ANALYZE;'].join('\n'));
}
