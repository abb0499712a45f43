/**
 * The jobs on what comes in, in the desktop's worker thread (src/services/workerJobs.ts running src/worker.ts) and on
 * the host's thread in slices (src/model/jobs/inThreadJobs.ts): the same answers, errors that keep their class, a
 * local file read by its path within its listed size, and a job past its time or memory stopped with a sentence that
 * says why, after which the next job runs in a new worker.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { InvalidExportFileError } from '../../src/model/export/invalidExportFileError';
import { InThreadJobs } from '../../src/model/jobs/inThreadJobs';
import { sourceWorkerJobs } from '../support/jobs';

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

describe('jobs on the host thread (no worker)', () => {
  it('take the bytes of a file, never its path', async () => {
    await assert.rejects(new InThreadJobs().run('exportFile', { file: '/etc/passwd', maxBytes: 10 }), /takes the bytes of a file, not its path/);
  });
});
