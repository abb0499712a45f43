/**
 * An export of any size, laid out from a file that holds the server's answer as it came (exportToFile.ts streams it
 * there, exportIndex.ts indexes it): element by element, each read back from the answer file, into exactly the bytes
 * `serializeExportBytes` (exportBytes.ts) gives for the same export in memory.
 */
import * as l10n from '@vscode/l10n';
import type { FileHandle } from 'node:fs/promises';
import { TimeSlices } from '../../base/timeSlices';
import { compareKeyLists } from './canonicalJson';
import { BLOCK_BYTES, BlockOut, readFully } from './exportDisk';
import type { ExportIndex, ListMember } from './exportIndex';
import { elementText, FileText, tieText, valueText } from './exportText';
import { sortInSlices } from '../../base/sortInSlices';
import { compare } from '../../base/compare';

/**
 * Reads byte ranges of the answer file, through a window that serves neighbouring elements from one read. What
 * `read` answers is valid until the next call (the window is reused).
 */
class RangeReader {
  private window: Buffer = Buffer.alloc(0);
  private windowStart = 0;
  private readonly buffer = Buffer.allocUnsafe(BLOCK_BYTES);

  constructor(private readonly handle: FileHandle) {}

  async read(start: number, end: number): Promise<Buffer> {
    if (start >= this.windowStart && end <= this.windowStart + this.window.length) {
      return this.window.subarray(start - this.windowStart, end - this.windowStart);
    }
    if (end - start > BLOCK_BYTES) return readFully(this.handle, Buffer.allocUnsafe(end - start), start);
    this.window = await readFully(this.handle, this.buffer, start);
    this.windowStart = start;
    if (this.window.length < end - start) throw new Error(l10n.t('The temporary file of the answer changed while it was read.'));
    return this.window.subarray(0, end - start);
  }
}

/**
 * Writes the canonical layout of the indexed answer (read from `answer`) to `out`; resolves to the bytes written.
 * Yields to the event loop between slices of work.
 */
export async function writeLaidOut(
  index: ExportIndex,
  answer: FileHandle,
  out: FileHandle,
  options: { signal?: AbortSignal; slices?: TimeSlices } = {},
): Promise<number> {
  const slices = options.slices ?? new TimeSlices();
  const reader = new RangeReader(answer);
  const file = new BlockOut(out);
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const parse = async (start: number, end: number): Promise<unknown> => JSON.parse(decoder.decode(await reader.read(start, end)));
  const keys = index.keys();
  if (keys.length === 0) await file.writeText(FileText.empty);
  for (const [position, key] of keys.entries()) {
    await file.writeText(FileText.member(position, key));
    const member = index.memberOf(key);
    if (!member) continue;
    if (member.kind === 'value' || member.starts.length === 0) {
      await file.writeText(valueText(key, member.kind === 'value' ? member.value : []));
      continue;
    }
    const order = await listOrder(key, member, parse, slices);
    for (const [i, element] of order.entries()) {
      if (slices.due()) {
        await slices.next();
        options.signal?.throwIfAborted();
      }
      await file.writeText(FileText.element(i));
      await file.writeText(elementText(key, await parse(member.starts[element] as number, member.ends[element] as number)));
    }
    await file.writeText(FileText.listEnd);
  }
  if (keys.length > 0) await file.writeText(FileText.end);
  await file.flush();
  return file.written;
}

/**
 * The order of a list's elements in the file: a sorted list by its keys, elements whose keys are equal by their
 * laid-out JSON (read back for those only); any other list as it came.
 */
async function listOrder(key: string, member: ListMember, parse: (start: number, end: number) => Promise<unknown>, slices: TimeSlices): Promise<number[]> {
  const order = member.starts.map((_start, i) => i);
  const keys = member.keys;
  if (!keys) return order;
  const byKeys = (a: number, b: number): number => compareKeyLists(keys[a] as readonly unknown[], keys[b] as readonly unknown[]);
  const sorted = await sortInSlices(order, byKeys, slices);
  for (let from = 0; from < sorted.length; ) {
    if (slices.due()) await slices.next();
    let to = from + 1;
    while (to < sorted.length && byKeys(sorted[from] as number, sorted[to] as number) === 0) to++;
    if (to - from > 1) {
      const tied: Array<{ element: number; json: string }> = [];
      for (const element of sorted.slice(from, to)) {
        if (slices.due()) await slices.next();
        tied.push({ element, json: tieText(key, await parse(member.starts[element] as number, member.ends[element] as number)) });
      }
      tied.sort((a, b) => compare(a.json, b.json));
      tied.forEach((entry, i) => (sorted[from + i] = entry.element));
    }
    from = to;
  }
  return sorted;
}

