/**
 * Export Environment against the real server: `exportToFile()` as it ships against the same export request streamed
 * to a file; while the answer fits what the client holds whole, each of our steps alone and the bare request parsed
 * (as is, and asked for gzip as our client asks a remote server); and the peak memory one export adds.
 */
import { createWriteStream } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { gunzipSync } from 'node:zlib';
import type { Pool } from 'undici';
import { gc, round, stats, type Stats } from '../measure';
import type { Subject } from '../subject-build';
import { bareExport } from './bare';
import type { Client } from './listing';

const RESULTS = path.resolve(__dirname, '..', 'results');

export interface ExportFigures {
  ours: Stats;
  bareToFile: Stats;
  ratio: number;
  bytesOnWire: number;
  bytesWritten: number;
  /** Highest heap + ArrayBuffer use seen during one exportToFile, above the settled heap before it (sampled every 2 ms). */
  peakExtraBytes: number;
  /**
   * The in-memory path's steps (the client's `exportFeatures()`, the layout, the write), measured while the answer
   * fits the client's 64 MiB for an answer held whole; undefined past it (exportToFile streams instead).
   */
  steps?: {
    requestParseValidate: Stats;
    serialize: Stats;
    atomicWrite: Stats;
    bareRequestJsonParse: Stats;
    /** The bare request asking for gzip (as our client does: `accept-encoding: gzip, br`), gunzip, JSON.parse. */
    bareGzipRequestJsonParse: Stats;
  };
}

/** The client's budget for an answer it holds whole (src/api/http.ts `maxResponseBytes`). */
const WHOLE_ANSWER_BYTES = 64 * 1024 * 1024;

export async function benchExport(S: Subject, client: Client, url: string, token: string, pool: Pool, flags: number, reps: number): Promise<ExportFigures> {
  const folder = await fsp.mkdtemp(path.join(RESULTS, '.real-export-'));
  const ours = path.join(folder, '.unleash', 'development.json');
  const bareFile = path.join(folder, 'bare', 'development.json');
  await fsp.mkdir(path.dirname(bareFile), { recursive: true });
  const bareRequest = (encoding?: string) => bareExport(url, token, pool, encoding);
  const bare = async () => pipeline((await bareRequest()).body, createWriteStream(bareFile));
  const run = () => S.exportToFile({ client, environment: 'development', scope: { kind: 'all' }, folder });
  const timed = async (fn: () => Promise<unknown>, prepare?: () => Promise<void>): Promise<number> => {
    await prepare?.();
    gc();
    const started = performance.now();
    await fn();
    return performance.now() - started;
  };
  try {
    const first = await run();
    if (first.flags !== flags) throw new Error(`export: ${first.flags} flags, expected ${flags}`);
    await bare();
    const bytesOnWire = (await fsp.stat(bareFile)).size;
    const samples = { ours: [] as number[], bare: [] as number[], request: [] as number[], serialize: [] as number[], write: [] as number[], bareParse: [] as number[], bareGzip: [] as number[] };
    const rmOurs = () => fsp.rm(ours, { force: true });
    const inMemory = bytesOnWire <= WHOLE_ANSWER_BYTES;
    const result = inMemory ? await client.exportFeatures({ environment: 'development', scope: { kind: 'all' } }) : undefined;
    const data = result && S.serializeExportBytes(result);
    for (let i = 0; i < reps; i++) {
      const pairOrder = i % 2 === 0 ? ['ours', 'bare'] : ['bare', 'ours'];
      for (const which of pairOrder) {
        if (which === 'ours') samples.ours.push(await timed(run, rmOurs));
        else samples.bare.push(await timed(bare, () => fsp.rm(bareFile, { force: true })));
      }
      if (!result || !data) continue;
      samples.request.push(await timed(() => client.exportFeatures({ environment: 'development', scope: { kind: 'all' } })));
      samples.serialize.push(await timed(async () => S.serializeExportBytes(result)));
      samples.write.push(await timed(() => S.writeFileAtomic(ours, data), rmOurs));
      samples.bareParse.push(await timed(async () => JSON.parse(await (await bareRequest()).body.text()) as unknown));
      samples.bareGzip.push(
        await timed(async () => {
          const response = await bareRequest('gzip');
          const raw = Buffer.from(await response.body.arrayBuffer());
          const text = response.headers['content-encoding'] === 'gzip' ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
          return JSON.parse(text) as unknown;
        }),
      );
    }
    const peakExtraBytes = await peakDuring(async () => {
      await rmOurs();
      await run();
    });
    const oursStats = stats(samples.ours);
    const bareStats = stats(samples.bare);
    return {
      ours: oursStats,
      bareToFile: bareStats,
      ratio: round(oursStats.median / bareStats.median, 3),
      bytesOnWire,
      bytesWritten: first.bytes,
      peakExtraBytes,
      ...(inMemory
        ? { steps: { requestParseValidate: stats(samples.request), serialize: stats(samples.serialize), atomicWrite: stats(samples.write), bareRequestJsonParse: stats(samples.bareParse), bareGzipRequestJsonParse: stats(samples.bareGzip) } }
        : {}),
    };
  } finally {
    await fsp.rm(folder, { recursive: true, force: true });
  }
}

/** The highest heapUsed + arrayBuffers seen while `fn` runs, above what was in use before it. Sampled: a lower bound. */
export async function peakDuring(fn: () => Promise<void>): Promise<number> {
  gc();
  gc();
  const use = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const before = use();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, use())), 2);
  try {
    await fn();
    peak = Math.max(peak, use());
  } finally {
    clearInterval(timer);
  }
  return peak - before;
}
