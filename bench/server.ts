/**
 * The benchmark's fixture server: a plain node:http server on 127.0.0.1 answering the two endpoints the benchmark
 * reads, for a generated data set (./data.ts), the way a real Unleash 7.5.1 does:
 *
 *   GET  /api/admin/search/features?limit=&offset=   → {features, total}; limit clamped to 1..100, offset honoured
 *   POST /api/admin/features-batch/export            → the export body (features: [] means every flag)
 *   GET  /api/admin/segments                         → the data set's segments, one constraint each (for the
 *                                                      export's segment definitions)
 *
 * A request without an Authorization header gets Unleash's 401. Answers are serialized once and then served from
 * memory (with Content-Length and a weak ETag), so the server costs the same for our client and for the baseline.
 * Answers are not compressed (a server without compression): the benchmark measures the client, not zlib.
 *
 * It runs in a child process (so it has its own core, like a real server): `startBenchServers()` forks
 * `bench/server.ts` and talks to it over IPC; `stop()` ends that child by its pid.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { generateDataset, SEGMENTS, type Dataset } from './data';

const MAX_SEARCH_LIMIT = 100;

interface Stats {
  requests: number;
  bytes: number;
}

interface Served {
  url: string;
  close(): Promise<void>;
  stats: Stats;
}

/** Starts one server for one data set, in this process. */
async function serveDataset(dataset: Dataset): Promise<Served> {
  const stats: Stats = { requests: 0, bytes: 0 };
  const pages = new Map<string, Buffer>();
  const exports = new Map<string, Buffer>();
  let segmentList: Buffer | undefined;

  const send = (res: http.ServerResponse, status: number, body: Buffer): void => {
    stats.bytes += body.length;
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(body.length),
      etag: `W/"${body.length.toString(16)}-${createHash('sha1').update(body.subarray(0, 4096)).digest('base64').slice(0, 27)}"`,
    });
    res.end(body);
  };
  const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value), 'utf8');

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      stats.requests++;
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (!req.headers.authorization) {
        return send(res, 401, json({ id: 'bench', name: 'AuthenticationRequired', message: 'You must log in to use Unleash.' }));
      }
      if (req.method === 'GET' && url.pathname === '/api/admin/search/features') {
        const limit = Math.min(MAX_SEARCH_LIMIT, Math.max(1, Number(url.searchParams.get('limit') ?? 50) || 50));
        const offset = Math.max(0, Number(url.searchParams.get('offset') ?? 0) || 0);
        const key = `${limit}:${offset}`;
        let page = pages.get(key);
        if (!page) {
          page = json({ features: dataset.searchItems.slice(offset, offset + limit), total: dataset.searchItems.length });
          pages.set(key, page);
        }
        return send(res, 200, page);
      }
      if (req.method === 'GET' && url.pathname === '/api/admin/segments') {
        // What an export's segment definitions are read from (one request per export that uses segments).
        segmentList ??= json({
          segments: SEGMENTS.map((name, i) => ({
            id: i + 1,
            name,
            description: `The ${name} segment`,
            project: null,
            constraints: [{ contextName: 'userId', operator: 'IN', values: [`${name}-1`, `${name}-2`], inverted: false, caseInsensitive: false }],
          })),
        });
        return send(res, 200, segmentList);
      }
      if (req.method === 'POST' && url.pathname === '/api/admin/features-batch/export') {
        let body: { environment?: unknown; features?: unknown } = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
        } catch {
          return send(res, 400, json({ message: 'Unexpected end of JSON input' }));
        }
        if (typeof body.environment !== 'string' || !Array.isArray(body.features)) {
          return send(res, 400, json({ id: 'bench', name: 'BadDataError', message: 'Request validation failed (the benchmark server takes {environment, features}).' }));
        }
        const names = body.features.filter((n): n is string => typeof n === 'string');
        if (names.length) return send(res, 200, json(dataset.exportNamed(body.environment, names)));
        let all = exports.get(body.environment);
        if (!all) {
          all = json(dataset.exportFor(body.environment));
          exports.set(body.environment, all);
        }
        return send(res, 200, all);
      }
      return send(res, 404, json({ id: 'bench', name: 'NotFoundError', message: `The path you were looking for (${url.pathname}) is not available.` }));
    });
  });
  server.keepAliveTimeout = 60_000;
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

// ---- The child process ------------------------------------------------------------------------------------------

export interface ServerInfo {
  flags: number;
  url: string;
  /** Bytes of all search pages (limit 100) and of the export of `development`. */
  searchBytes: number;
  exportBytes: number;
  generateMs: number;
}

type ToChild = { kind: 'stop' } | { kind: 'stats' };
type FromChild =
  | { kind: 'ready'; servers: ServerInfo[] }
  | { kind: 'stats'; stats: Array<{ flags: number } & Stats> }
  | { kind: 'error'; message: string };

async function child(sizes: number[], seed: number): Promise<void> {
  const send = (message: FromChild): void => void process.send?.(message);
  try {
    const running: Array<{ flags: number; served: Served }> = [];
    const infos: ServerInfo[] = [];
    for (const flags of sizes) {
      const started = performance.now();
      const dataset = generateDataset(flags, seed);
      const generateMs = performance.now() - started;
      const served = await serveDataset(dataset);
      // Serialize everything the benchmark asks for now, so no request pays for it.
      let searchBytes = 0;
      for (let offset = 0; offset < flags; offset += MAX_SEARCH_LIMIT) {
        const page = await fetch(`${served.url}/api/admin/search/features?limit=${MAX_SEARCH_LIMIT}&offset=${offset}`, { headers: { authorization: 'warm-up' } });
        searchBytes += (await page.arrayBuffer()).byteLength;
      }
      const exported = await fetch(`${served.url}/api/admin/features-batch/export`, {
        method: 'POST',
        headers: { authorization: 'warm-up', 'content-type': 'application/json' },
        body: JSON.stringify({ environment: 'development', features: [] }),
      });
      const exportBytes = (await exported.arrayBuffer()).byteLength;
      served.stats.requests = 0;
      served.stats.bytes = 0;
      running.push({ flags, served });
      infos.push({ flags, url: served.url, searchBytes, exportBytes, generateMs });
    }
    process.on('message', (message: ToChild) => {
      if (message.kind === 'stats') send({ kind: 'stats', stats: running.map((r) => ({ flags: r.flags, ...r.served.stats })) });
      if (message.kind === 'stop') {
        void Promise.all(running.map((r) => r.served.close())).then(() => process.exit(0));
      }
    });
    process.on('disconnect', () => process.exit(0));
    send({ kind: 'ready', servers: infos });
  } catch (error) {
    send({ kind: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.exit(1);
  }
}

export interface BenchServers {
  pid: number;
  servers: ServerInfo[];
  byFlags(flags: number): ServerInfo;
  stats(): Promise<Array<{ flags: number } & Stats>>;
  stop(): Promise<void>;
}

/** Forks the server process for data sets of the given sizes; resolves once every page is ready to serve. */
export function startBenchServers(sizes: number[], seed = 1): Promise<BenchServers> {
  const proc: ChildProcess = fork(path.join(__dirname, 'server.ts'), ['--child', sizes.join(','), String(seed)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the benchmark server exited early (code ${code})`));
    proc.once('exit', onExit);
    proc.once('message', (message: FromChild) => {
      if (message.kind === 'error') return reject(new Error(`the benchmark server failed: ${message.message}`));
      if (message.kind !== 'ready') return reject(new Error('unexpected message from the benchmark server'));
      proc.off('exit', onExit);
      const servers = message.servers;
      resolve({
        pid: proc.pid ?? -1,
        servers,
        byFlags(flags) {
          const info = servers.find((s) => s.flags === flags);
          if (!info) throw new Error(`no data set of ${flags} flags`);
          return info;
        },
        stats() {
          return new Promise((done) => {
            const listener = (reply: FromChild) => {
              if (reply.kind !== 'stats') return;
              proc.off('message', listener);
              done(reply.stats);
            };
            proc.on('message', listener);
            proc.send({ kind: 'stats' } satisfies ToChild);
          });
        },
        async stop() {
          if (proc.exitCode !== null || proc.signalCode !== null) return;
          proc.send({ kind: 'stop' } satisfies ToChild);
          const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
          await exited;
          clearTimeout(timer);
        },
      });
    });
  });
}

if (require.main === module && process.argv[2] === '--child') {
  const sizes = (process.argv[3] ?? '1000').split(',').map(Number);
  void child(sizes, Number(process.argv[4] ?? 1));
}
