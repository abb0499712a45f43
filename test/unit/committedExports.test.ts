/** What the browser build's Flags view says above the tree: the committed exports, and their file date. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { committedExportsNote } from '../../src/model/content/committedExports';

describe('committedExportsNote', () => {
  const now = new Date('2026-11-26T12:00:00Z');

  it('names the committed exports and dates the newest, in UTC and as an age', () => {
    assert.equal(
      committedExportsNote(Date.parse('2026-11-23T10:31:59Z'), now),
      'These are the flags of the export files committed to the workspace (.unleash/*.json); the newest file is dated 2026-11-23 10:31 UTC (3 days ago). Export again in desktop VS Code to update them.',
    );
  });

  it('says so when the file system gives no date (0)', () => {
    assert.equal(
      committedExportsNote(0, now),
      'These are the flags of the export files committed to the workspace (.unleash/*.json); the file system does not say when they changed. Export again in desktop VS Code to update them.',
    );
  });
});
