/**
 * An export's file content from an export in memory: exactly what JSON.stringify of the canonical layout gives, with
 * two-space indentation, `\n` line ends and a final newline. The same environment exported twice gives the same bytes,
 * whatever order the server used.
 */
import type { ExportResult } from '../../api/exportSchemas';
import { compareKeyLists, type JsonObject } from './canonicalJson';
import { BLOCK_BYTES } from './exportDisk';
import { canonicalExport, isSortedList, memberOrder, sortKeysOf } from './exportLayout';
import { elementText, FileText, tieText, valueText } from './exportText';
import { compare } from '../../base/compare';

/** The file content for an export, as a string (the reference that `serializeExportBytes` matches byte for byte). */
export function serializeExport(result: ExportResult | Record<string, unknown>): string {
  return `${JSON.stringify(canonicalExport(result), null, 2)}\n`;
}

/** Text encoded straight into large blocks (no whole-file string, no second copy of it). */
class BlockWriter {
  private readonly blocks: Buffer[] = [];
  private block = Buffer.allocUnsafe(BLOCK_BYTES);
  private used = 0;

  write(text: string): void {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    if (text.length * 3 > this.block.length - this.used) {
      this.seal();
      if (text.length * 3 > BLOCK_BYTES) {
        this.blocks.push(Buffer.from(text, 'utf8'));
        return;
      }
    }
    this.used += this.block.write(text, this.used, 'utf8');
  }

  private seal(): void {
    if (this.used > 0) this.blocks.push(this.block.subarray(0, this.used));
    this.block = Buffer.allocUnsafe(BLOCK_BYTES);
    this.used = 0;
  }

  bytes(): Buffer {
    this.seal();
    return Buffer.concat(this.blocks);
  }
}

/**
 * The elements of a top-level list in the order `listSortedBy` gives, without laying them all out first: the sort
 * keys are read from each element as it is (they are leaf members the layout copies unchanged, and a missing or
 * undefined one reads as undefined either way), the laid-out JSON only for a tie. A list already in order (the
 * server sends features, environments and tags by name) is checked in one pass and not sorted.
 */
function inListOrder(items: readonly unknown[], key: string): unknown[] {
  const entries = items.map((item) => ({ item, keys: sortKeysOf(key, item), json: undefined as string | undefined }));
  const jsonOf = (entry: (typeof entries)[number]): string => (entry.json ??= tieText(key, entry.item));
  const byKeys = (a: (typeof entries)[number], b: (typeof entries)[number]): number =>
    compareKeyLists(a.keys, b.keys) || compare(jsonOf(a), jsonOf(b));
  let sorted = true;
  for (let i = 1; i < entries.length && sorted; i++) sorted = byKeys(entries[i - 1]!, entries[i]!) <= 0;
  if (!sorted) entries.sort(byKeys);
  return entries.map((entry) => entry.item);
}

/**
 * The file content for an export as bytes: exactly `serializeExport(result)` in UTF-8, written a top-level element
 * at a time (each laid out, stringified and encoded, then dropped) instead of laying out the whole export, making
 * one string of it and copying that into a Buffer.
 */
export function serializeExportBytes(result: ExportResult | Record<string, unknown>): Buffer {
  const source = result as JsonObject;
  const kept = (value: unknown): boolean => value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
  const keys = memberOrder(Object.keys(source).filter((key) => kept(source[key])));
  if (keys.length === 0) return Buffer.from(FileText.empty, 'utf8');

  const out = new BlockWriter();
  keys.forEach((key, index) => {
    out.write(FileText.member(index, key));
    const value = source[key];
    if (!isSortedList(key) || !Array.isArray(value) || value.length === 0) {
      out.write(valueText(key, value));
      return;
    }
    inListOrder(value, key).forEach((item, i) => {
      out.write(FileText.element(i));
      out.write(elementText(key, item));
    });
    out.write(FileText.listEnd);
  });
  out.write(FileText.end);
  return out.bytes();
}
