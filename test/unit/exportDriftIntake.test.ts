/**
 * The drift check reads the workspace's export files through offline mode's budget and the worker thread (issue 39,
 * finding 3): a `.unleash` link that leads out of the workspace is not read, and the files past the budget show in
 * the Export Files view as not compared, with why, while the others are compared.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FeatureSummary } from '../../src/api/schemas';
import { serializeExport } from '../../src/model/export/exportBytes';
import type { FlagSource } from '../../src/model/store/flagSource';
import { FlagStore } from '../../src/model/store/flagStore';
import { installFakeVscode } from '../support/fakeVscode';
import { sourceWorkerJobs } from '../support/jobs';
import { recordingLogger } from '../support/recordingLogger';

installFakeVscode();
let ExportDrift: typeof import('../../src/services/exportDrift').ExportDrift;
before(async () => {
  ExportDrift = (await import('../../src/services/exportDrift')).ExportDrift;
});

const folders: string[] = [];
after(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));
const jobs = sourceWorkerJobs();
after(() => jobs.dispose());

const LISTED: FeatureSummary[] = [{ name: 'alpha', project: 'default', environments: [{ name: 'development', enabled: true }] }];
const server: FlagSource = {
  kind: 'server',
  label: 'unleash.example.com',
  listFeatures: async () => LISTED,
  getFeature: async () => Promise.reject(new Error('not used')),
  getStrategySegments: async () => [],
  listEnvironments: async () => ['development'],
};

function exportFile(): string {
  return serializeExport({
    features: [{ name: 'alpha', project: 'default' }],
    featureStrategies: [],
    featureEnvironments: [{ name: 'alpha', featureName: 'alpha', environment: 'development', enabled: true }],
    tagTypes: [],
  });
}

/** The Export Files view's rows once the check ran on the workspace `folder`: path and what it says; and the log. */
async function checked(folder: string): Promise<{ rows: string[]; log: string[] }> {
  installFakeVscode(folder);
  const { logger, lines } = recordingLogger();
  const store = new FlagStore(logger);
  void store.load();
  await store.setSource(server, 'ready');
  const drift = new ExportDrift(store, logger, jobs);
  try {
    await drift.check();
    return { rows: drift.reports.map((report) => `${report.path}: ${report.problem ?? (report.drift ? 'compared' : '')}`), log: lines };
  } finally {
    drift.dispose();
    store.dispose();
  }
}

function workspace(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'unleash-drift-'));
  folders.push(folder);
  return folder;
}

describe('the drift check reads export files as offline mode does', () => {
  it('does not follow a .unleash link out of the workspace', async () => {
    const outside = workspace();
    mkdirSync(path.join(outside, 'exports'));
    writeFileSync(path.join(outside, 'exports', 'development.json'), exportFile());
    const folder = workspace();
    symlinkSync(path.join(outside, 'exports'), path.join(folder, '.unleash'));
    const { rows, log } = await checked(folder);
    assert.deepEqual(rows, []);
    assert.ok(log.includes('Not read: .unleash is a symbolic link, which a cloned repository could point anywhere. Move the export files into a real .unleash folder of the workspace.'), log.join('\n'));
  });

  it('compares the first 32 files and shows the others as not compared, with why', async () => {
    const folder = workspace();
    mkdirSync(path.join(folder, '.unleash'));
    for (let i = 0; i < 33; i++) writeFileSync(path.join(folder, '.unleash', `development-${String(i).padStart(2, '0')}.json`), exportFile());
    const { rows } = await checked(folder);
    assert.equal(rows.length, 33);
    assert.deepEqual(rows.slice(30), [
      '.unleash/development-30.json: compared',
      '.unleash/development-31.json: compared',
      '.unleash/development-32.json: not compared: only the first 32 export files are read',
    ]);
  });
});
