import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { exportResultSchema, type ExportResult } from '../../src/api/exportSchemas';
import { Catalog } from '../../src/model/store/catalog';
import { OfflineSource, segmentDefinitionMissing } from '../../src/model/store/offlineSource';
import { exportEnvironment } from '../../src/model/export/exportEnvironment';
import { INTAKE_BUDGET } from '../../src/base/intakeBudget';
import { distinctTags } from '../../src/model/tags/tagInput';
import { serializeExport } from '../../src/model/export/exportBytes';

const parseExport = (text: string): ExportResult => exportResultSchema.parse(JSON.parse(text));

const development = exportResultSchema.parse(JSON.parse(readFileSync(path.join(__dirname, '..', 'fixtures', 'export-development.json'), 'utf8')));

function production(): ExportResult {
  const copy: ExportResult = JSON.parse(JSON.stringify(development));
  copy.featureEnvironments = copy.featureEnvironments?.map((env) => ({ ...env, environment: 'production', enabled: !env.enabled }));
  copy.featureStrategies = [];
  return copy;
}

describe('OfflineSource (export files as a flag source)', () => {
  let source: OfflineSource;
  before(async () => {
    source = await OfflineSource.read([
      { path: '.unleash/development.json', result: development },
      { path: '.unleash/production.json', result: production() },
    ]);
  });

  it('lists every exported flag once, with the state of each environment file', async () => {
    const features = await source.listFeatures();
    assert.deepEqual(features.map((f) => f.name).sort(), development.features.map((f) => f.name).sort());
    for (const feature of features) {
      const dev = development.featureEnvironments?.find((env) => env.featureName === feature.name);
      assert.deepEqual(feature.environments, [
        { name: 'development', enabled: dev?.enabled ?? false },
        { name: 'production', enabled: !(dev?.enabled ?? true) },
      ]);
    }
  });

  it('gives a feature its strategies per environment, tags, parents, children and links', async () => {
    const [first] = development.features;
    assert.ok(first);
    const feature = await source.getFeature(first.project ?? '', first.name);
    const devStrategies = development.featureStrategies.filter((s) => s.featureName === first.name);
    assert.equal(feature.environments?.find((env) => env.name === 'development')?.strategies?.length, devStrategies.length);
    assert.equal(feature.environments?.find((env) => env.name === 'production')?.strategies?.length, 0);
    const tags = development.featureTags?.filter((tag) => tag.featureName === first.name).map((tag) => `${tag.tagType}:${tag.tagValue}`);
    assert.deepEqual(feature.tags?.map((tag) => `${tag.type}:${tag.value}`).sort(), tags?.sort());
    for (const dep of development.dependencies ?? []) {
      const parent = await source.getFeature(first.project ?? '', dep.dependencies[0]?.feature ?? '');
      assert.ok(parent.children?.includes(dep.feature));
    }
  });

  it('names segments of a strategy, saying their constraints are not in export files', async () => {
    const strategy = development.featureStrategies.find((s) => s.segments?.length);
    assert.ok(strategy?.id);
    const segments = await source.getStrategySegments(strategy.id);
    assert.equal(segments.length, strategy.segments?.length);
    assert.ok(segments.every(segmentDefinitionMissing), 'an older file: the tree says the constraints are not in it');
  });

  it('labels itself with the files it read, and knows their environments', async () => {
    assert.equal(source.label, '.unleash/development.json, .unleash/production.json');
    assert.deepEqual(await source.listEnvironments(), ['development', 'production']);
  });

  it('takes the environment from the file name when the export is empty', () => {
    assert.equal(exportEnvironment({ features: [], featureStrategies: [], tagTypes: [] }, '.unleash/staging.json'), 'staging');
  });

  it('refuses to show a flag it does not have', async () => {
    await assert.rejects(source.getFeature('default', 'nope'), /No flag named "nope"/);
  });
});

describe('OfflineSource with a whole and a partial export of one environment', () => {
  it('shows each flag once per environment', async () => {
    const partial: ExportResult = JSON.parse(JSON.stringify(development));
    partial.features = partial.features.slice(0, 1);
    const source = await OfflineSource.read([
      { path: '.unleash/development.json', result: development },
      { path: '.unleash/development.checkout.json', result: partial },
    ]);
    const features = await source.listFeatures();
    assert.equal(features.length, development.features.length);
    for (const feature of features) assert.deepEqual(feature.environments?.map((env) => env.name), ['development']);
    const first = partial.features[0];
    assert.ok(first);
    const detail = await source.getFeature(first.project ?? '', first.name);
    assert.deepEqual(detail.environments?.map((env) => env.name), ['development']);
  });
});

describe('OfflineSource: segment definitions', () => {
  const strategy = development.featureStrategies.find((s) => (s.segments ?? []).length === 2);

  it('shows segments with their constraints when the file holds their definitions', async () => {
    assert.ok(strategy?.id);
    const withDefinitions: ExportResult = {
      ...development,
      segmentDefinitions: [
        { id: 1, name: 'internal-users', description: 'Employees', constraints: [{ contextName: 'email', operator: 'STR_ENDS_WITH', values: ['@example.com'] }] },
        { id: 2, name: 'beta-testers', project: 'checkout', constraints: [] },
      ],
    };
    const source = await OfflineSource.read([{ path: '.unleash/development.json', result: withDefinitions }]);
    const segments = await source.getStrategySegments(strategy.id);
    assert.deepEqual(
      segments.map((s) => [s.id, s.name, s.description ?? null, s.project ?? null, s.constraints.length, segmentDefinitionMissing(s)]),
      [
        [2, 'beta-testers', null, 'checkout', 0, false],
        [1, 'internal-users', 'Employees', null, 1, false],
      ],
    );
  });

  it('gives the strategies of a file without server ids (as the extension writes them) their own segments', async () => {
    const withoutIds = parseExport(serializeExport(development));
    assert.ok(withoutIds.featureStrategies.every((s) => s.id === undefined));
    const source = await OfflineSource.read([{ path: '.unleash/development.json', result: withoutIds }]);
    const feature = await source.getFeature('default', 'new-checkout-flow');
    const strategies = feature.environments?.[0]?.strategies ?? [];
    const segmentNames = await Promise.all(strategies.map(async (s) => (await source.getStrategySegments(s.id ?? '')).map((segment) => segment.name)));
    assert.deepEqual(
      strategies.map((s, i) => `${s.name}: ${segmentNames[i]?.join(', ')}`),
      ['flexibleRollout: internal-users, beta-testers', 'remoteAddress: '],
    );
  });

  it('still loads a file written before the section, and says its constraints are not in it', async () => {
    assert.ok(strategy?.id);
    assert.equal(development.segmentDefinitions, undefined);
    const source = await OfflineSource.read([{ path: '.unleash/development.json', result: development }]);
    const segments = await source.getStrategySegments(strategy.id);
    assert.deepEqual(segments.map((s) => [s.name, s.constraints.length, segmentDefinitionMissing(s)]), [
      ['beta-testers', 0, true],
      ['internal-users', 0, true],
    ]);
  });
});

/**
 * Shapes a cloned repository can hold: what the tree and hovers get must be right, and indexing them must take one
 * pass over each list. The timeouts are bounds, not measures (bench/hostile/ measures): each test takes about a
 * second; the rows × rows indexing it replaces took minutes.
 */
describe('OfflineSource on hostile shapes', () => {
  const bare = (rest: Partial<ExportResult>): ExportResult => ({ features: [], featureStrategies: [], tagTypes: [], ...rest });
  const read = (result: ExportResult, name = '.unleash/development.json') => OfflineSource.read([{ path: name, result }]);
  const ROWS = 20_000;
  const rows = Array.from({ length: ROWS }, (_, i) => i);

  it('shows one flag named in 20,000 rows of every list once, with each of its 20,000 tags once', { timeout: 60_000 }, async () => {
    const source = await read(
      bare({
        features: rows.map(() => ({ name: 'same', project: 'default' })),
        featureEnvironments: rows.map((i) => ({ featureName: 'same', name: 'same', environment: 'development', enabled: i === ROWS - 1 })),
        featureStrategies: rows.map((i) => ({ featureName: 'same', id: `s${i}`, name: 'default', segments: [1] })),
        featureTags: [...rows, ...rows].map((i) => ({ featureName: 'same', tagType: 'team', tagValue: `t${i % ROWS}` })),
        contextFields: rows.map(() => ({ name: 'userId' })),
        segments: rows.map((i) => ({ id: 1, name: `segment-${i}` })),
      }),
    );
    const flags = await source.listFeatures();
    assert.equal(flags.length, 1);
    assert.deepEqual(flags[0]?.environments, [{ name: 'development', enabled: true }], 'the last row of the environment');
    assert.deepEqual(flags[0]?.tags?.map((tag) => tag.value), rows.map((i) => `t${i}`));
    const feature = await source.getFeature('default', 'same');
    assert.equal(feature.environments?.[0]?.strategies?.length, ROWS);
    assert.deepEqual((await source.getStrategySegments('s7')).map((segment) => segment.name), [`segment-${ROWS - 1}`]);
  });

  it('gives a name held by as many projects as the budget allows (1,000) its tags in each, and finds them all by tag', { timeout: 60_000 }, async () => {
    const projects = Array.from({ length: INTAKE_BUDGET.projectsPerName }, (_, i) => `project-${i}`);
    const source = await read(
      bare({
        features: projects.map((project) => ({ name: 'same', project })),
        featureTags: projects.map((_, i) => ({ featureName: 'same', tagType: 'team', tagValue: `t${i}` })),
      }),
    );
    const catalog = new Catalog(await source.listFeatures());
    assert.equal(catalog.withTag('team', 't999').length, 1_000);
    assert.equal(distinctTags(catalog.flags).length, 1_000);
    assert.equal((await source.getFeature('project-123', 'same')).tags?.length, 1_000);
    assert.equal(source.listingNote, undefined);
  });

  it('keeps a name in files together to the first 1,000 projects, and says how many rows were left out', async () => {
    const file = (from: number) => bare({ features: Array.from({ length: 600 }, (_, i) => ({ name: 'same', project: `project-${from + i}` })) });
    const source = await OfflineSource.read([
      { path: '.unleash/a.json', result: file(0) },
      { path: '.unleash/b.json', result: file(600) },
    ]);
    assert.equal((await source.listFeatures()).length, 1_000);
    assert.equal(
      source.listingNote,
      'Showing 1,000 flags of the export files together; 200 more rows are left out (at most 1,000 projects per flag name).',
    );
  });

  it('lists the 40,000 children of one parent, and the 40,000 parents of one child', { timeout: 60_000 }, async () => {
    const names = Array.from({ length: 40_000 }, (_, i) => `child-${String(i).padStart(5, '0')}`);
    const source = await read(
      bare({
        features: [{ name: 'parent', project: 'default' }, { name: 'orphan', project: 'default' }, ...names.map((name) => ({ name, project: 'default' }))],
        dependencies: [
          ...names.map((feature) => ({ feature, dependencies: [{ feature: 'parent' }] })),
          { feature: 'orphan', dependencies: names.map((feature) => ({ feature })) },
        ],
      }),
    );
    const parent = await source.getFeature('default', 'parent');
    assert.deepEqual(parent.children, names);
    assert.equal((await source.getFeature('default', 'orphan')).dependencies?.length, 40_000);
    const child = await source.getFeature('default', 'child-12345');
    assert.deepEqual(child.dependencies, [{ feature: 'parent' }]);
    assert.deepEqual(child.children, ['orphan']);
  });

  it('lists a child under its parent in its own project only, and with the parents of the first file that lists it', async () => {
    const first = bare({
      features: [{ name: 'parent', project: 'a' }, { name: 'parent', project: 'b' }, { name: 'child', project: 'a' }, { name: 'late', project: 'a' }],
      dependencies: [{ feature: 'child', dependencies: [{ feature: 'parent' }] }],
    });
    const second = bare({ features: [{ name: 'late', project: 'a' }], dependencies: [{ feature: 'late', dependencies: [{ feature: 'parent' }] }] });
    const source = await OfflineSource.read([
      { path: '.unleash/a.json', result: first },
      { path: '.unleash/b.json', result: second },
    ]);
    assert.deepEqual((await source.getFeature('a', 'parent')).children, ['child']);
    assert.equal((await source.getFeature('b', 'parent')).children, undefined);
    assert.deepEqual((await source.getFeature('a', 'late')).dependencies, []);
  });

  it('gives a parent held by 1,000 projects the child of its own project in each', { timeout: 60_000 }, async () => {
    const projects = Array.from({ length: INTAKE_BUDGET.projectsPerName }, (_, i) => `project-${i}`);
    const source = await read(
      bare({
        features: projects.flatMap((project, i) => [{ name: 'parent', project }, ...(i % 2 === 0 ? [{ name: 'child', project }] : [])]),
        dependencies: [{ feature: 'child', dependencies: [{ feature: 'parent' }] }],
      }),
    );
    const children = await Promise.all(projects.map(async (project) => (await source.getFeature(project, 'parent')).children));
    assert.deepEqual(children, projects.map((_, i) => (i % 2 === 0 ? ['child'] : undefined)));
  });
});
