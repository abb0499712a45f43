import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { exportResultSchema, type ExportResult } from '../../src/api/schemas';
import { OfflineSource, environmentOf, segmentDefinitionMissing } from '../../src/model/offlineSource';

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
    assert.equal(environmentOf({ path: '.unleash/staging.json', result: { features: [], featureStrategies: [], tagTypes: [] } }), 'staging');
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
