/**
 * Reliability and security: bad servers, bad settings, bad networks and hostile data, each case against the real
 * client (undici, TLS, a proxy) and the fault server, asserting what the user would see: the formatted message and
 * its next steps, how many requests reached the server (GETs retried a bounded number of times, the export POST
 * never), that nothing outlasts the timeout, that a cancellation closes the socket, that the token never leaks, and
 * that an export that fails leaves the previous file byte-identical.
 *
 * Every row is a test, and the tests write the table: docs/reliability.md must equal what this run produced
 * (regenerate it with `UPDATE_DOCS=1 node --import tsx --test test/unit/reliability.test.ts`).
 */
import assert from 'node:assert/strict';
import { promises as fsp, readFileSync, writeFileSync } from 'node:fs';
import MarkdownIt from 'markdown-it';
import { HOSTILE_END, HOSTILE_START } from '../../bench/hostile/run';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { UnleashClient, type ClientOptions } from '../../src/api/client';
import {
  AuthError,
  BadRequestError,
  CancelledError,
  DeadlineError,
  ConfigError,
  ForbiddenError,
  HttpError,
  InvalidTokenError,
  MissingTokenError,
  NetworkError,
  SchemaError,
  TimeoutError,
} from '../../src/api/errors';
import type { HttpEvent } from '../../src/api/http';
import type { Feature, FeatureSummary, Segment } from '../../src/api/schemas';
import { serializeExport } from '../../src/model/export/exportBytes';
import { resolveExportPath } from '../../src/model/export/exportPath';
import { exportToFile } from '../../src/model/export/exportToFile';
import { ExportWriteError } from '../../src/model/export/exportWriteError';
import type { FlagSource } from '../../src/model/store/flagSource';
import { FlagStore } from '../../src/model/store/flagStore';
import { hoverMarkdown } from '../../src/model/content/hoverContent';
import { HOVER_LIMITS } from '../../src/model/content/hoverLimits';
import { unknownFlagMarkdown } from '../../src/model/content/unlistedFlagContent';
import { childrenOf } from '../../src/model/tree/children';
import { MAX_TOOLTIP, type TreeNode } from '../../src/model/tree/node';
import { MAX_DETAIL, MAX_LABEL } from '../../src/model/text/plainText';
import { formatError } from '../../src/model/content/formatError';
import type { FormattedError } from '../../src/model/content/formattedError';
import { CONTROL } from '../support/hostileFlags';
import {
  closedPort,
  faults,
  opensslAvailable,
  startFaultServer,
  testCertificates,
  type Fault,
  type FaultServer,
  type TlsIdentity,
} from '../support/faultServer';
import { startProxyServer, type ProxyServer } from '../support/proxyServer';
import { atLeast, startMeter, tableCells, timed, within, type Cells, type Outcome, type RequestMeter, type Time } from './reliabilityRows';
import { networkRows } from './networkCases';
import { trustRows } from './trustCases';

const TOKEN = '*:*.7d3f1c9a0b2e4d6f8a1c3e5b7d9f0a2c';
const SECRET = '7d3f1c9a0b2e4d6f8a1c3e5b7d9f0a2c';
/** A personal access token: no `.` in it, the secret follows the `:`. */
const PAT = 'user:4b1d9e7c2a0f6e8d3c5b7a9f1e0d2c4b';
const PAT_SECRET = '4b1d9e7c2a0f6e8d3c5b7a9f1e0d2c4b';
/** The server as messages name it (the UI passes the URL's host; a fixed name keeps the table stable). */
const SERVER = 'unleash.example.com';
const TIMEOUT_MS = 500;
/** What "nothing hangs" means here: the timeout plus a generous margin for a loaded machine. */
const HANG_BOUND_MS = 2_000;
/** An export's whole-answer deadline in these rows (INTAKE_BUDGET.exportMs, ten minutes, in the extension). */
const DEADLINE_MS = 1_500;
const MAX_BYTES = 64 * 1024;
const ENVIRONMENTS = { version: 1, environments: [{ name: 'development', type: 'development', enabled: true, sortOrder: 1 }] };
const HAS_OPENSSL = opensslAvailable();

// ---------------------------------------------------------------------------------------------------------------
// Rows of the table
// ---------------------------------------------------------------------------------------------------------------

interface Row {
  section: string;
  name: string;
  outcome?: Cells;
}

const rows: Row[] = [];
let section = '';
/** The meter of the row that is running: the shared server, every server started and every client made report to it. */
let meter: RequestMeter | undefined;

/** A test that produces one row of docs/reliability.md; its Requests are what the meter counted while it ran. */
function row(name: string, fn: () => Promise<Outcome>, options: { skip?: string | boolean } = {}): void {
  const entry: Row = { section, name };
  rows.push(entry);
  it(name, { skip: options.skip }, async () => {
    const current = startMeter();
    meter = current;
    current.watch(server);
    try {
      const outcome = await fn();
      entry.outcome = tableCells(outcome, current.stop());
    } finally {
      current.stop();
      meter = undefined;
    }
  });
}

function group(title: string, body: () => void): void {
  describe(title, () => {
    section = title;
    body();
  });
}

const STEP_LABELS: Record<string, string> = { setToken: 'Set Token', openSettings: 'Open Settings', retry: 'Retry', showLog: 'Show Log' };

function stepsOf(formatted: FormattedError): string {
  if (formatted.silent) return '—';
  return formatted.actions
    .map((action) => (action === 'openSettings' && formatted.setting ? `Open Settings (\`${formatted.setting}\`)` : STEP_LABELS[action]))
    .join(', ');
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------------

let server: FaultServer;
const clients: UnleashClient[] = [];
const closers: Array<() => Promise<void>> = [];
/** The client's retry and response events: what connection.ts writes to the log channel. */
let events: HttpEvent[] = [];

function client(baseUrl: string, overrides: Partial<ClientOptions> = {}): UnleashClient {
  const created = new UnleashClient({
    baseUrl,
    getToken: () => TOKEN,
    retryBaseMs: 20,
    timeoutMs: 5_000,
    maxResponseBytes: MAX_BYTES,
    onEvent: (event) => {
      events.push(event);
      meter?.onEvent(event);
    },
    ...overrides,
  });
  clients.push(created);
  return created;
}

/** A fault server of its own for the running row, which counts what it records (under `name`, when given). */
async function fault(options: Parameters<typeof startFaultServer>[0] = {}, name?: string): Promise<FaultServer> {
  const started = await startFaultServer(options);
  closers.push(() => started.close());
  meter?.watch(started, name);
  return started;
}

async function proxy(options: Parameters<typeof startProxyServer>[0] = {}): Promise<ProxyServer> {
  const started = await startProxyServer(options);
  closers.push(() => started.close());
  return started;
}

/** The error a promise rejects with; fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('expected the operation to fail');
}

function retries(): number {
  return events.filter((event) => event.kind === 'retry').length;
}

/** Nothing the user or the log sees holds the token or its secret part. */
function assertNoSecret(...texts: Array<string | undefined>): void {
  for (const text of texts) {
    if (text === undefined) continue;
    for (const secret of [TOKEN, SECRET, PAT, PAT_SECRET]) assert.ok(!text.includes(secret), `leaked the token: ${text.slice(0, 300)}`);
  }
}

/** The error's every text: message, stack, String(), JSON, and the log lines of the retries before it. */
function errorTexts(error: unknown): string[] {
  const texts = [String(error), JSON.stringify(error)];
  if (error instanceof Error) texts.push(error.message, error.stack ?? '');
  texts.push(...events.map((event) => `${event.request} ${event.reason ?? ''}`));
  return texts;
}

/** Formats `error` as the UI does, checks it holds no secret, and returns the message and steps for the table. */
function shown(error: unknown, action: string): { formatted: FormattedError; message: string; steps: string } {
  const formatted = formatError(error, { server: SERVER, action });
  assertNoSecret(...errorTexts(error), formatted.message);
  return { formatted, message: formatted.silent ? '(nothing: a cancellation is silent)' : formatted.message, steps: stepsOf(formatted) };
}

/** Asserts the measured time stayed within the hang bound and says so for the table, with the timeout it allows for. */
function hang(ms: number): Time {
  return within(ms, HANG_BOUND_MS, `timeout ${TIMEOUT_MS / 1000} s`);
}

before(async () => {
  server = await fault();
});
beforeEach(() => {
  server.reset();
  events = [];
});
after(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await Promise.all(closers.map((close) => close()));
});

const LOAD = 'load the environments';

// ---------------------------------------------------------------------------------------------------------------
// Settings: refused before any request
// ---------------------------------------------------------------------------------------------------------------

group('Settings (checked before any request)', () => {
  const settingCase = (name: string, url: () => string, expected: string) =>
    row(name, async () => {
      const error = await rejection((async () => client(url()).listEnvironments())());
      assert.ok(error instanceof ConfigError);
      assert.equal(error.setting, 'unleash.serverUrl');
      const { message, steps } = shown(error, 'connect');
      assert.equal(message, expected.replace('PORT', String(server.port)));
      assert.equal(server.requests.length, 0);
      return { result: 'ConfigError', message, steps, requests: 'none' };
    });

  settingCase('server URL without a scheme (`127.0.0.1:PORT`)', () => `127.0.0.1:${server.port}`,
    'Could not connect. The setting `unleash.serverUrl` has no scheme: start it with https:// or http:// (for example https://127.0.0.1:PORT).');
  settingCase('server URL with a space', () => `http://127.0.0.1:${server.port}/my unleash`,
    'Could not connect. The setting `unleash.serverUrl` contains spaces. Enter the address only, e.g. https://unleash.example.com.');
  settingCase('server URL `file:///etc/passwd`', () => 'file:///etc/passwd',
    'Could not connect. The setting `unleash.serverUrl` uses file:// which is not supported: use https:// or http://.');
  settingCase('server URL `ftp://…`', () => `ftp://127.0.0.1:${server.port}`,
    'Could not connect. The setting `unleash.serverUrl` uses ftp:// which is not supported: use https:// or http://.');
  settingCase('server URL with `user:password@`', () => `http://admin:hunter2@127.0.0.1:${server.port}`,
    'Could not connect. The setting `unleash.serverUrl` contains a user name or password. Remove them and use an API token instead.');
  settingCase('empty server URL', () => '   ',
    'Could not connect. The setting `unleash.serverUrl` is empty. Set it to your Unleash address, e.g. https://unleash.example.com.');

  row('empty API token', async () => {
    const error = await rejection(client(server.url, { getToken: () => ' \n' }).listEnvironments());
    assert.ok(error instanceof MissingTokenError);
    const { message, steps } = shown(error, 'connect');
    assert.equal(message, 'Could not connect. No API token is set for unleash.example.com. Run "Unleash: Set API Token" or set the UNLEASH_API_TOKEN environment variable.');
    assert.equal(server.requests.length, 0);
    return { result: 'MissingTokenError', message, steps, requests: 'none' };
  });

  // Before the fix, undici refused the header with "invalid authorization header" and the user was told the
  // connection was lost and to try again.
  for (const [name, bad] of [
    ['API token with a line break inside (pasted)', `${TOKEN.slice(0, 10)}\n${TOKEN.slice(10)}`],
    ['API token with a zero-width space (pasted)', `${TOKEN}\u200b${SECRET.slice(0, 4)}`],
  ] as const) {
    row(name, async () => {
      const error = await rejection(client(server.url, { getToken: () => bad }).listEnvironments());
      assert.ok(error instanceof InvalidTokenError);
      const { message, steps } = shown(error, 'connect');
      assert.equal(message, 'Could not connect. The API token for unleash.example.com contains characters that cannot be sent (a line break, a non-ASCII or an invisible character, often left by copy and paste). Set the token again.');
      assert.deepEqual(steps, 'Set Token');
      assert.equal(server.requests.length, 0);
      return { result: 'InvalidTokenError', message, steps, requests: 'none' };
    });
  }

  row('`http.proxy` that is not a URL', async () => {
    const error = await rejection((async () => client(server.url, { network: { proxy: 'http://proxy corp:8080' } }))());
    assert.ok(error instanceof ConfigError);
    const { message, steps } = shown(error, 'connect');
    assert.equal(message, 'Could not connect. The setting `http.proxy` is not a valid proxy address. Use the form http://proxy.example.com:8080.');
    assert.equal(server.requests.length, 0);
    return { result: 'ConfigError', message, steps, requests: 'none' };
  });

  row('`http.proxy` with an unsupported scheme (`ftp://`), holding a password', async () => {
    const error = await rejection((async () => client(server.url, { network: { proxy: 'ftp://me:hunter2@proxy.example.com' } }))());
    assert.ok(error instanceof ConfigError);
    const { message, steps } = shown(error, 'connect');
    assert.equal(message, 'Could not connect. The setting `http.proxy` uses ftp:// which is not supported: use http://, https:// or socks5://.');
    assert.ok(!message.includes('hunter2'), 'the proxy password is never repeated');
    return { result: 'ConfigError', message, steps, requests: 'none' };
  });

  row('a file in `unleash.network.caCertificates` that is not PEM', async () => {
    const error = await rejection((async () => client(server.url, { network: { extraCaCertificates: ['MIIBszCCAVmgAwIBAgIU (DER as base64, no header)'] } }))());
    assert.ok(error instanceof ConfigError);
    const { message, steps } = shown(error, 'connect');
    assert.equal(message, 'Could not connect. The setting `unleash.network.caCertificates` lists a file that holds no PEM certificate (a "-----BEGIN CERTIFICATE-----" block). Give the CA certificate in PEM form.');
    assert.equal(server.requests.length, 0);
    return { result: 'ConfigError', message, steps, requests: 'none' };
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Bad servers
// ---------------------------------------------------------------------------------------------------------------

group('Bad servers (a GET: listing the environments)', () => {
  row('connection refused (nothing listens on the port)', async () => {
    const port = await closedPort();
    const error = await rejection(client(`http://127.0.0.1:${port}`).listEnvironments());
    assert.ok(error instanceof NetworkError);
    assert.equal(error.code, 'ECONNREFUSED');
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, 'Could not load the environments. Could not connect to unleash.example.com: connection refused. Is the server running, and is unleash.serverUrl right?');
    assert.equal(retries(), 2, 'a refused GET is safe to repeat, a bounded number of times');
    return { result: 'NetworkError ECONNREFUSED', message, steps };
  });

  row('stalls before sending headers', async () => {
    server.script(faults.stallBeforeHeaders());
    const { value: error, ms } = await timed(() => rejection(client(server.url, { timeoutMs: TIMEOUT_MS }).listEnvironments()));
    assert.ok(error instanceof TimeoutError);
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, 'Could not load the environments. unleash.example.com did not answer within 0.5 s. Try again, or raise unleash.requestTimeoutSeconds.');
    assert.equal(server.requests.length, 1, 'a timed-out GET is not repeated (it would double the wait)');
    await server.waitForClientClose(0);
    return { result: 'TimeoutError', message, steps, time: hang(ms) };
  });

  row('stalls in the middle of the body', async () => {
    server.script(faults.stallMidBody());
    const { value: error, ms } = await timed(() => rejection(client(server.url, { timeoutMs: TIMEOUT_MS }).listEnvironments()));
    assert.ok(error instanceof TimeoutError);
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, 'Could not load the environments. unleash.example.com did not answer within 0.5 s. Try again, or raise unleash.requestTimeoutSeconds.');
    assert.equal(server.requests.length, 1);
    await server.waitForClientClose(0);
    return { result: 'TimeoutError', message, steps, time: hang(ms) };
  });

  row('closes the socket in the middle of the body, every time', async () => {
    server.script(faults.closeMidBody());
    const error = await rejection(client(server.url).listEnvironments());
    assert.ok(error instanceof NetworkError);
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, 'Could not load the environments. Lost the connection to unleash.example.com (UND_ERR_SOCKET). Try again.');
    assert.equal(server.requests.length, 3);
    return { result: 'NetworkError UND_ERR_SOCKET', message, steps };
  });

  row('closes the socket in the middle of the body once, then answers', async () => {
    server.script(faults.closeMidBody(), faults.json(ENVIRONMENTS));
    const environments = await client(server.url).listEnvironments();
    assert.deepEqual(environments.map((e) => e.name), ['development']);
    assert.equal(server.requests.length, 2);
    return { result: 'succeeds' };
  });

  row('an HTML login page with 200 (a single sign-on proxy)', async () => {
    server.script(faults.loginPage());
    const error = await rejection(client(server.url).listEnvironments());
    assert.ok(error instanceof SchemaError);
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, 'Could not load the environments. Unexpected answer from the server: the server answered with an HTML page instead of JSON (is the URL your Unleash server, or is a proxy or login page in the way?). Check that unleash.serverUrl points at an Unleash server; the log has details.');
    assert.equal(server.requests.length, 1);
    return { result: 'SchemaError', message, steps };
  });

  row('invalid JSON', async () => {
    server.script(faults.invalidJson());
    const error = await rejection(client(server.url).listEnvironments());
    assert.ok(error instanceof SchemaError);
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, 'Could not load the environments. Unexpected answer from the server: the answer is not valid JSON (application/json). Check that unleash.serverUrl points at an Unleash server; the log has details.');
    return { result: 'SchemaError', message, steps };
  });

  row('valid JSON of the wrong shape', async () => {
    server.script(faults.json({ version: 1, environments: [{ name: 'development' }, { enabled: true }] }));
    const error = await rejection(client(server.url).listEnvironments());
    assert.ok(error instanceof SchemaError);
    assert.equal(error.path, 'environments.1.name');
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, 'Could not load the environments. Unexpected answer from the server: field `environments.1.name` expected string, received undefined. Check that unleash.serverUrl points at an Unleash server; the log has details.');
    return { result: 'SchemaError', message, steps };
  });

  // Before the fix, `details` were kept whole: thousands of them, each as long as the server liked, in the message.
  row('400 with 1,000 `details` of 10,000 characters', async () => {
    const detail = `${'d'.repeat(10_000)}`;
    server.script(faults.status(400, { body: { name: 'BadDataError', message: 'Request validation failed', details: Array.from({ length: 1_000 }, () => ({ path: '/body', message: detail })) } }));
    const error = await rejection(client(server.url, { maxResponseBytes: 64 * 1024 * 1024 }).listEnvironments());
    assert.ok(error instanceof BadRequestError);
    assert.equal(error.details.length, 20);
    assert.equal(error.details[0]?.message?.length, 501);
    const kept = error.details.length;
    // Each kept detail is cut and ends with an ellipsis: its length without that is what the table reports.
    const cutTo = Math.max(...error.details.map((d) => (d.message ?? '').replace(/…$/, '').length));
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, `Could not load the environments. The server refused the request (400): ${'d'.repeat(500)}….`);
    return { result: `BadRequestError: ${kept} details kept, each cut to ${cutTo} characters`, message: `${message.slice(0, 100)}…`, steps };
  });

  row('JSON that starts with a byte order mark', async () => {
    server.script(faults.json(`\ufeff${JSON.stringify(ENVIRONMENTS)}`));
    assert.equal((await client(server.url).listEnvironments()).length, 1);
    return { result: 'succeeds' };
  });

  // The answers are far larger than the kernel's socket buffers, so the server cannot finish sending them unless the
  // client reads them: the connection closing early proves the client stopped reading (and did not pool it).
  const HUGE_BYTES = 64 * 1024 * 1024;
  const hugeCase = (name: string, fault: Fault, result: string) =>
    row(name, async () => {
      server.script(fault);
      const error = await rejection(client(server.url).listEnvironments());
      assert.ok(error instanceof SchemaError);
      const { message, steps } = shown(error, LOAD);
      assert.equal(message, 'Could not load the environments. Unexpected answer from the server: the answer is larger than 64.0 KB. Check that unleash.serverUrl points at an Unleash server; the log has details.');
      assert.equal(server.requests.length, 1);
      await server.waitForClientClose(0);
      return { result, message, steps };
    });
  hugeCase(
    `a body larger than maxResponseBytes (${MAX_BYTES / 1024} KiB here, 64 MiB by default), Content-Length declared`,
    faults.huge(HUGE_BYTES),
    'SchemaError (nothing read: the declared length is over the limit; the connection is closed)',
  );
  hugeCase(
    'a body larger than maxResponseBytes, streamed without Content-Length',
    faults.huge(HUGE_BYTES, { chunked: true }),
    'SchemaError (reading stops at the limit; the connection is closed)',
  );

  // Before the fix, the limit applied to the compressed bytes only: 4 MiB of gzip unpacked into gigabytes.
  row('a small gzip body that unpacks beyond maxResponseBytes', async () => {
    server.script(faults.huge(8 * 1024 * 1024, { gzip: true }));
    const error = await rejection(client(server.url).listEnvironments());
    assert.ok(error instanceof SchemaError);
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, 'Could not load the environments. Unexpected answer from the server: the answer is larger than 64.0 KB. Check that unleash.serverUrl points at an Unleash server; the log has details.');
    return { result: 'SchemaError (unpacking stops at the limit)', message, steps };
  });

  // Before the fix, a redirect was read as an answer: "not valid JSON", with no hint of where it pointed.
  row('redirects http:// to https:// (301)', async () => {
    server.script(faults.redirect(`https://unleash.example.com/api/admin/environments`));
    const error = await rejection(client(server.url).listEnvironments());
    assert.ok(error instanceof HttpError);
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, 'Could not load the environments. unleash.example.com redirects to https://unleash.example.com (301) instead of answering. If that is your Unleash server, put that address in unleash.serverUrl; if it is a login page, a proxy or single sign-on is in the way.');
    assert.equal(server.requests.length, 1);
    return { result: 'HttpError 301', message, steps };
  });

  row('redirects to a single sign-on login page (302, query dropped)', async () => {
    server.script(faults.redirect(`https://sso.example.com/login?session=abc123&next=%2Fapi`, 302));
    const error = await rejection(client(server.url).listEnvironments());
    assert.ok(error instanceof HttpError);
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, 'Could not load the environments. unleash.example.com redirects to https://sso.example.com/login (302) instead of answering. If that is your Unleash server, put that address in unleash.serverUrl; if it is a login page, a proxy or single sign-on is in the way.');
    return { result: 'HttpError 302', message, steps };
  });

  row('a base URL with a path prefix (`/unleash`)', async () => {
    server.script(faults.json(ENVIRONMENTS));
    assert.equal((await client(`${server.url}/unleash/`).listEnvironments()).length, 1);
    assert.equal(server.requests[0]?.path, '/unleash/api/admin/environments');
    return { result: 'succeeds (`/unleash/api/admin/…`)' };
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Retries: only where safe, always bounded
// ---------------------------------------------------------------------------------------------------------------

group('Retries (GETs only, bounded; Retry-After honoured up to 10 s)', () => {
  row('429 with `Retry-After: 1`, then the answer', async () => {
    server.script(faults.status(429, { retryAfter: '1', body: { message: 'Too many requests' } }), faults.json(ENVIRONMENTS));
    const { ms } = await timed(() => client(server.url).listEnvironments());
    assert.equal(server.requests.length, 2);
    const waited = events.find((event) => event.kind === 'retry')?.delayMs ?? 0;
    assert.equal(waited, 1_000, 'the client waits what Retry-After says');
    return { result: `succeeds after waiting ${waited / 1000} s`, time: atLeast(ms, waited, 'Retry-After') };
  });

  row('429 with `Retry-After: 3600` (longer than is worth waiting)', async () => {
    server.script(faults.status(429, { retryAfter: '3600', body: { message: 'Too many requests' } }));
    const { value: error, ms } = await timed(() => rejection(client(server.url).listEnvironments()));
    assert.ok(error instanceof HttpError);
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, 'Could not load the environments. unleash.example.com is limiting requests (429). Try again in 60 min.');
    assert.equal(server.requests.length, 1);
    return { result: 'HttpError 429', message, steps, time: within(ms, HANG_BOUND_MS, 'not waited for') };
  });

  // Before the fix, a GET waited up to 10 s per retry whatever the timeout: 20 s of "hang" with a 1 s timeout.
  row('429 with `Retry-After: 2` and a 0.5 s timeout', async () => {
    server.script(faults.status(429, { retryAfter: '2', body: { message: 'Too many requests' } }), faults.json(ENVIRONMENTS));
    const { value: error, ms } = await timed(() => rejection(client(server.url, { timeoutMs: TIMEOUT_MS }).listEnvironments()));
    assert.ok(error instanceof HttpError);
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, 'Could not load the environments. unleash.example.com is limiting requests (429). Try again in 2 s.');
    assert.equal(server.requests.length, 1);
    return { result: 'HttpError 429 (not waited for: longer than the timeout)', message, steps, time: hang(ms) };
  });

  row('429 without Retry-After, every time', async () => {
    server.script(faults.status(429, { body: { message: 'Too many requests' } }));
    const error = await rejection(client(server.url).listEnvironments());
    assert.ok(error instanceof HttpError);
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, 'Could not load the environments. unleash.example.com is limiting requests (429). Try again in a moment.');
    assert.equal(server.requests.length, 3);
    return { result: 'HttpError 429', message, steps };
  });

  row('500, then the answer', async () => {
    server.script(faults.status(500, { body: { id: 'e1', name: 'UnknownError', message: 'Unexpected error' } }), faults.json(ENVIRONMENTS));
    const error = await rejection(client(server.url).listEnvironments());
    assert.ok(error instanceof HttpError);
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, "Could not load the environments. unleash.example.com failed (500: Unexpected error). Try again; if it keeps failing, check the server's logs.");
    assert.equal(server.requests.length, 1, 'a 500 is a server bug: repeating the request would not help');
    return { result: 'HttpError 500 (Retry offered)', message, steps };
  });

  for (const status of [502, 503, 504]) {
    row(`${status}, then the answer`, async () => {
      server.script(faults.status(status, { body: { message: 'upstream trouble' } }), faults.json(ENVIRONMENTS));
      assert.equal((await client(server.url).listEnvironments()).length, 1);
      assert.equal(server.requests.length, 2);
      return { result: 'succeeds' };
    });
  }

  row('502 every time', async () => {
    server.script(faults.status(502, { body: { message: 'Bad gateway' } }));
    const error = await rejection(client(server.url).listEnvironments());
    assert.ok(error instanceof HttpError);
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, "Could not load the environments. unleash.example.com failed (502: Bad gateway). Try again; if it keeps failing, check the server's logs.");
    assert.equal(server.requests.length, 3);
    return { result: 'HttpError 502', message, steps };
  });

  row('503 maintenance mode', async () => {
    server.script(faults.maintenance());
    const error = await rejection(client(server.url).listEnvironments());
    assert.ok(error instanceof HttpError && error.maintenance);
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, 'Could not load the environments. unleash.example.com is in maintenance mode (503). Try again later.');
    assert.equal(server.requests.length, 1, 'maintenance lasts minutes: not retried');
    return { result: 'HttpError 503 (maintenance)', message, steps };
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Cancellation
// ---------------------------------------------------------------------------------------------------------------

group('Cancellation (an AbortSignal from the editor)', () => {
  const cancelCase = (name: string, script: () => void) =>
    row(name, async () => {
      script();
      const controller = new AbortController();
      const pending = rejection(client(server.url).listEnvironments({ signal: controller.signal }));
      await server.waitForRequests(1);
      await new Promise((resolve) => setTimeout(resolve, 30));
      const { value: error, ms } = await timed(async () => {
        controller.abort();
        return pending;
      });
      assert.ok(error instanceof CancelledError);
      const { formatted, message, steps } = shown(error, LOAD);
      assert.equal(formatted.silent, true);
      await server.waitForClientClose(0);
      assert.equal(server.requests.length, 1);
      return { result: 'CancelledError; the server sees the socket close', message, steps, time: within(ms, 1_000, 'after the abort') };
    });

  cancelCase('cancelled while waiting for headers', () => server.script(faults.stallBeforeHeaders()));
  cancelCase('cancelled in the middle of the body', () => server.script(faults.stallMidBody()));

  row('cancelled while waiting to retry', async () => {
    server.script(faults.status(503, { body: { message: 'busy' } }));
    const controller = new AbortController();
    const backoffMs = 10_000;
    const pending = rejection(client(server.url, { retryBaseMs: backoffMs }).listEnvironments({ signal: controller.signal }));
    await server.waitForRequests(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { value: error, ms } = await timed(async () => {
      controller.abort();
      return pending;
    });
    assert.ok(error instanceof CancelledError);
    const { message, steps } = shown(error, LOAD);
    assert.equal(server.requests.length, 1, 'no retry after the cancellation');
    return { result: 'CancelledError', message, steps, time: within(ms, 1_000, `the ${backoffMs / 1000} s backoff is cut short`) };
  });
});

// ---------------------------------------------------------------------------------------------------------------
// TLS
// ---------------------------------------------------------------------------------------------------------------

group('TLS (certificates made by openssl at test time)', () => {
  const skip = HAS_OPENSSL ? false : 'openssl is not installed';
  const tlsServer = async (identity: (c: ReturnType<typeof testCertificates>) => TlsIdentity) => fault({ tls: identity(testCertificates()) });

  const failing = (name: string, identity: (c: ReturnType<typeof testCertificates>) => TlsIdentity, network: () => ClientOptions['network'], code: string, expected: string, host = '127.0.0.1') =>
    row(name, async () => {
      const https = await tlsServer(identity);
      const error = await rejection(client(`https://${host}:${https.port}`, { network: network() }).listEnvironments());
      assert.ok(error instanceof NetworkError);
      assert.equal(error.code, code);
      const { message, steps } = shown(error, LOAD);
      assert.equal(message, expected);
      assert.equal(https.requests.length, 0, 'no request is sent over a connection that failed its checks');
      assert.equal(retries(), 0, 'a certificate problem does not go away by asking again');
      return { result: `NetworkError ${code}`, message, steps };
    }, { skip });

  const succeeding = (name: string, identity: (c: ReturnType<typeof testCertificates>) => TlsIdentity, network: () => ClientOptions['network'], host = '127.0.0.1') =>
    row(name, async () => {
      const https = await tlsServer(identity);
      https.script(faults.json(ENVIRONMENTS));
      assert.equal((await client(`https://${host}:${https.port}`, { network: network() }).listEnvironments()).length, 1);
      assert.equal(https.requests.length, 1);
      return { result: 'succeeds' };
    }, { skip });

  failing('self-signed certificate', (c) => c.selfSigned, () => ({}), 'DEPTH_ZERO_SELF_SIGNED_CERT',
    'Could not load the environments. Could not verify the TLS certificate of unleash.example.com (DEPTH_ZERO_SELF_SIGNED_CERT). If it uses a private certificate authority, add its PEM file to unleash.network.caCertificates.');
  succeeding('self-signed certificate, listed in `unleash.network.caCertificates`', (c) => c.selfSigned, () => ({ extraCaCertificates: [testCertificates().selfSigned.cert] }));
  succeeding('self-signed certificate, `unleash.network.rejectUnauthorized: false`', (c) => c.selfSigned, () => ({ rejectUnauthorized: false }));
  failing('certificate from a private CA, CA not given', (c) => c.caSigned, () => ({}), 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'Could not load the environments. Could not verify the TLS certificate of unleash.example.com (UNABLE_TO_VERIFY_LEAF_SIGNATURE). If it uses a private certificate authority, add its PEM file to unleash.network.caCertificates.');
  succeeding('certificate from a private CA, CA in `unleash.network.caCertificates` (127.0.0.1)', (c) => c.caSigned, () => ({ extraCaCertificates: [testCertificates().caCert] }));
  succeeding('certificate from a private CA, CA in `unleash.network.caCertificates` (localhost)', (c) => c.caSigned, () => ({ extraCaCertificates: [testCertificates().caCert] }), 'localhost');
  // Before the fix these three were told to add a CA certificate, which cannot help.
  failing('certificate for another host name', (c) => c.wrongHost, () => ({ extraCaCertificates: [testCertificates().caCert] }), 'ERR_TLS_CERT_ALTNAME_INVALID',
    'Could not load the environments. The TLS certificate of unleash.example.com was issued for another host name (ERR_TLS_CERT_ALTNAME_INVALID). Use the host name the certificate names in unleash.serverUrl.');
  failing('expired certificate', (c) => c.expired, () => ({ extraCaCertificates: [testCertificates().caCert] }), 'CERT_HAS_EXPIRED',
    "Could not load the environments. The TLS certificate of unleash.example.com has expired (CERT_HAS_EXPIRED). Check this computer's clock, and ask the server's administrator to renew the certificate.");

  row('`https://` to a server that speaks plain HTTP', async () => {
    const error = await rejection(client(`https://127.0.0.1:${server.port}`).listEnvironments());
    assert.ok(error instanceof NetworkError);
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, "Could not load the environments. unleash.example.com does not speak HTTPS at this address (ERR_SSL_WRONG_VERSION_NUMBER). Check the port in unleash.serverUrl: use the https:// address you open Unleash at, or ask the server's administrator for it.");
    assert.equal(server.requests.length, 0);
    return { result: 'NetworkError ERR_SSL_WRONG_VERSION_NUMBER', message, steps };
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Proxy (VS Code's http.proxy)
// ---------------------------------------------------------------------------------------------------------------

group('Proxy (`http.proxy`, through undici\'s ProxyAgent)', () => {
  row('HTTP server through the proxy', async () => {
    const via = await proxy();
    server.script(faults.json(ENVIRONMENTS));
    assert.equal((await client(server.url, { network: { proxy: via.url } }).listEnvironments()).length, 1);
    assert.deepEqual(via.seen.map((s) => `${s.method} ${s.target}`), [`CONNECT 127.0.0.1:${server.port}`]);
    assert.equal(server.requests.length, 1);
    return { result: 'succeeds; the proxy saw the CONNECT' };
  });

  row('HTTPS server (private CA) through the proxy', async () => {
    const https = await fault({ tls: testCertificates().caSigned });
    https.script(faults.json(ENVIRONMENTS));
    const via = await proxy();
    const c = client(`https://localhost:${https.port}`, { network: { proxy: via.url, extraCaCertificates: [testCertificates().caCert] } });
    assert.equal((await c.listEnvironments()).length, 1);
    assert.deepEqual(via.seen.map((s) => `${s.method} ${s.target}`), [`CONNECT localhost:${https.port}`]);
    return { result: 'succeeds; the proxy saw the CONNECT' };
  }, { skip: HAS_OPENSSL ? false : 'openssl is not installed' });

  // Before the fix, `host:port` without a scheme (as curl and many users write it) threw a TypeError.
  row('`http.proxy` without a scheme (`127.0.0.1:PORT`)', async () => {
    const via = await proxy();
    server.script(faults.json(ENVIRONMENTS));
    assert.equal((await client(server.url, { network: { proxy: `127.0.0.1:${via.port}` } }).listEnvironments()).length, 1);
    assert.equal(via.seen.length, 1);
    return { result: 'succeeds (read as http://)' };
  });

  row('proxy asks for credentials that are not given (407)', async () => {
    const via = await proxy({ credentials: 'me:hunter2' });
    const error = await rejection(client(server.url, { network: { proxy: via.url } }).listEnvironments());
    assert.ok(error instanceof NetworkError);
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, `Could not load the environments. The proxy 127.0.0.1:${via.port} (http.proxy) asks for a user name and password (407). Put them in http.proxy (http://user:password@host:port), or ask your network administrator.`);
    assert.equal(server.requests.length, 0);
    return { result: 'NetworkError (proxy 407)', message: message.replace(String(via.port), 'PORT'), steps };
  });

  row('proxy credentials in `http.proxy`', async () => {
    const via = await proxy({ credentials: 'me:hunter2' });
    server.script(faults.json(ENVIRONMENTS));
    assert.equal((await client(server.url, { network: { proxy: `http://me:hunter2@127.0.0.1:${via.port}` } }).listEnvironments()).length, 1);
    assert.equal(via.seen[0]?.proxyAuthorization, `Basic ${Buffer.from('me:hunter2').toString('base64')}`);
    return { result: 'succeeds; the proxy saw Basic credentials' };
  });

  row('proxy refuses connections', async () => {
    const port = await closedPort();
    const error = await rejection(client(server.url, { network: { proxy: `http://me:hunter2@127.0.0.1:${port}` } }).listEnvironments());
    assert.ok(error instanceof NetworkError);
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, `Could not load the environments. Could not connect to the proxy 127.0.0.1:${port} (ECONNREFUSED). Check http.proxy, or clear it if this network needs no proxy.`);
    assert.ok(!message.includes('hunter2'));
    assert.equal(retries(), 2);
    return { result: 'NetworkError ECONNREFUSED (the proxy)', message: message.replace(String(port), 'PORT'), steps };
  });

  row('proxy cannot reach the server (502 to CONNECT)', async () => {
    const via = await proxy();
    const port = await closedPort();
    const error = await rejection(client(`http://127.0.0.1:${port}`, { network: { proxy: via.url } }).listEnvironments());
    assert.ok(error instanceof NetworkError);
    const { message, steps } = shown(error, LOAD);
    assert.equal(message, `Could not load the environments. The proxy 127.0.0.1:${via.port} (http.proxy) would not connect to unleash.example.com (502). Check unleash.serverUrl and http.proxy, or ask your network administrator.`);
    assert.equal(via.seen.length, 1);
    return { result: 'NetworkError (proxy 502)', message: message.replace(String(via.port), 'PORT'), steps };
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Secrets
// ---------------------------------------------------------------------------------------------------------------

group('Secrets (the server echoes the Authorization header)', () => {
  const echoCase = (name: string, status: number, form: 'raw' | 'bearer' | 'percent', token: string, ErrorClass: new (...args: never[]) => Error, expected: string, requests: number) =>
    row(name, async () => {
      server.script(faults.echoAuth(status, form));
      const error = await rejection(client(server.url, { getToken: () => token }).listEnvironments());
      assert.ok(error instanceof ErrorClass);
      assert.ok(server.requests[0]?.headers.authorization === token, 'the server did get the token');
      const { message, steps } = shown(error, LOAD);
      assert.equal(message, expected);
      assert.equal(server.requests.length, requests);
      return { result: `${ErrorClass.name}; «token» in place of the token`, message, steps };
    });

  echoCase('401 echoing the token', 401, 'raw', TOKEN, AuthError,
    'Could not load the environments. unleash.example.com rejected the API token (401: Rejected Authorization: «token»). It may be mistyped, expired or deleted: set a new one.', 1);
  echoCase('503 echoing `Bearer <token>`, retried (the log lines too)', 503, 'bearer', TOKEN, HttpError,
    "Could not load the environments. unleash.example.com failed (503: Rejected Authorization: Bearer «token»). Try again; if it keeps failing, check the server's logs.", 3);
  echoCase('400 echoing the token in `details`', 400, 'raw', `Bearer ${TOKEN}`, BadRequestError,
    'Could not load the environments. The server refused the request (400): header was «token».', 1);
  // Before the fix, only what follows a `.` counted as the secret: `user:<secret>` percent-encoded went through.
  echoCase('403 echoing a personal access token percent-encoded', 403, 'percent', PAT, ForbiddenError,
    'Could not load the environments. The API token has no permission for this (403: Rejected Authorization: user%3A«token»). Ask an Unleash admin for access, or use another token.', 1);
});

// ---------------------------------------------------------------------------------------------------------------
// Data safety: exports
// ---------------------------------------------------------------------------------------------------------------

group('Data safety (Export Environment: POST, never retried)', () => {
  const fixture = JSON.parse(readFileSync(path.join(__dirname, '..', 'fixtures', 'export-development.json'), 'utf8')) as Record<string, unknown>;
  let dir: string;
  const target = () => path.join(dir, '.unleash', 'development.json');
  const EXPORT = 'export development';

  beforeEach(async () => {
    dir = await fsp.mkdtemp(path.join(tmpdir(), 'reliability-export-'));
  });
  afterEach(async () => {
    await fsp.rm(dir, { recursive: true, force: true });
  });

  async function previousFile(): Promise<Buffer> {
    const bytes = Buffer.from(serializeExport({ ...fixture, features: [] }), 'utf8');
    await fsp.mkdir(path.dirname(target()), { recursive: true });
    await fsp.writeFile(target(), bytes);
    return bytes;
  }

  async function files(): Promise<string[]> {
    const entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/')).sort();
  }

  async function assertIntact(previous: Buffer): Promise<void> {
    assert.deepEqual(await fsp.readFile(target()), previous, 'the previous file is byte-identical');
    assert.deepEqual(await files(), ['.unleash/development.json'], 'no temporary file is left');
  }

  // The export request alone: the segment listing that follows an export using segments is tested in
  // exportToFile.test.ts; these rows are about the export's single POST and the file.
  const run = (c: UnleashClient, signal?: AbortSignal) =>
    exportToFile({ client: { exportFeatures: c.exportFeatures.bind(c) }, environment: 'development', scope: { kind: 'all' }, folder: dir, signal });

  const serverFailure = (name: string, script: () => void, ErrorClass: new (...args: never[]) => Error, expected: string, timeoutMs?: number) =>
    row(name, async () => {
      const previous = await previousFile();
      script();
      const { value: error, ms } = await timed(() => rejection(run(client(server.url, timeoutMs ? { timeoutMs } : {}))));
      assert.ok(error instanceof ErrorClass, String(error));
      const { message, steps } = shown(error, EXPORT);
      assert.equal(message, expected);
      assert.equal(server.requests.length, 1, 'an export is never repeated: each one stores an audit event');
      assert.equal(server.requests[0]?.method, 'POST');
      await assertIntact(previous);
      return {
        result: 'file unchanged, no temporary file',
        message,
        steps,
        ...(timeoutMs ? { time: hang(ms) } : {}),
      };
    });

  serverFailure('server error (500)', () => server.script(faults.status(500, { body: { message: 'Unexpected error' } })), HttpError,
    "Could not export development. unleash.example.com failed (500: Unexpected error). Try again; if it keeps failing, check the server's logs.");
  serverFailure('503 (retried for a GET, not for an export)', () => server.script(faults.status(503, { body: { message: 'busy' } }), faults.json(fixture)), HttpError,
    "Could not export development. unleash.example.com failed (503: busy). Try again; if it keeps failing, check the server's logs.");
  serverFailure('429 with `Retry-After: 0`', () => server.script(faults.status(429, { retryAfter: '0' }), faults.json(fixture)), HttpError,
    'Could not export development. unleash.example.com is limiting requests (429). Try again in a moment.');
  serverFailure('socket closed in the middle of the body', () => server.script(faults.closeMidBody(), faults.json(fixture)), NetworkError,
    'Could not export development. Lost the connection to unleash.example.com (UND_ERR_SOCKET). Try again.');
  serverFailure('stalls in the middle of the body', () => server.script(faults.stallMidBody()), TimeoutError,
    'Could not export development. unleash.example.com did not answer within 0.5 s. Try again, or raise unleash.requestTimeoutSeconds.', TIMEOUT_MS);
  serverFailure('an HTML login page with 200', () => server.script(faults.loginPage()), SchemaError,
    'Could not export development. Unexpected answer from the server: the server answered with an HTML page instead of JSON (is the URL your Unleash server, or is a proxy or login page in the way?). Check that unleash.serverUrl points at an Unleash server; the log has details.');

  row('sends the export a byte every 100 ms (each read within the timeout, the whole never ending)', async () => {
    const previous = await previousFile();
    server.script(faults.trickle(100));
    // The live client streams the answer to the file; its whole-export deadline (ten minutes) made short here.
    const c = client(server.url, { timeoutMs: TIMEOUT_MS, streamDeadlineMs: DEADLINE_MS });
    const { value: error, ms } = await timed(() => rejection(exportToFile({ client: c, environment: 'development', scope: { kind: 'all' }, folder: dir })));
    assert.ok(error instanceof DeadlineError, String(error));
    assert.ok(error.receivedBytes > 13, `${error.receivedBytes} bytes received`);
    const { message, steps } = shown(error, EXPORT);
    assert.equal(
      message,
      'Could not export development. unleash.example.com was still sending the export after 1.5 s, so it was stopped; the previous file is unchanged. Check the server and the network to it, or export a smaller scope (a project or a tag).',
    );
    assert.equal(server.requests.length, 1, 'an export is never repeated: each one stores an audit event');
    await server.waitForClientClose(0);
    await assertIntact(previous);
    return { result: 'stopped at the deadline; file unchanged, no temporary file', message, steps, time: within(ms, DEADLINE_MS + 1_000, `deadline ${DEADLINE_MS / 1000} s`) };
  });

  row('cancelled while the server is answering', async () => {
    const previous = await previousFile();
    server.script(faults.stallMidBody());
    const controller = new AbortController();
    const pending = rejection(run(client(server.url), controller.signal));
    await server.waitForRequests(1);
    controller.abort();
    const error = await pending;
    assert.ok(error instanceof CancelledError);
    const { message, steps } = shown(error, EXPORT);
    await server.waitForClientClose(0);
    await assertIntact(previous);
    return { result: 'file unchanged, no temporary file; the server sees the socket close', message, steps };
  });

  // The disk-full stand-in: a folder on the path that is a file. The tests run as root, and root writes through a
  // read-only chmod, so a read-only folder would not stop the write here (exportToFile.test.ts mocks ENOSPC itself).
  row('the target folder cannot be created (its parent is a file)', async () => {
    await fsp.writeFile(path.join(dir, '.unleash'), 'not a folder\n');
    server.script(faults.json(fixture));
    const error = await rejection(run(client(server.url)));
    assert.ok(error instanceof ExportWriteError);
    assert.equal(error.message, 'Could not write .unleash/development.json: a part of its folder path is a file, not a folder. The previous file, if any, was left as it was.');
    assert.equal(await fsp.readFile(path.join(dir, '.unleash'), 'utf8'), 'not a folder\n');
    assert.deepEqual(await files(), ['.unleash']);
    assertNoSecret(error.message, error.stack);
    return { result: 'ExportWriteError; nothing written', message: error.message, steps: 'Retry, Show Log' };
  });

  row('ten concurrent exports to the same file, answers arriving out of order', async () => {
    const bodies = Array.from({ length: 10 }, (_, i) => ({ ...fixture, features: (fixture.features as Array<Record<string, unknown>>).map((f) => ({ ...f, description: `export ${i} `.repeat(200) })) }));
    server.script(...bodies.map((body, i) => faults.json(body, { delayMs: (i * 37) % 120 })));
    const c = client(server.url);
    const results = await Promise.all(bodies.map(() => run(c)));
    const written = await fsp.readFile(target(), 'utf8');
    const complete = new Set(bodies.map((body) => serializeExport(body)));
    assert.ok(complete.has(written), 'the file is one whole export, never a mix');
    assert.deepEqual(await files(), ['.unleash/development.json']);
    assert.equal(results.filter((r) => r.changed).length, 10);
    return { result: 'the file is one complete export; no temporary file', requests: { note: 'one each' } };
  });

  row('the server echoes the token inside the export', async () => {
    server.script(faults.json((request) => ({ ...fixture, features: [{ name: 'echo', description: `token ${String(request.headers.authorization)}` }] })));
    const result = await run(client(server.url));
    const text = await fsp.readFile(result.path, 'utf8');
    assertNoSecret(text);
    assert.match(text, /token «token»/);
    return { result: 'the file holds «token», never the token' };
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Hostile data: what a server (or an export file) stores is shown inert and bounded
// ---------------------------------------------------------------------------------------------------------------

/** 10,000 characters of everything that could render as something else: markdown, HTML, links, icons, controls. */
function hostileText(tag: string): string {
  const payload =
    `${tag} **bold** _em_ # heading <img src=x onerror=alert(1)> <script>alert(1)</script> ` +
    '[run](command:workbench.action.terminal.new) [js](javascript:alert(1)) [file](file:///etc/passwd) ' +
    '![pixel](https://evil.example/t.png) <javascript:alert(1)> <https://evil.example/auto> $(alert) ' +
    '\u202eevil\u202c \u2066iso\u2069 \u0007\u0000\u001b[31m\r\n| a | b |\n```\ncode\n``` &amp; &#x3C; \\';
  return (payload + 'x'.repeat(10_000)).slice(0, 10_000);
}

const HOSTILE_URLS = [
  'javascript:alert(1)',
  'command:workbench.action.terminal.new',
  'file:///etc/passwd',
  'data:text/html,<script>alert(1)</script>',
  'vscode://settings/x',
  ' JaVaScRiPt:alert(1)',
  `https://ok.example/${'p'.repeat(10_000)}`,
];
const SAFE_URL = 'https://flags.example.com/docs?q=<x>';

function hostileData(): { summary: FeatureSummary; details: Feature; segments: Segment[] } {
  const h = hostileText;
  const constraint = (tag: string) => ({
    contextName: h(`${tag}-context`),
    operator: h(`${tag}-operator`),
    // Two 10,000-character values, then a thousand short ones: long lists and long items, without gigabytes.
    values: [h(`${tag}-value-a`), h(`${tag}-value-b`), ...Array.from({ length: 1_000 }, (_, i) => `${tag}-${i}`)],
    value: h(`${tag}-single-value`),
    inverted: true,
  });
  const environment = (i: number) => ({
    name: h(`env-${i}`),
    enabled: i % 2 === 0,
    type: h('env-type'),
    lastSeenAt: h('last-seen'),
    strategies: Array.from({ length: 8 }, (_, k) => ({
      id: h('strategy-id'),
      name: h(`strategy-${k}`),
      title: h('strategy-title'),
      disabled: k % 3 === 0,
      segments: [1, 1, 2],
      constraints: [constraint('c'), constraint('d')],
      parameters: { rollout: h('rollout'), stickiness: h('stickiness'), groupId: h('group'), [h('param-key')]: h('param-value') },
      variants: [{ name: h('strategy-variant'), weight: 1000, weightType: h('weight-type'), stickiness: h('stick'), payload: { type: h('payload-type'), value: h('payload') } }],
    })),
    variants: [{ name: h('env-variant'), weight: 1000, payload: { type: 'json', value: h('json-payload') }, overrides: [{ contextName: h('override'), values: [h('ov')] }] }],
  });
  const tags = Array.from({ length: 50 }, (_, i) => ({ type: h(`tag-type-${i}`), value: h(`tag-value-${i}`) }));
  const name = h('name');
  const project = h('project');
  const summary = {
    name,
    project,
    type: h('type'),
    description: h('description'),
    stale: true,
    tags,
    lifecycle: { stage: h('stage'), enteredStageAt: h('entered') },
    environments: Array.from({ length: 15 }, (_, i) => ({ name: h(`env-${i}`), enabled: true, type: h('env-type'), lastSeenAt: h('seen') })),
  } as FeatureSummary;
  const details = {
    name,
    project,
    type: h('type'),
    description: h('description'),
    stale: true,
    archived: true,
    environments: Array.from({ length: 15 }, (_, i) => environment(i)),
    variants: Array.from({ length: 50 }, (_, i) => ({ name: h(`variant-${i}`), weight: 20, stickiness: h('stick'), payload: { type: h('ptype'), value: h('payload') } })),
    tags,
    links: [...HOSTILE_URLS, SAFE_URL].map((url, i) => ({ id: h(`link-${i}`), url, title: h(`link-title-${i}`) })),
    dependencies: [{ feature: h('parent'), enabled: false, variants: [h('dependency-variant')] }],
    children: Array.from({ length: 20 }, (_, i) => h(`child-${i}`)),
    lifecycle: { stage: h('stage'), enteredStageAt: h('entered') },
  } as Feature;
  const segments = [1, 2].map((id) => ({ id, name: h(`segment-${id}`), description: h('segment-description'), constraints: [constraint('s')], createdAt: h('created') })) as Segment[];
  return { summary, details, segments };
}

const silentLog = { info: () => undefined, error: () => undefined };

/** markdown-it (CommonMark, as VS Code renders an untrusted MarkdownString: no HTML), made to keep every link. */
const renderer = new MarkdownIt({ html: false });
renderer.validateLink = () => true;

/**
 * Markdown built from hostile data renders as plain text: no emphasis or heading from the data, no HTML element,
 * no image, and only http(s) links or our own commands.
 */
function assertInertMarkdown(markdown: string, allowedCommands: readonly string[] = []): void {
  assert.ok(!CONTROL.test(markdown.replace(/\n/g, '')), 'no control or bidirectional characters');
  const html = renderer.render(markdown);
  for (const tag of ['img', 'script', 'iframe', 'style', 'form', 'input', 'h1', 'h2', 'pre']) {
    assert.ok(!new RegExp(`<${tag}[\\s>]`, 'i').test(html), `no <${tag}> from the data`);
  }
  assert.ok(!/<strong>bold<\/strong>|<em>em<\/em>/.test(html), 'markdown in the data is shown as written');
  for (const [, href] of html.matchAll(/href="([^"]*)"/g)) {
    const ok = /^https?:\/\//i.test(href ?? '') || allowedCommands.some((command) => (href ?? '').startsWith(`command:${command}?`));
    assert.ok(ok, `a link that must not be offered: ${href?.slice(0, 80)}`);
  }
}

function assertPlainLine(text: string | undefined, max: number, what: string): void {
  if (text === undefined) return;
  assert.ok(text.length <= max, `${what} is ${text.length} characters, more than ${max}`);
  assert.ok(!CONTROL.test(text), `${what} holds a control or bidirectional character`);
}

group('Hostile flag data (markdown, HTML, command:/javascript:/file: links, controls, RTL marks, 10,000 characters)', () => {
  row('the Flags tree, every row expanded', async () => {
    const { summary, details, segments } = hostileData();
    const source: FlagSource = {
      kind: 'server',
      label: hostileText('source'),
      listFeatures: async () => [summary],
      getFeature: async () => details,
      getStrategySegments: async () => segments,
      listEnvironments: async () => [hostileText('env')],
      webUrl: () => 'javascript:alert(document.cookie)',
    };
    const store = new FlagStore(silentLog);
    void store.load(); // needed from the start: setSource reads the list
    await store.setSource(source, 'ready');
    const nodes: TreeNode[] = [];
    let level = await childrenOf(undefined, store);
    for (let depth = 0; level.length > 0 && depth < 10; depth++) {
      nodes.push(...level);
      const next: TreeNode[] = [];
      for (const node of level) next.push(...(await childrenOf(node, store)));
      level = next;
    }
    assert.ok(nodes.length > 50, `walked ${nodes.length} rows`);
    assert.ok(nodes.some((n) => n.kind === 'segment'), 'segments were expanded');
    assert.equal(new Set(nodes.map((n) => n.id)).size, nodes.length, 'ids are unique');
    let tooltipChars = 0;
    for (const node of nodes) {
      assert.notEqual(node.kind, 'error', `a row failed: ${node.label}`);
      assertPlainLine(node.label, MAX_LABEL, `${node.kind} label`);
      assertPlainLine(node.description, MAX_DETAIL, `${node.kind} description`);
      if (node.tooltip !== undefined) {
        assert.ok(node.tooltip.length <= MAX_TOOLTIP, `${node.kind} tooltip is ${node.tooltip.length} characters`);
        assertInertMarkdown(node.tooltip);
        tooltipChars = Math.max(tooltipChars, node.tooltip.length);
      }
      if (node.url !== undefined) assert.match(node.url, /^https?:\/\//);
    }
    const offered = nodes.map((n) => n.url).filter((url): url is string => url !== undefined);
    assert.deepEqual(offered, [new URL(SAFE_URL).href], 'only the http(s) link is offered to open');
    return {
      result: `inert and bounded: every row's label ≤ ${MAX_LABEL}, description ≤ ${MAX_DETAIL}, tooltip ≤ ${MAX_TOOLTIP} characters; ${offered.length} of ${details.links?.length} links offered (the https one)`,
      requests: 'none',
    };
  });

  row('the hover of a hostile flag, and of an unknown hostile name', async () => {
    const { summary, details } = hostileData();
    const matches = Array.from({ length: 20 }, () => ({ summary, details }));
    const markdown = hoverMarkdown({
      matches,
      sourceLabel: hostileText('source'),
      webUrl: () => 'javascript:alert(1)',
      now: new Date('2025-01-01T00:00:00Z'),
    });
    const bound = HOVER_LIMITS.hoverLength * 2;
    assert.ok(markdown.length < bound, `the hover is ${markdown.length} characters`);
    assertInertMarkdown(markdown, ['unleash.revealFlag', 'unleash.copyFlagName']);
    const links = [...renderer.render(markdown).matchAll(/href="(https?:[^"]*)"/g)].map((m) => m[1]);
    assert.ok(links.every((href) => href === new URL(SAFE_URL).href.replace(/&/g, '&amp;')), `only the https link: ${links.join(', ').slice(0, 200)}`);
    const unknown = unknownFlagMarkdown(hostileText('unknown'), hostileText('source'), hostileText('sdk'));
    assert.ok(unknown.length < 2_000);
    assertInertMarkdown(unknown);
    return { result: `inert; < ${bound.toLocaleString('en-US')} characters for ${matches.length} projects of ${(summary.description ?? '').length.toLocaleString('en-US')}-character fields; only the https link and our own commands`, requests: 'none' };
  });

  row('a server error message holding a `command:` link, HTML and RTL marks', async () => {
    server.script(faults.status(500, { body: { message: `[Fix it](command:workbench.action.terminal.new) <b>now</b> \u202egnp.exe\u202c ${'y'.repeat(5_000)}` } }));
    const error = await rejection(client(server.url).listEnvironments());
    const { message, steps } = shown(error, LOAD);
    // VS Code's own pattern for links in a notification (src/vs/workbench/common/notifications.ts).
    const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
    assert.ok(!NOTIFICATION_LINK.test(message), 'no link can form in a notification');
    assert.ok(NOTIFICATION_LINK.test(`${message} [Fix it](command:x)`), 'the pattern does find a link');
    assert.ok(!CONTROL.test(message));
    assert.ok(message.length <= 1_000);
    const store = new FlagStore(silentLog);
    void store.load(); // needed from the start: setSource reads the list
    const failing: FlagSource = { kind: 'server', label: 'x', listFeatures: async () => [{ name: 'a', project: 'p' } as FeatureSummary], getFeature: async () => { throw error; }, getStrategySegments: async () => [], listEnvironments: async () => [] };
    await store.setSource(failing, 'ready');
    const [flag] = await childrenOf(undefined, store);
    const [errorRow] = await childrenOf(flag, store);
    assert.equal(errorRow?.kind, 'error');
    assertPlainLine(errorRow?.label, MAX_LABEL, 'error row');
    assertInertMarkdown(errorRow?.tooltip ?? '');
    const shownText = `${message.slice(0, 160)}…`;
    return { result: 'notification and error row are plain text (no link, no RTL), ≤ 1,000 characters', message: shownText, steps };
  });

  row('export paths from hostile environment and project names', async () => {
    const folder = path.join(tmpdir(), 'hostile-export-folder');
    const names = ['..', '../..', '../../etc/passwd', '/etc/passwd', 'C:\\Windows\\System32', '\\\\server\\share', 'a/../../b', '\u202e..', '.', '', ' ', '%2e%2e%2f', '..\u0000', 'CON', 'nul.txt', '~', '$HOME', '${workspaceFolder}', hostileText('env')];
    const templates = ['', '.unleash/${project}/${environment}.json', '${workspaceFolder}/${environment}', 'exports/${scope}/', '${project}${environment}'];
    let checked = 0;
    for (const template of templates) {
      for (const environment of names) {
        for (const project of names) {
          const file = resolveExportPath({ template, folder, environment, project, scope: project });
          const relative = path.relative(folder, file);
          assert.ok(relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative), `${JSON.stringify([template, environment, project])} → ${file}`);
          for (const part of relative.split(path.sep)) assert.ok(Buffer.byteLength(part) <= 255 && !CONTROL.test(part), part);
          checked++;
        }
      }
    }
    // And end to end: an environment named ../../etc/passwd is exported inside the folder.
    const dir = await fsp.mkdtemp(path.join(tmpdir(), 'reliability-hostile-'));
    try {
      server.script(faults.json({ features: [], featureStrategies: [], tagTypes: [] }));
      const result = await exportToFile({ client: client(server.url), environment: '../../etc/passwd', scope: { kind: 'all' }, folder: dir });
      assert.equal(path.relative(dir, result.path).split(path.sep).join('/'), '.unleash/_.._etc_passwd.json');
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
    return { result: `${checked} combinations, every one inside the folder; \`../../etc/passwd\` → \`.unleash/_.._etc_passwd.json\``, requests: { note: 'the end-to-end export' } };
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Trust and safety (issue 13): test/unit/trustCases.ts
// ---------------------------------------------------------------------------------------------------------------

trustRows({ row, group, fault, client, assertNoSecret, stepsOf, token: TOKEN });

// Proxy and certificates from VS Code's settings and the environment (issue 17): test/unit/networkCases.ts
networkRows({ row, group, fault, client, assertNoSecret, stepsOf, token: TOKEN });

// ---------------------------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------------------------

const DOC = path.join(__dirname, '..', '..', 'docs', 'reliability.md');

function cell(text: string | undefined): string {
  // Outside code spans, `<b>` and the like would render as HTML: escape what could open a tag.
  const escaped = (text ?? '—')
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/<(?=[A-Za-z/!?])/g, '&lt;')))
    .join('');
  return escaped
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, ' ')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT');
}

/**
 * The "Hostile inputs" section is measured by the bench (`npm run bench:hostile -- --write-docs`), not by these tests:
 * its figures change from run to run, so the table keeps it as the file holds it.
 */
function hostileSection(committed: string): string {
  const start = committed.indexOf(HOSTILE_START);
  const end = committed.indexOf(HOSTILE_END, start);
  return start >= 0 && end > start ? `\n${committed.slice(start, end + HOSTILE_END.length)}\n` : '';
}

function renderTable(committed: string): string {
  const lines = [
    '# Reliability: what the user sees when things go wrong',
    '',
    'Every row below is a test in `test/unit/reliability.test.ts`, run against the real client (undici, TLS, a proxy) and',
    'a fault-injecting server on 127.0.0.1 (`test/support/faultServer.ts`, `test/support/proxyServer.ts`). The test writes',
    'this file (`UPDATE_DOCS=1 node --import tsx --test test/unit/reliability.test.ts`) and otherwise fails when the file',
    'differs from what it produced, so the table cannot go stale.',
    '',
    '- **What the user sees** is `formatError(error, { server, action })`, the message shown with its buttons, for a server',
    `  named \`${SERVER}\`. Ports are written PORT.`,
    '- Every **Requests** and **Time** value is measured while the row runs (`test/unit/reliabilityRows.ts`); no row writes',
    '  one by hand, and a row that tries is refused.',
    '- **Requests** counts what reached the server, from the fault servers\' records, and every attempt the client made,',
    '  from undici\'s diagnostics channel (`undici:request:create`), so attempts that never reach a server (a refused',
    '  connection, a failed TLS check, a proxy that fails) count too: `0 of 3 attempts` is three attempts, none of which',
    '  reached it. A retry is a `retry` event of the client followed by another attempt; "through the proxy" means undici',
    '  opened a proxy tunnel (CONNECT) for the attempts. **none** marks a case that sends nothing by design, and the run',
    '  checks that nothing was sent. GETs are retried on connection errors, 429, 502, 503 and 504, at most twice, with',
    '  backoff and `Retry-After` up to 10 s; the export POST is never retried, since each export stores an audit event on',
    '  the server.',
    `- **Time** is a bound the test asserts on the measured elapsed time (\`< 2 s\`: it took less; \`≥ 1 s\`: at least; the`,
    `  tests use a ${TIMEOUT_MS / 1000} s timeout), so the table does not change from run to run.`,
    '- In every row the token appears nowhere: not in the error\'s message, stack or JSON, the formatted message, the log',
    '  lines of the retries, or an exported file.',
    '',
  ];
  let current = '';
  for (const entry of rows) {
    if (entry.section !== current) {
      current = entry.section;
      lines.push(`## ${current}`, '', '| Case | Result | What the user sees | Next steps | Requests | Time |', '| --- | --- | --- | --- | --- | --- |');
    }
    const o = entry.outcome;
    lines.push(`| ${cell(entry.name)} | ${cell(o?.result)} | ${cell(o?.message)} | ${cell(o?.steps)} | ${cell(o?.requests)} | ${cell(o?.time)} |`);
    const next = rows[rows.indexOf(entry) + 1];
    if (!next || next.section !== current) lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n${hostileSection(committed)}`;
}

describe('docs/reliability.md', () => {
  it('is the table these tests produced', (t) => {
    if (rows.some((entry) => !entry.outcome)) {
      t.skip('some rows did not run (filtered, skipped or failed): the table is checked on full runs only');
      return;
    }
    let committed = '';
    try {
      committed = readFileSync(DOC, 'utf8');
    } catch {
      // missing: the assertion below says how to make it
    }
    const table = renderTable(committed);
    if (process.env.UPDATE_DOCS === '1') {
      writeFileSync(DOC, table);
      return;
    }
    assert.equal(committed, table, 'docs/reliability.md is stale: run UPDATE_DOCS=1 node --import tsx --test test/unit/reliability.test.ts');
  });
});
