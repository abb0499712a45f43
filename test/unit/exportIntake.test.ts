/**
 * An export file as it enters (src/model/export/exportIntake.ts): held to the intake budget before the schema checks
 * it, every cut recorded and said in words (offlineNotes.ts), the drift check's snapshot with each flag's line, and
 * the drift of a name in thousands of projects compared a map lookup per flag (issue 39, findings 2 and 4).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { INTAKE_BUDGET } from '../../src/base/intakeBudget';
import { TimeSlices } from '../../src/base/timeSlices';
import { exportDrift } from '../../src/model/export/exportDrift';
import { takeExport, takeExportSnapshot } from '../../src/model/export/exportIntake';
import { serializeExport } from '../../src/model/export/exportBytes';
import { takeSegments } from '../../src/model/export/exportSegmentsFile';
import { InvalidExportFileError } from '../../src/model/export/invalidExportFileError';
import { Catalog } from '../../src/model/store/catalog';
import { cutsNote } from '../../src/model/store/offlineNotes';

const bytes = (value: unknown) => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));
const slices = () => new TimeSlices();

/** An export of one flag per `[name, project]`. */
function exportOf(rows: Array<[string, string]>, extra: Record<string, unknown> = {}) {
  return { features: rows.map(([name, project]) => ({ name, project })), featureStrategies: [], tagTypes: [], ...extra };
}

describe('the intake of an export file', () => {
  it('keeps a file within the budget as it is, with no cut', async () => {
    const file = exportOf([['a', 'default'], ['b', 'web']], { featureEnvironments: [{ name: 'a', featureName: 'a', environment: 'production', enabled: true }] });
    const taken = await takeExport(bytes(file), slices());
    assert.deepEqual(taken, { result: file, cuts: [], cutCount: 0 });
    assert.equal(cutsNote([{ path: '.unleash/production.json', ...taken }]), undefined);
  });

  it('cuts the flags past the budget before checking them: a bad row past it is never read', async () => {
    const rows = Array.from({ length: INTAKE_BUDGET.flags + 2 }, (_, i) => `{"name":"f${i}","project":"default"}`);
    rows[INTAKE_BUDGET.flags + 1] = '{"project":"default"}';
    const taken = await takeExport(bytes(`{"features":[${rows.join(',')}],"featureStrategies":[],"tagTypes":[]}`), slices());
    assert.equal(taken.result.features.length, INTAKE_BUDGET.flags);
    assert.deepEqual(taken.cuts, [{ at: 'features', kind: 'entries', kept: 100_000, total: 100_002 }]);
    assert.equal(
      cutsNote([{ path: '.unleash/production.json', ...taken }]),
      'Showing part of .unleash/production.json: the first 100,000 of 100,002 flags. The extension reads at most 100,000 flags, 1,000 projects per flag name and 300,000 entries per list of the export files.',
    );
  });

  it('keeps a name in its first 1,000 projects, and says which name', async () => {
    const rows: Array<[string, string]> = Array.from({ length: 1_500 }, (_, i) => ['same', `p${i}`]);
    const taken = await takeExport(bytes(exportOf([['other', 'default'], ...rows])), slices());
    assert.equal(taken.result.features.length, 1_001);
    assert.deepEqual(taken.result.features.at(-1), { name: 'same', project: 'p999' });
    assert.equal(
      cutsNote([{ path: '.unleash/production.json', ...taken }]),
      'Showing part of .unleash/production.json: "same" in 1,000 of its 1,500 projects. The extension reads at most 100,000 flags, 1,000 projects per flag name and 300,000 entries per list of the export files.',
    );
  });

  it('cuts a text past its length and a nested list past its entries, naming where', async () => {
    const values = Array.from({ length: INTAKE_BUDGET.rowsPerList + 1 }, (_, i) => `u${i}`);
    const file = exportOf([['a', 'default']], {
      featureStrategies: [{ featureName: 'a', name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values }] }],
    });
    (file.features[0] as Record<string, unknown>).description = 'x'.repeat(INTAKE_BUDGET.textChars + 5);
    const taken = await takeExport(bytes(file), slices());
    assert.equal((taken.result.features[0]?.description ?? '').length, INTAKE_BUDGET.textChars);
    assert.equal(taken.result.featureStrategies[0]?.constraints?.[0]?.values?.length, INTAKE_BUDGET.rowsPerList);
    assert.deepEqual(taken.cuts.map((cut) => `${cut.kind} ${cut.at} ${cut.kept}/${cut.total}`).sort(), [
      'characters features[0].description 100000/100005',
      'entries featureStrategies[0].constraints[0].values 300000/300001',
    ]);
    assert.match(cutsNote([{ path: 'x.json', ...taken }]) ?? '', /^Showing part of x\.json: the first 300,000 of 300,001 entries of featureStrategies\[0\]\.constraints\[0\]\.values, a text of 100,005 characters at features\[0\]\.description cut to 100,000\./);
  });

  it('keeps the first 10,000 entries of an object (the parameters of a strategy), naming where', async () => {
    const parameters = Object.fromEntries(Array.from({ length: INTAKE_BUDGET.entriesPerObject + 3 }, (_, i) => [`p${i}`, 'x']));
    const file = exportOf([['a', 'default']], { featureStrategies: [{ featureName: 'a', name: 'default', parameters }] });
    const taken = await takeExport(bytes(file), slices());
    const kept = Object.keys(taken.result.featureStrategies[0]?.parameters ?? {});
    assert.deepEqual([kept.length, kept.at(-1)], [10_000, 'p9999']);
    assert.match(cutsNote([{ path: 'x.json', ...taken }]) ?? '', /^Showing part of x\.json: the first 10,000 of 10,003 entries of featureStrategies\[0\]\.parameters\./);
  });

  it('still names the first bad field of a file within the budget', async () => {
    await assert.rejects(takeExport(bytes(exportOf([['a', 'default']], { featureStrategies: [{ featureName: 'a' }] })), slices()), (error: unknown) => {
      assert.ok(error instanceof InvalidExportFileError);
      assert.equal(error.fieldPath, 'featureStrategies[0].name');
      return true;
    });
  });

  it('cuts a segments file to its budget too', async () => {
    const taken = await takeSegments(bytes({ segmentDefinitions: [{ id: 1, name: 'beta', description: 'd'.repeat(INTAKE_BUDGET.textChars + 1), constraints: [] }] }), slices());
    assert.equal(taken.definitions[0]?.description?.length, INTAKE_BUDGET.textChars);
    assert.equal(taken.cutCount, 1);
  });
});

describe('the drift check of an export file as it enters', () => {
  it('keeps each flag once with its line in the file', async () => {
    const file = exportOf([['alpha', 'default'], ['beta', 'default'], ['alpha', 'default']], {
      featureEnvironments: [{ name: 'alpha', featureName: 'alpha', environment: 'development', enabled: true }],
    });
    const text = serializeExport(file);
    const snapshot = await takeExportSnapshot(bytes(text), 'development.json', slices());
    assert.deepEqual(
      snapshot.flags.map((flag) => `${flag.name} ${flag.enabled} line ${flag.line}: ${text.split('\n')[flag.line ?? -1]?.trim()}`),
      ['alpha true line 3: "name": "alpha",', 'beta false line 11: "name": "beta",'],
    );
    assert.deepEqual([snapshot.environment, snapshot.whole], ['development', true]);
  });

  it('compares a name held by 5,000 projects of a file as its first 1,000, a map lookup per flag', async () => {
    const rows: Array<[string, string]> = Array.from({ length: 5_000 }, (_, i) => ['same', `p${i}`]);
    const snapshot = await takeExportSnapshot(bytes(exportOf(rows)), 'production.json', slices());
    assert.equal(snapshot.flags.length, 1_000);
    assert.deepEqual(snapshot.cuts, [{ at: 'features', kind: 'projects', name: 'same', kept: 1_000, total: 5_000 }]);
    const catalog = new Catalog([{ name: 'same', project: 'p7', environments: [{ name: 'production', enabled: false }] }]);
    const drift = await exportDrift(snapshot, catalog, { failed: new Set() }, slices());
    assert.deepEqual([drift.added.length, drift.removed.length, drift.enabled.length, drift.disabled.length], [0, 999, 0, 0]);
  });
});
