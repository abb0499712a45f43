/**
 * The jobs on what comes in, in the desktop's worker thread (src/services/nodeWorker.ts running src/worker.ts) and on
 * the host's thread in slices (src/model/jobs/inThreadJobs.ts): the same answers, errors that keep their class, a
 * local file read by its path within its listed size, and a job past its time or memory stopped with a sentence that
 * says why, after which the next job runs in a new worker.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { INTAKE_BUDGET } from '../../src/base/intakeBudget';
import { InvalidExportFileError } from '../../src/model/export/invalidExportFileError';
import { InThreadJobs } from '../../src/model/jobs/inThreadJobs';
import { sourceWorkerJobs } from '../support/jobs';
import { UnleashClient } from '../../src/api/client';
import { startFaultServer, type FaultServer } from '../support/faultServer';

const folder = mkdtempSync(path.join(tmpdir(), 'unleash-jobs-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const EXPORT = { features: [{ name: 'a', project: 'default' }], featureStrategies: [], tagTypes: [] };
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe('jobs in the worker thread', () => {
  const jobs = sourceWorkerJobs();
  after(() => jobs.dispose());

  it('answers what the host thread answers, and keeps the error class and its field', async () => {
    assert.deepEqual(await jobs.run('exportFile', { bytes: encode(EXPORT) }), await new InThreadJobs().run('exportFile', { bytes: encode(EXPORT) }));
    await assert.rejects(jobs.run('exportFile', { bytes: encode({ ...EXPORT, featureStrategies: [{}] }) }), (error: unknown) => {
      assert.ok(error instanceof InvalidExportFileError, String(error));
      assert.equal(error.fieldPath, 'featureStrategies[0].name');
      return true;
    });
  });

  it('reads a local file by its path, and refuses it when it grew past its listed size or is a link', async () => {
    const file = path.join(folder, 'production.json');
    writeFileSync(file, JSON.stringify(EXPORT));
    const size = JSON.stringify(EXPORT).length;
    assert.deepEqual((await jobs.run('exportFile', { file, maxBytes: size })).result, EXPORT);
    await assert.rejects(jobs.run('exportFile', { file, maxBytes: size - 1 }), /^Error: The file grew while it was read\. Refresh once it is written\.$/);
  });

  it('stops a job past its time, says so, and runs the next job in a new worker', async () => {
    const slow = sourceWorkerJobs({ ms: 1, megabytes: 512 });
    try {
      await assert.rejects(slow.run('exportFile', { bytes: encode(EXPORT) }), /^JobFailedError: Reading it took longer than 0 s, the most the extension gives one file\.$/);
    } finally {
      slow.dispose();
    }
    assert.deepEqual((await jobs.run('exportFile', { bytes: encode(EXPORT) })).cutCount, 0);
  });

  it('stops a worker past its memory with a sentence that says so; the next job gets a new worker', async () => {
    const small = sourceWorkerJobs({ ms: 60_000, megabytes: 16 });
    const rows = Array.from({ length: 400_000 }, (_, i) => ({ name: `flag-${i}`, project: `project-${i}`, description: `a flag numbered ${i}` }));
    try {
      await assert.rejects(small.run('exportFile', { bytes: encode({ ...EXPORT, features: rows }) }), /^JobFailedError: Reading it needed more than 16 MB of memory, the most the extension gives one file\.$/);
      assert.deepEqual((await small.run('exportFile', { bytes: encode(EXPORT) })).result, EXPORT);
    } finally {
      small.dispose();
    }
  });
});

describe("a server's large answer, parsed and checked in the worker", () => {
  const jobs = sourceWorkerJobs();
  after(() => jobs.dispose());
  const servers: FaultServer[] = [];
  const rows = Array.from({ length: 5_000 }, (_, i) => ({ name: `flag-${String(i).padStart(4, '0')}`, project: 'default', type: 'release', environments: [] }));
  after(() => Promise.all(servers.map((server) => server.close())));

  /** A client of a server answering `routes`, large answers parsed by the worker's `answer` job, as serverEvaluation.ts builds it. */
  async function client(answers: Record<string, unknown>): Promise<UnleashClient> {
    const server = await startFaultServer({ handler: (request) => ({ body: (answers[request.path] ?? { features: [], total: 0 }) as object }) });
    servers.push(server);
    return new UnleashClient({
      baseUrl: server.url,
      getToken: () => '*:*.token0123456789',
      parseLarge: (bytes, schema) => jobs.run('answer', { bytes, ...(schema ? { schema } : {}) }),
    });
  }

  // Past the size parsed in the worker (256 KB), within every budget (each text well under its length).
  const padding = Array.from({ length: 40_000 }, (_, i) => `padding-${i}`);
  const flag = { name: 'flag-0000', project: 'default', description: 'A flag', padding };

  it('lists and reads what the host thread would', async () => {
    const api = await client({
      '/api/admin/ui-config': { version: '7.5.1', environment: 'Open Source' },
      '/api/admin/projects/default/features': { version: 2, features: rows },
      '/api/admin/projects/default/features/flag-0000': flag,
    });
    try {
      assert.deepEqual((await api.listFeatures()).map((row) => row.name), rows.map((row) => row.name));
      assert.deepEqual(await api.getFeature('default', 'flag-0000'), flag);
    } finally {
      await api.close();
    }
  });

  it('cuts what is past the budget in an answer small enough for the host thread, as every answer is cut', async () => {
    const extra = {
      values: Array.from({ length: INTAKE_BUDGET.rowsPerList + 1 }, (_, i) => i % 10),
      counts: Object.fromEntries(Array.from({ length: INTAKE_BUDGET.entriesPerObject + 1 }, (_, i) => [`v${i}`, i])),
    };
    const api = await client({ '/api/admin/projects/default/features/cut': { ...flag, name: 'cut', description: 'd'.repeat(INTAKE_BUDGET.textChars + 1), extra } });
    try {
      const feature = (await api.getFeature('default', 'cut')) as unknown as { description: string; extra: { values: unknown[]; counts: object } };
      assert.equal(feature.description.length, INTAKE_BUDGET.textChars);
      assert.equal(feature.extra.values.length, INTAKE_BUDGET.rowsPerList);
      assert.equal(Object.keys(feature.extra.counts).length, INTAKE_BUDGET.entriesPerObject);
    } finally {
      await api.close();
    }
  });

  it('names the first field that does not match, and refuses nesting past the intake depth', async () => {
    const deep = JSON.parse(`${'['.repeat(100)}${']'.repeat(100)}`) as unknown;
    const api = await client({
      '/api/admin/projects/default/features/bad': { ...flag, name: 5 },
      '/api/admin/projects/default/features/deep': { ...flag, description: deep },
    });
    try {
      await assert.rejects(api.getFeature('default', 'bad'), /field `name` expected string, received number/);
      await assert.rejects(api.getFeature('default', 'deep'), /nests lists and objects more than 64 levels deep/);
    } finally {
      await api.close();
    }
  });
});

describe('jobs on the host thread (no worker)', () => {
  it('take the bytes of a file, never its path', async () => {
    await assert.rejects(new InThreadJobs().run('exportFile', { file: '/etc/passwd', maxBytes: 10 }), /takes the bytes of a file, not its path/);
  });
});
