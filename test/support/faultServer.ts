/**
 * A fault-injecting server on 127.0.0.1 for the reliability tests: every request takes the next fault of a script
 * (the last one repeats), so a test can say "503, then the real answer" or "close the socket mid-body, every time".
 * It speaks HTTP, or HTTPS with a certificate made at test time by `openssl`: self-signed, signed by a test CA, for
 * the wrong host name, or expired. It records every request and whether the client hung up before the answer ended.
 * A test that needs an ordinary server answers through a handler instead (`handle`, `routes`): the same recording,
 * the same bounded waits.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { bounded } from './bounded';
import { listenOnLoopback } from './listen';

export interface FaultRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON; undefined when empty or not JSON. */
  json?: unknown;
  /**
   * True once the connection that carried the request closed while the server was still sending the answer (a
   * cancellation, a timeout, a body the client gave up on). Watched on the socket, not the response: a response whose
   * last bytes sit in the kernel's buffers counts as finished for Node although the client never read them.
   */
  closedEarly: boolean;
}

/** What a handler answers: an object body is sent as JSON, a string or Buffer as is (`text/plain` unless told). */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** Answers a request: a Reply, or nothing when it wrote to `res` itself (or never answers). */
export type Handler = (request: FaultRequest, res: http.ServerResponse) => Reply | void | Promise<Reply | void>;

/** A body, or a function of the request that makes it (to echo what the client sent). */
type BodyOf = string | object | ((request: FaultRequest) => unknown);

/** What the server does with one request. */
export type Fault =
  /** A JSON answer (an object is serialised; a string is sent as is), after `delayMs`. */
  | { kind: 'json'; status?: number; body: BodyOf; headers?: Record<string, string>; delayMs?: number }
  /** Accepts the request and never answers: no status line, no headers. */
  | { kind: 'stallBeforeHeaders' }
  /** Sends headers (a Content-Length of `declared` bytes) and `sent` bytes, then nothing more. */
  | { kind: 'stallMidBody'; declared?: number; sent?: number }
  /** Sends headers and part of the body, then destroys the socket. */
  | { kind: 'closeMidBody'; declared?: number; sent?: number }
  /** Sends headers and the start of a JSON body (chunked), then one byte every `intervalMs`, until the client goes. */
  | { kind: 'trickle'; intervalMs: number }
  /** A single sign-on proxy's login page, with 200. */
  | { kind: 'loginPage' }
  /** `Content-Type: application/json` and a body that is not JSON. */
  | { kind: 'invalidJson' }
  /** An error status, a `{message}` body (or `body`), and `Retry-After` when given. */
  | { kind: 'status'; status: number; retryAfter?: string; body?: unknown }
  /** What Unleash answers in maintenance mode (its `{message}`-only body shape, reference §8.1). */
  | { kind: 'maintenance' }
  /**
   * A body of `bytes` bytes, streamed as the client reads it; gzip-compressed when `gzip` (a small download that
   * unpacks huge); without Content-Length (chunked) when `chunked`.
   */
  | { kind: 'huge'; bytes: number; gzip?: boolean; chunked?: boolean }
  /** An error answer whose message repeats the Authorization header, raw, `Bearer `-prefixed or percent-encoded. */
  | { kind: 'echoAuth'; status: number; form?: 'raw' | 'bearer' | 'percent' }
  /** A redirect (301 by default) to `location`. */
  | { kind: 'redirect'; status?: number; location: string }
  /** Whatever the handler answers. */
  | { kind: 'handle'; handler: Handler };

/** Shorthands for the faults. */
export const faults = {
  json: (body: BodyOf, extra: Omit<Extract<Fault, { kind: 'json' }>, 'kind' | 'body'> = {}): Fault => ({ kind: 'json', body, ...extra }),
  stallBeforeHeaders: (): Fault => ({ kind: 'stallBeforeHeaders' }),
  stallMidBody: (): Fault => ({ kind: 'stallMidBody' }),
  closeMidBody: (): Fault => ({ kind: 'closeMidBody' }),
  trickle: (intervalMs: number): Fault => ({ kind: 'trickle', intervalMs }),
  loginPage: (): Fault => ({ kind: 'loginPage' }),
  invalidJson: (): Fault => ({ kind: 'invalidJson' }),
  status: (status: number, extra: { retryAfter?: string; body?: unknown } = {}): Fault => ({ kind: 'status', status, ...extra }),
  maintenance: (): Fault => ({ kind: 'maintenance' }),
  huge: (bytes: number, options: { gzip?: boolean; chunked?: boolean } = {}): Fault => ({ kind: 'huge', bytes, ...options }),
  echoAuth: (status: number, form: 'raw' | 'bearer' | 'percent' = 'raw'): Fault => ({ kind: 'echoAuth', status, form }),
  redirect: (location: string, status = 301): Fault => ({ kind: 'redirect', status, location }),
  handle: (handler: Handler): Fault => ({ kind: 'handle', handler }),
};

/** A handler that routes by "METHOD /path" (no query); an unknown route gets Unleash's own unknown-path 404. */
export function routes(table: Record<string, Reply | ((request: FaultRequest) => Reply)>): Handler {
  return (request) => {
    const entry = table[`${request.method} ${request.path}`];
    if (!entry) {
      return {
        status: 404,
        body: { id: 'e0c7a1d2', name: 'NotFoundError', message: `The path you were looking for (${request.path}) is not available.` },
      };
    }
    return typeof entry === 'function' ? entry(request) : entry;
  };
}

const LOGIN_PAGE = '<!DOCTYPE html><html><head><title>Sign in</title></head><body><form action="/login"><input name="user"></form></body></html>';
const MAINTENANCE_MESSAGE = 'Unleash is currently in maintenance mode.';

export interface FaultServer {
  url: string;
  port: number;
  requests: FaultRequest[];
  /** Each request takes the next fault; the last one repeats. Resets the position. */
  script(...faults: Fault[]): void;
  /** Every request from now on is answered by `handler` (`script(faults.handle(handler))`). */
  handle(handler: Handler): void;
  /** Resolves once `count` requests have arrived; rejects, naming the wait, after `WAIT_MS`. */
  waitForRequests(count: number): Promise<void>;
  /**
   * Resolves once the connection of request `index` has closed before its answer ended; rejects, naming the wait,
   * after `WAIT_MS` (bounded.ts).
   */
  waitForClientClose(index: number): Promise<void>;
  /** Forgets the recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

export interface TlsIdentity {
  key: string;
  cert: string;
}

interface FaultServerOptions {
  /** Serve HTTPS with this key and certificate. */
  tls?: TlsIdentity;
  /** Answer every request through this handler (an empty `{}` JSON answer otherwise). */
  handler?: Handler;
}

export async function startFaultServer(options: FaultServerOptions = {}): Promise<FaultServer> {
  const initial: Fault = options.handler ? faults.handle(options.handler) : { kind: 'json', body: {} };
  let script: Fault[] = [initial];
  const setScript = (...next: Fault[]): void => {
    script = next.length ? next : [{ kind: 'json', body: {} }];
    position = 0;
  };
  let position = 0;
  const requests: FaultRequest[] = [];
  const waiters = new Set<() => void>();
  const closed = new Map<FaultRequest, Promise<void>>();

  const listener = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const parsed = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = Buffer.concat(chunks).toString('utf8');
    const recorded: FaultRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      path: parsed.pathname,
      query: parsed.searchParams,
      headers: req.headers,
      body,
      json: parseJson(body),
      closedEarly: false,
    };
    requests.push(recorded);
    closed.set(
      recorded,
      new Promise<void>((resolve) => {
        const socket = req.socket;
        const onClose = () => {
          recorded.closedEarly = true;
          resolve();
        };
        if (socket.destroyed) return onClose();
        socket.once('close', onClose);
        // Once the answer is complete, a keep-alive connection may stay open for the next request: not an early close.
        res.once('finish', () => socket.off('close', onClose));
      }),
    );
    for (const wake of [...waiters]) wake();
    const fault = script[Math.min(position, script.length - 1)] as Fault;
    position += 1;
    await answer(fault, recorded, res);
  };

  const server = options.tls
    ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, (req, res) => void listener(req, res))
    : http.createServer((req, res) => void listener(req, res));
  // A client that gives up during the TLS handshake (a certificate it refuses) is not an error of the server.
  server.on('tlsClientError', () => undefined);
  const { port, close } = await listenOnLoopback(server);

  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    script: setScript,
    handle(handler) {
      setScript(faults.handle(handler));
    },
    waitForRequests(count) {
      const arrived = new Promise<void>((resolve) => {
        const check = () => {
          if (requests.length < count) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      });
      return bounded(arrived, `${count} request(s) at the fault server (${requests.length} arrived)`);
    },
    waitForClientClose(index) {
      const request = requests[index];
      const closing = request && closed.get(request);
      if (!closing) return Promise.reject(new Error(`no request ${index} at the fault server`));
      return bounded(closing, `the client to close the connection of request ${index} (${request.method} ${request.url})`);
    },
    reset() {
      requests.length = 0;
    },
    close,
  };
}

async function answer(fault: Fault, request: FaultRequest, res: http.ServerResponse): Promise<void> {
  switch (fault.kind) {
    case 'json': {
      if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      const body = typeof fault.body === 'function' ? (fault.body as (r: FaultRequest) => unknown)(request) : fault.body;
      send(res, fault.status ?? 200, typeof body === 'string' ? body : JSON.stringify(body), { 'content-type': 'application/json; charset=utf-8', ...fault.headers });
      return;
    }
    case 'stallBeforeHeaders':
      return; // the response is never started; the server's close() ends the socket
    case 'stallMidBody':
    case 'closeMidBody': {
      const declared = fault.declared ?? 4096;
      const sent = Math.min(fault.sent ?? 100, declared - 1);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(declared) });
      res.write(`{"features":[${' '.repeat(Math.max(0, sent - 13))}`);
      if (fault.kind === 'closeMidBody') setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    case 'trickle': {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"features":[');
      const timer = setInterval(() => res.write(' '), fault.intervalMs);
      res.on('close', () => clearInterval(timer));
      return;
    }
    case 'loginPage':
      send(res, 200, LOGIN_PAGE, { 'content-type': 'text/html; charset=utf-8' });
      return;
    case 'invalidJson':
      send(res, 200, '{"environments": [{"name": "development",', { 'content-type': 'application/json' });
      return;
    case 'status':
      send(res, fault.status, JSON.stringify(fault.body ?? { message: `status ${fault.status}` }), {
        'content-type': 'application/json',
        ...(fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter }),
      });
      return;
    case 'maintenance':
      send(res, 503, JSON.stringify({ message: MAINTENANCE_MESSAGE }), { 'content-type': 'application/json' });
      return;
    case 'huge':
      await sendHuge(res, fault);
      return;
    case 'echoAuth': {
      const auth = String(request.headers.authorization ?? '');
      const echoed = fault.form === 'bearer' ? `Bearer ${auth}` : fault.form === 'percent' ? encodeURIComponent(auth) : auth;
      send(res, fault.status, JSON.stringify({ name: 'EchoError', message: `Rejected Authorization: ${echoed}`, details: [{ message: `header was ${echoed}` }] }), {
        'content-type': 'application/json',
      });
      return;
    }
    case 'redirect':
      send(res, fault.status ?? 301, '', { location: fault.location });
      return;
    case 'handle': {
      const reply = await fault.handler(request, res);
      if (!reply || res.headersSent || res.writableEnded) return;
      const isText = typeof reply.body === 'string' || Buffer.isBuffer(reply.body);
      const payload = reply.body === undefined ? '' : isText ? (reply.body as string | Buffer) : JSON.stringify(reply.body);
      if (res.destroyed) return;
      res.writeHead(reply.status ?? 200, { 'content-type': isText ? 'text/plain' : 'application/json; charset=utf-8', ...reply.headers });
      res.end(payload);
      return;
    }
  }
}

function parseJson(body: string): unknown {
  if (!body) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined; // not JSON: the body text is recorded
  }
}

function send(res: http.ServerResponse, status: number, body: string, headers: Record<string, string>): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

/** Streams a body of `bytes` bytes as fast as the client reads it, stopping as soon as the client hangs up. */
async function sendHuge(res: http.ServerResponse, { bytes, gzip, chunked }: Extract<Fault, { kind: 'huge' }>): Promise<void> {
  if (gzip) {
    const body = gzipSync(Buffer.from(`{"environments":"${'x'.repeat(bytes)}"}`));
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(body.length) });
    res.end(body);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': String(bytes) }) });
  const chunk = Buffer.alloc(64 * 1024, ' ');
  let sent = 0;
  while (sent < bytes && !res.destroyed) {
    const size = Math.min(chunk.length, bytes - sent);
    sent += size;
    if (!res.write(chunk.subarray(0, size))) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  if (!res.destroyed) res.end();
}

/** A port on 127.0.0.1 where nothing listens (it was free a moment ago): connections to it are refused. */
export async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

// ---------------------------------------------------------------------------------------------------------------
// Test certificates, made with openssl at test time (nothing secret is committed)
// ---------------------------------------------------------------------------------------------------------------

interface TestCertificates {
  /** The test CA's certificate (PEM): what a user would list in `unleash.network.caCertificates`. */
  caCert: string;
  /** A self-signed certificate for 127.0.0.1 and localhost. */
  selfSigned: TlsIdentity;
  /** Signed by the test CA, for 127.0.0.1 and localhost (subjectAltName). */
  caSigned: TlsIdentity;
  /** Signed by the test CA, but for `other.example` only. */
  wrongHost: TlsIdentity;
  /** Signed by the test CA for 127.0.0.1, expired yesterday. */
  expired: TlsIdentity;
}

let certificates: TestCertificates | undefined;

export function opensslAvailable(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Makes (once per process) a test CA and the server certificates above, with EC P-256 keys. */
export function testCertificates(): TestCertificates {
  if (certificates) return certificates;
  const dir = mkdtempSync(path.join(tmpdir(), 'unleash-tls-'));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const san = 'subjectAltName=IP:127.0.0.1,DNS:localhost';
  try {
    openssl('req', '-x509', ...newKey, '-keyout', file('ca.key'), '-out', file('ca.crt'), '-days', '2', '-subj', '/CN=Unleash Flags Test CA',
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
    openssl('req', '-x509', ...newKey, '-keyout', file('self.key'), '-out', file('self.crt'), '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', san);
    openssl('req', ...newKey, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=127.0.0.1');
    const sign = (out: string, ext: string, days: string) => {
      writeFileSync(file(`${out}.ext`), `${ext}\n`);
      openssl('x509', '-req', '-in', file('server.csr'), '-CA', file('ca.crt'), '-CAkey', file('ca.key'), '-CAcreateserial',
        '-out', file(`${out}.crt`), '-days', days, '-extfile', file(`${out}.ext`));
    };
    sign('signed', san, '2');
    sign('other', 'subjectAltName=DNS:other.example', '2');
    sign('expired', san, '-1');
    const read = (name: string) => readFileSync(file(name), 'utf8');
    const serverKey = read('server.key');
    certificates = {
      caCert: read('ca.crt'),
      selfSigned: { key: read('self.key'), cert: read('self.crt') },
      caSigned: { key: serverKey, cert: read('signed.crt') },
      wrongHost: { key: serverKey, cert: read('other.crt') },
      expired: { key: serverKey, cert: read('expired.crt') },
    };
    return certificates;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
