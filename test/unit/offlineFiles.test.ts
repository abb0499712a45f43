/**
 * The export files the offline mode reads: one budget for all of them (how many, how large each, how large together)
 * decided from the listing and the sizes alone, what the view says about the files left out, and a file that fails
 * shown as failing while the others are read.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { ExportBudget, ExportFolder, ListedFile } from '../../src/model/store/offlineFiles';
import { skippedNote } from '../../src/model/store/offlineNotes';
import { offlineReader } from '../support/jobs';

const FIXTURE = readFileSync(path.join(__dirname, '..', 'fixtures', 'export-development.json'));
const MB = 1024 * 1024;

/** A folder of files in memory: contents, or a size for files that must never be read. */
function folder(files: Record<string, Uint8Array | { size: number }>): ExportFolder & { reads: string[]; stats: string[] } {
  const reads: string[] = [];
  const stats: string[] = [];
  const entry = (file: ListedFile) => files[file.path] as Uint8Array | { size: number };
  return {
    reads,
    stats,
    list: async () => Object.keys(files).map((name) => ({ path: name, key: `file:///ws/${name}` })),
    stat: async (file) => {
      stats.push(file.path);
      const content = entry(file);
      return { size: content instanceof Uint8Array ? content.length : content.size, mtime: 1 };
    },
    read: async (file) => {
      reads.push(file.path);
      const content = entry(file);
      if (!(content instanceof Uint8Array)) throw new Error(`${file.path} must not be read`);
      return content;
    },
  };
}

const budget: ExportBudget = { maxFiles: 3, maxFileBytes: 10 * MB, maxTotalBytes: 16 * MB };

describe('ExportFileReader (the offline budget)', () => {
  it('reads the files within the budget and leaves out, unread, one larger than a file may be', async () => {
    const files = folder({ '.unleash/development.json': FIXTURE, '.unleash/huge.json': { size: 11 * MB }, '.unleash/production.json': FIXTURE });
    const read = await offlineReader(budget).read(files);
    assert.deepEqual(read.files.map((file) => file.path), ['.unleash/development.json', '.unleash/production.json']);
    assert.deepEqual(files.reads, ['.unleash/development.json', '.unleash/production.json']);
    assert.equal(
      skippedNote(read.skipped, budget),
      'Not read: .unleash/huge.json (larger than 10 MB). At most 3 files, 16 MB together, are read: move the others out of .unleash/.',
    );
  });

  it('counts every file’s size against one total: a file past it is left out unread, a smaller one after it is read', async () => {
    const files = folder({
      '.unleash/a.json': { size: 9 * MB },
      '.unleash/b.json': { size: 8 * MB },
      '.unleash/c.json': FIXTURE,
    });
    // a.json is within the budget, so it is read (and is not an export); b.json would pass 16 MB together.
    const read = await offlineReader(budget).read(files);
    assert.deepEqual(files.reads, ['.unleash/a.json', '.unleash/c.json']);
    assert.deepEqual(read.files.map((file) => file.path), ['.unleash/c.json']);
    assert.deepEqual(read.skipped.map((file) => [file.path, file.why]), [['.unleash/a.json', 'failed'], ['.unleash/b.json', 'overBudget']]);
    assert.equal(
      skippedNote(read.skipped, budget),
      'Not read: .unleash/a.json (.unleash/a.json must not be read); .unleash/b.json (past 16 MB for all files together). At most 3 files, 16 MB together, are read: move the others out of .unleash/. Export the environment again, or remove the file.',
    );
  });

  it('reads the first files by path up to the count, and does not even look at the others', async () => {
    const names = Array.from({ length: 1_000 }, (_, i) => `.unleash/env-${String(i).padStart(4, '0')}.json`);
    const files = folder(Object.fromEntries(names.reverse().map((name) => [name, FIXTURE])));
    const read = await offlineReader(budget).read(files);
    assert.deepEqual(read.files.map((file) => file.path), ['.unleash/env-0000.json', '.unleash/env-0001.json', '.unleash/env-0002.json']);
    assert.deepEqual(files.stats, ['.unleash/env-0000.json', '.unleash/env-0001.json', '.unleash/env-0002.json']);
    assert.equal(skippedNote(read.skipped, budget), 'Not read: 997 files after the first 3. At most 3 files, 16 MB together, are read: move the others out of .unleash/.');
  });

  it('shows a file that is not an export as failing with its reason; the others are read', async () => {
    const invalid = new TextEncoder().encode('{"features": [');
    const notExport = new TextEncoder().encode('{"features": [{"project": "default"}], "featureStrategies": [], "tagTypes": []}');
    const files = folder({ '.unleash/broken.json': invalid, '.unleash/development.json': FIXTURE, '.unleash/old.json': notExport });
    const read = await offlineReader(budget).read(files);
    assert.deepEqual(read.files.map((file) => file.path), ['.unleash/development.json']);
    assert.equal(
      skippedNote(read.skipped, budget),
      'Not read: .unleash/broken.json (The export file is not valid JSON: Unexpected end of JSON input), .unleash/old.json (The export file is not a valid Unleash export: "features[0].name": Invalid inpu…). Export the environment again, or remove the file.',
    );
  });

  it('reads a file again only when its size or time changed, and once for readings that overlap', async () => {
    const files = folder({ '.unleash/development.json': FIXTURE, '.unleash/broken.json': new TextEncoder().encode('{') });
    const reader = offlineReader(budget);
    const [first, second] = await Promise.all([reader.read(files), reader.read(files)]);
    await reader.read(files);
    assert.deepEqual(files.reads.sort(), ['.unleash/broken.json', '.unleash/development.json']);
    assert.equal(first.files[0]?.value, second.files[0]?.value, 'one parse, shared');
    assert.deepEqual(second.skipped.map((file) => file.path), ['.unleash/broken.json'], 'a failing file is remembered as failing');
  });

  it('refuses a file that grew past its listed size while it was read', async () => {
    const files = folder({ '.unleash/development.json': FIXTURE });
    const grown: ExportFolder = { ...files, stat: async () => ({ size: 10, mtime: 1 }) };
    const read = await offlineReader(budget).read(grown);
    assert.deepEqual(read.skipped, [{ path: '.unleash/development.json', key: 'file:///ws/.unleash/development.json', why: 'failed', reason: 'The file grew while it was read. Refresh once it is written.' }]);
  });
});
