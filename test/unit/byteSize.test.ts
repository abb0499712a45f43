/**
 * The one byte size formatter (src/base/byteSize.ts), as the client's and the export's messages show it: binary
 * units, one decimal, the number written the way the editor's language writes it.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { formatByteSize } from '../../src/base/byteSize';
import { formatSize } from '../../src/model/export/exportBudget';
import { setLocale } from '../../src/model/text/intl';

const SIZES = [0, 1023, 1024, 12_698, 65_536, 3 * 1024 * 1024 + 200_000, 1500 * 1024 * 1024];

describe('formatByteSize', () => {
  afterEach(() => setLocale(undefined));

  it('writes B, KB and MB with one decimal, in English by default', () => {
    assert.deepEqual(SIZES.map((size) => formatByteSize(size)), ['0 B', '1023 B', '1.0 KB', '12.4 KB', '64.0 KB', '3.2 MB', '1500.0 MB']);
  });

  it('writes the number as the locale does', () => {
    assert.deepEqual(SIZES.map((size) => formatByteSize(size, 'de')), ['0 B', '1023 B', '1,0 KB', '12,4 KB', '64,0 KB', '3,2 MB', '1500,0 MB']);
  });

  it('is what an export message shows, in the editor\'s language', () => {
    assert.equal(formatSize(12_698), '12.4 KB');
    setLocale('de');
    assert.equal(formatSize(12_698), '12,4 KB');
  });
});
