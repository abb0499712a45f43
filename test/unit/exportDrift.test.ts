/**
 * Drift between an export file and the server from the catalog alone (src/model/export/exportDrift.ts): flags added, removed or
 * archived, enabled and disabled since the file was written, the projects the listing cannot speak for left out,
 * the words of the row, tooltip and diagnostics, and where each flag's entry is in the file.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeatureSummary } from '../../src/api/schemas';
import type { ExportResult } from '../../src/api/exportSchemas';
import { Catalog } from '../../src/model/store/catalog';
import { driftDescription, driftFlagMessage, driftMessage, driftSummary, driftTooltip } from '../../src/model/export/driftText';
import { exportDrift as driftOf, exportSnapshot, setFlagLines, type ExportedFlag } from '../../src/model/export/exportDrift';
import { TimeSlices } from '../../src/base/timeSlices';
import { serializeExport } from '../../src/model/export/exportBytes';

function exported(flags: Array<[string, boolean, string?]>): ExportResult {
  return {
    features: flags.map(([name, , project]) => ({ name, project: project ?? 'default' })),
    featureStrategies: [],
    featureEnvironments: flags.map(([name, enabled]) => ({ name, featureName: name, environment: 'development', enabled })),
    tagTypes: [],
  };
}

function listed(name: string, enabled: boolean, project = 'default'): FeatureSummary {
  return { name, project, environments: [{ name: 'development', enabled }, { name: 'production', enabled: !enabled }] };
}

const none = { failed: new Set<string>() };

/** The drift of a file against a catalog, as the check computes it (in slices). */
const exportDrift = (...args: [Parameters<typeof driftOf>[0], Parameters<typeof driftOf>[1], Parameters<typeof driftOf>[2]]) => driftOf(...args, new TimeSlices());

describe('exportDrift', () => {
  const file = exported([['alpha', true], ['beta', false], ['gone', true], ['pay', true, 'checkout']]);
  const catalog = new Catalog([listed('alpha', true), listed('beta', true), listed('new-one', false), listed('pay', false, 'checkout')]);

  it('a whole export: added, removed or archived, enabled and disabled', async () => {
    const drift = await exportDrift(exportSnapshot(file, 'development.json'), catalog, none);
    assert.deepEqual(drift, {
      added: [{ project: 'default', name: 'new-one' }],
      removed: [{ project: 'default', name: 'gone', enabled: true, archived: false }],
      enabled: [{ project: 'default', name: 'beta', enabled: false, archived: false }],
      disabled: [{ project: 'checkout', name: 'pay', enabled: true, archived: false }],
    });
  });

  it('a part of an environment cannot say which flags it lacks: nothing is added', async () => {
    assert.deepEqual((await exportDrift(exportSnapshot(file, 'some-flags.json'), catalog, none)).added, []);
  });

  it('the same file and catalog: no drift; flags of projects the listing does not cover are left out', async () => {
    const same = new Catalog([listed('alpha', true), listed('beta', false), listed('gone', true), listed('pay', true, 'checkout')]);
    const clean = await exportDrift(exportSnapshot(file, 'development.json'), same, none);
    assert.equal(driftDescription(clean), 'matches the server');
    const onlyDefault = await exportDrift(exportSnapshot(file, 'development.json'), new Catalog([listed('alpha', true), listed('beta', false), listed('gone', true)]), {
      projects: new Set(['default']),
      failed: new Set(),
    });
    assert.equal(driftDescription(onlyDefault), 'matches the server');
    const failed = await exportDrift(exportSnapshot(file, 'development.json'), new Catalog([listed('alpha', true), listed('beta', false), listed('gone', true)]), {
      failed: new Set(['checkout']),
    });
    assert.equal(driftDescription(failed), 'matches the server');
  });

  it('an archived flag the file names as archived is no change', async () => {
    const withArchived: ExportResult = { ...exported([['alpha', true]]), features: [{ name: 'alpha', project: 'default', archived: true }] };
    assert.equal(driftDescription(await exportDrift(exportSnapshot(withArchived, 'some-flags.json'), new Catalog([]), none)), 'matches the server');
  });

  it('in words: the row, the status summary, the tooltip and the diagnostics; names from the server are escaped', async () => {
    const drift = await exportDrift(exportSnapshot(file, 'development.json'), catalog, none);
    assert.equal(driftDescription(drift), '4 changes on the server');
    assert.equal(driftSummary(drift, 'development'), '1 flag added, 1 flag removed or archived, 1 flag enabled in development, 1 flag disabled in development');
    assert.equal(
      driftMessage('unleash.example.com', drift, 'development'),
      'This export is out of date with unleash.example.com: 1 flag added (new-one); 1 flag removed or archived (gone); 1 flag enabled in development (beta); ' +
        '1 flag disabled in development (pay (project checkout)). Run "Unleash: Compare Export with Server…" to see every difference, or "Unleash: Update Export" to write it again.',
    );
    assert.equal(driftFlagMessage('enabled', drift.enabled[0]!, 'unleash.example.com', 'development'), 'beta is enabled in development on unleash.example.com; this export says disabled.');
    const hostile = await exportDrift(exportSnapshot(exported([]), 'development.json'), new Catalog([listed('[x](command:evil)', true)]), none);
    assert.equal(
      driftTooltip('.unleash/development.json', 'host', hostile, 'development'),
      '**\\.unleash\\/development\\.json**\n\nChanged on host since this file was written:\n\n- 1 flag added: \\[x\\]\\(command\\:evil\\)\n\n' +
        '_Compare Export with Server…_ shows every difference; _Update Export_ writes the file again.',
    );
  });

  it('finds the line of each flag in a file laid out as Export Environment writes it', async () => {
    const text = serializeExport(exported([['alpha', true], ['beta', false]]));
    const lines = text.split('\n');
    const flags: ExportedFlag[] = [{ project: 'default', name: 'beta', enabled: true, archived: false }, { project: 'default', name: 'alpha', enabled: true, archived: false }, { project: 'default', name: 'missing', enabled: true, archived: false }];
    await setFlagLines(text, flags, new TimeSlices());
    assert.equal(flags[2]!.line, undefined);
    assert.match(lines[flags[1]!.line!]!, /"name": "alpha"/);
    assert.match(lines[flags[0]!.line!]!, /"name": "beta"/);
  });
});
