/**
 * exportToFile against the fake server (test/support/faultServer.ts) and real temporary folders: what lands on disk, when it is (not) written,
 * and that no failure, cancellation or race ever damages the file that was there before.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
// The module object itself, so that a test can make the file system fail with `mock.method`.
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { ServerResponse } from 'node:http';
import { after, afterEach, before, beforeEach, describe, it, mock } from 'node:test';
import { gzipSync } from 'node:zlib';
import { generateDataset } from '../../bench/data';
import { UnleashClient } from '../../src/api/client';
import type { ExportScope } from '../../src/api/exportQuery';
import { CancelledError, HttpError, NetworkError, SchemaError } from '../../src/api/errors';
import { serializeExport } from '../../src/model/export/exportBytes';
import { ExportPathError } from '../../src/model/export/exportPathError';
import { ExportTooLargeError } from '../../src/model/export/exportBudget';
import { formatSize } from '../../src/model/export/exportBudget';
import { exportMessage } from '../../src/model/export/exportMessage';
import { exportToFile, type ExportToFileOptions } from '../../src/model/export/exportToFile';
import { ExportWriteError } from '../../src/model/export/exportWriteError';
import { scopeNames } from '../../src/model/export/exportPath';
import { updatePlan } from '../../src/model/export/exportUpdate';
import { formatError } from '../../src/model/content/formatError';
import { startFaultServer, type FaultRequest, type FaultServer } from '../support/faultServer';

const TOKEN = '*:*.5ec4e7c0ffee5ec4e7c0ffee5ec4e7c0';
const SECRET = TOKEN.slice(TOKEN.lastIndexOf('.') + 1);
const EXPORT_PATH = '/api/admin/features-batch/export';
const fixture = JSON.parse(readFileSync(path.join(__dirname, '..', 'fixtures', 'export-development.json'), 'utf8')) as Record<string, unknown[]>;

let server: FaultServer;
let dir: string;
const clients: UnleashClient[] = [];

function client(): UnleashClient {
  const created = new UnleashClient({ baseUrl: server.url, getToken: () => TOKEN, retryBaseMs: 5, timeoutMs: 5_000 });
  clients.push(created);
  return created;
}

/**
 * The client without its segment listing: these tests are about the export request and the file's safety; the
 * segment definitions have their own tests below.
 */
function exportOnly(c: UnleashClient): Pick<UnleashClient, 'streamExport'> {
  return { streamExport: c.streamExport.bind(c) };
}

function run(overrides: Partial<ExportToFileOptions> = {}) {
  return exportToFile({ client: exportOnly(client()), environment: 'development', scope: { kind: 'all' }, folder: dir, ...overrides });
}

/** The export with every top-level list reversed: what a server that orders differently would send. */
function shuffled(body: Record<string, unknown[]>): Record<string, unknown[]> {
  return Object.fromEntries(Object.entries(body).map(([key, list]) => [key, [...list].reverse()]));
}

function withDescription(description: string): Record<string, unknown[]> {
  const [first, ...rest] = fixture.features as Array<Record<string, unknown>>;
  return { ...fixture, features: [{ ...first, description }, ...rest] };
}

const target = () => path.join(dir, '.unleash', 'development.json');

/** Every file under the folder, relative, sorted: temporary files would show here. */
async function listFiles(folder = dir): Promise<string[]> {
  const entries = await fsp.readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** Writes a previous export and returns its exact bytes. */
async function previousFile(): Promise<Buffer> {
  const content = Buffer.from(serializeExport(withDescription('the previous export')), 'utf8');
  await fsp.mkdir(path.dirname(target()), { recursive: true });
  await fsp.writeFile(target(), content);
  return content;
}

async function assertIntact(previous: Buffer): Promise<void> {
  assert.deepEqual(await fsp.readFile(target()), previous, 'the previous file is byte-identical');
  assert.deepEqual(await listFiles(), ['.unleash/development.json'], 'no temporary file is left behind');
}

function waitForRequest(count = 1): Promise<void> {
  return server.waitForRequests(count);
}

before(async () => {
  server = await startFaultServer();
});
beforeEach(async () => {
  server.requests.length = 0;
  server.handle(() => ({ body: fixture }));
  dir = await fsp.mkdtemp(path.join(tmpdir(), 'export-to-file-'));
});
afterEach(async () => {
  mock.restoreAll();
  await fsp.chmod(path.join(dir, '.unleash'), 0o755).catch(() => undefined);
  await fsp.rm(dir, { recursive: true, force: true });
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server.close();
});

describe('exportToFile: what is written', () => {
  it('writes the canonical export to .unleash/<environment>.json and says what it holds', async () => {
    const result = await run();
    const expected = serializeExport(fixture);
    assert.equal(await fsp.readFile(target(), 'utf8'), expected);
    assert.deepEqual(result, {
      path: target(),
      bytes: Buffer.byteLength(expected),
      flags: 3,
      strategies: 4,
      changed: true,
      existed: false,
      leftoversRemoved: 0,
    });
    assert.ok(expected.endsWith('}\n') && expected.includes('\n  "features": ['), 'two-space indentation and a final newline');
    assert.deepEqual(await listFiles(), ['.unleash/development.json']);
  });

  it('gives a byte-identical file on a second run, and does not touch it', async () => {
    await run();
    const first = await fsp.readFile(target());
    const statBefore = await fsp.stat(target());
    await new Promise((resolve) => setTimeout(resolve, 20));
    server.handle(() => ({ body: shuffled(fixture) }));
    const second = await run();
    assert.equal(second.changed, false);
    assert.equal(second.existed, true);
    assert.equal(second.previous, undefined);
    assert.deepEqual(await fsp.readFile(target()), first);
    const statAfter = await fsp.stat(target());
    assert.equal(statAfter.mtimeMs, statBefore.mtimeMs, 'an unchanged export does not rewrite the file');
    assert.equal(statAfter.ino, statBefore.ino);
  });

  it('replaces a file that differs, and hands back its previous content for a diff', async () => {
    const previous = await previousFile();
    const result = await run();
    assert.equal(result.changed, true);
    assert.equal(result.existed, true);
    assert.equal(result.previous, previous.toString('utf8'));
    assert.equal(await fsp.readFile(target(), 'utf8'), serializeExport(fixture));
  });

  it('reports its steps (request, then write) for the progress notification', async () => {
    const steps: string[] = [];
    await run({ onStep: (step) => steps.push(step) });
    assert.deepEqual(steps, ['request', 'write']);
  });

  it('sends each scope as the spec describes, with downloadFile', async () => {
    const scopes: ExportScope[] = [
      { kind: 'all' },
      { kind: 'project', project: 'checkout' },
      { kind: 'tag', type: 'team', value: 'payments' },
      { kind: 'features', names: ['new-checkout-flow', 'pricing-experiment'] },
    ];
    server.handle((request) => {
      const body = request.json as { tag?: string };
      if (!body.tag) return { body: fixture };
      // The value-only match of a real server: answer only flags carrying team:payments.
      return { body: { ...fixture, features: fixture.features?.slice(0, 1), featureTags: fixture.featureTags?.slice(0, 1) } };
    });
    for (const scope of scopes) await run({ scope, template: '.unleash/${environment}-${scope}.json' });
    assert.deepEqual(
      server.requests.map((request) => request.json),
      [
        { environment: 'development', downloadFile: true, features: [] },
        { environment: 'development', downloadFile: true, project: 'checkout' },
        { environment: 'development', downloadFile: true, tag: 'payments' },
        { environment: 'development', downloadFile: true, features: ['new-checkout-flow', 'pricing-experiment'] },
      ],
    );
    assert.ok(server.requests.every((request) => request.method === 'POST' && request.path === EXPORT_PATH));
    assert.deepEqual(await listFiles(), [
      '.unleash/development-all.json',
      '.unleash/development-checkout.json',
      '.unleash/development-selected.json',
      '.unleash/development-team_payments.json',
    ]);
  });

  it('fills ${project} and ${scope} from the scope', () => {
    assert.deepEqual(scopeNames({ kind: 'all' }), { scope: 'all' });
    assert.deepEqual(scopeNames({ kind: 'project', project: 'checkout' }), { project: 'checkout', scope: 'checkout' });
    assert.deepEqual(scopeNames({ kind: 'tag', type: 'simple', value: 'needs review' }), { scope: 'simple:needs review' });
    assert.deepEqual(scopeNames({ kind: 'features', names: ['one-flag'] }), { scope: 'one-flag' });
    assert.deepEqual(scopeNames({ kind: 'features', names: ['a', 'b'] }), { scope: 'selected' });
  });

  it("Update Export's plan: a file is written again where its name says the environment it declares, else asked or refused", () => {
    const ws = path.resolve('/ws');
    const plan = (file: string, environment: string, scope: ExportScope = { kind: 'features', names: ['a', 'b'] }) =>
      updatePlan({ folder: ws, file: path.join(ws, file), environment, scope });
    assert.deepEqual(plan('.unleash/production.json', 'production', { kind: 'all' }), { kind: 'update', template: '' });
    assert.deepEqual(plan('.unleash/production.selected.json', 'production'), { kind: 'update', template: '' });
    // A project's file, listing the flags it holds: its own path, which names it exactly.
    assert.deepEqual(plan('.unleash/production.checkout.json', 'production'), { kind: 'update', template: '.unleash/production.checkout.json' });
    // An environment named with ${: the default path names its file exactly.
    assert.deepEqual(plan('.unleash/${x}.json', '${x}', { kind: 'all' }), { kind: 'update', template: '' });
    assert.equal(plan('.unleash/notes.json', 'production').kind, 'ask');
    assert.equal(plan('.unleash/staging.json', 'production').kind, 'ask');
    assert.equal(plan('.unleash/staging.production.json', 'production').kind, 'ask');
    assert.equal(plan('.unleash/${scope}.json', 'production').kind, 'refuse');
    assert.equal(plan('.unleash/production.${scope}.json', 'production').kind, 'refuse');
  });

  it('keeps a hostile project name inside the folder', async () => {
    const result = await run({ scope: { kind: 'project', project: '../../etc' }, template: '.unleash/${project}/${environment}.json' });
    assert.equal(path.relative(dir, result.path).split(path.sep).join('/'), '.unleash/_.._etc/development.json');
  });

  it('refuses a template that leaves the folder before asking the server', async () => {
    await assert.rejects(run({ template: '../outside.json' }), (error: unknown) => {
      assert.ok(error instanceof ExportPathError);
      assert.match(error.message, /unleash\.export\.path/);
      return true;
    });
    assert.equal(server.requests.length, 0, 'no export (and no audit event) was requested');
    assert.deepEqual(await listFiles(), []);
  });
});

describe('exportToFile: failures leave the previous file byte-identical', () => {
  it('a 500', async () => {
    const previous = await previousFile();
    server.handle(() => ({ status: 500, body: { name: 'InternalError', message: 'database is down' } }));
    await assert.rejects(run(), HttpError);
    await assertIntact(previous);
  });

  it('the socket closed in the middle of the body', async () => {
    const previous = await previousFile();
    const full = Buffer.from(JSON.stringify(fixture));
    server.handle((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(full.length) });
      res.write(full.subarray(0, Math.floor(full.length / 2)));
      setTimeout(() => res.socket?.destroy(), 20);
    });
    await assert.rejects(run(), NetworkError);
    await assertIntact(previous);
  });

  it('an answer that is not an export (HTML with 200)', async () => {
    const previous = await previousFile();
    server.handle(() => ({ headers: { 'content-type': 'text/html' }, body: '<html>Sign in</html>' }));
    await assert.rejects(run(), SchemaError);
    await assertIntact(previous);
  });

  it('a cancellation while the server is still answering', async () => {
    const previous = await previousFile();
    server.handle(() => new Promise<void>(() => undefined));
    const controller = new AbortController();
    const exporting = run({ signal: controller.signal });
    await waitForRequest();
    controller.abort();
    await assert.rejects(exporting, CancelledError);
    await assertIntact(previous);
  });

  it('a cancellation after the answer arrived, before the write', async () => {
    const previous = await previousFile();
    const controller = new AbortController();
    const cancellingClient = {
      exportFeatures: async () => {
        controller.abort();
        return fixture as never;
      },
    };
    await assert.rejects(run({ client: cancellingClient, signal: controller.signal }), CancelledError);
    await assertIntact(previous);
  });

  it('a cancellation during the write', async () => {
    const previous = await previousFile();
    const controller = new AbortController();
    const realOpen = fsp.open;
    // Cancel once the temporary file exists: its content is then never completed, and never renamed.
    mock.method(fsp, 'open', async (...args: Parameters<typeof fsp.open>) => {
      const handle = await realOpen(...args);
      if (String(args[0]).endsWith('.tmp')) controller.abort();
      return handle;
    });
    await assert.rejects(run({ signal: controller.signal }), CancelledError);
    mock.restoreAll();
    await assertIntact(previous);
  });

  it('a disk that fills up (ENOSPC on the write)', async () => {
    const previous = await previousFile();
    mock.method(fsp, 'rename', async () => {
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    });
    await assert.rejects(run(), (error: unknown) => {
      assert.ok(error instanceof ExportWriteError);
      assert.equal(error.message, 'Could not write .unleash/development.json: the disk is full. The previous file, if any, was left as it was.');
      return true;
    });
    mock.restoreAll();
    await assertIntact(previous);
  });

  it('a read-only folder', { skip: process.platform === 'win32' }, async () => {
    const previous = await previousFile();
    if (process.getuid?.() === 0) {
      // root ignores permissions: fail the temporary file's creation as a read-only folder would.
      mock.method(fsp, 'open', async () => {
        throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      });
    } else {
      await fsp.chmod(path.join(dir, '.unleash'), 0o555);
    }
    await assert.rejects(run(), (error: unknown) => {
      assert.ok(error instanceof ExportWriteError);
      assert.match(error.message, /^Could not write \.unleash\/development\.json: permission denied \(is the folder read-only\?\)/);
      return true;
    });
    mock.restoreAll();
    await fsp.chmod(path.join(dir, '.unleash'), 0o755);
    await assertIntact(previous);
  });

  it('a path whose parent is a file', async () => {
    const blocker = Buffer.from('I am a file, not a folder.\n');
    await fsp.writeFile(path.join(dir, '.unleash'), blocker);
    await assert.rejects(run(), (error: unknown) => {
      assert.ok(error instanceof ExportWriteError);
      assert.match(error.message, /^Could not write \.unleash\/development\.json: a part of its folder path is a file, not a folder\./);
      return true;
    });
    assert.deepEqual(await fsp.readFile(path.join(dir, '.unleash')), blocker);
    assert.deepEqual(await listFiles(), ['.unleash']);
  });
});

describe('exportToFile: what exports killed part-way left', () => {
  /** Makes `file` (under the folder) with `content`, last written `ageMs` ago. */
  async function leftover(file: string, ageMs: number, content = '{"features":[') {
    const full = path.join(dir, file);
    await fsp.mkdir(path.dirname(full), { recursive: true });
    await fsp.writeFile(full, content);
    const when = new Date(Date.now() - ageMs);
    await fsp.utimes(full, when, when);
  }
  const HOUR = 60 * 60_000;

  it("removes the extension's own temporary files older than an hour beside the file, and only those", async () => {
    // Two windows' exports killed part-way (the answer as it came, the laid-out file, a segments file's write).
    await leftover('.unleash/.development.json.4242.0123456789ab.tmp', 2 * HOUR);
    await leftover('.unleash/.development.json.4242.ba9876543210.tmp', 2 * HOUR);
    await leftover('.unleash/.production.json.segments.77.00000000000f.tmp', 30 * HOUR);
    // Another window's export in progress, a user's files, another folder's leftover, a link: all stay.
    await leftover('.unleash/.development.json.5151.abcdefabcdef.tmp', 5 * 60_000);
    await leftover('.unleash/.notes.tmp', 2 * HOUR);
    await leftover('.unleash/development.json.4242.0123456789ab.tmp', 2 * HOUR);
    await leftover('.unleash/.development.json.4242.0123456789AB.tmp', 2 * HOUR);
    await leftover('.unleash/old/.development.json.4242.0123456789ab.tmp', 2 * HOUR);
    await leftover('elsewhere.json', 2 * HOUR);
    await fsp.symlink(path.join(dir, 'elsewhere.json'), path.join(dir, '.unleash', '.linked.json.1.0123456789ab.tmp'));

    const result = await run();
    assert.equal(result.leftoversRemoved, 3);
    assert.deepEqual(await listFiles(), [
      '.unleash/.development.json.4242.0123456789AB.tmp',
      '.unleash/.development.json.5151.abcdefabcdef.tmp',
      '.unleash/.notes.tmp',
      '.unleash/development.json',
      '.unleash/development.json.4242.0123456789ab.tmp',
      '.unleash/old/.development.json.4242.0123456789ab.tmp',
      'elsewhere.json',
    ]);
    assert.ok((await fsp.lstat(path.join(dir, '.unleash', '.linked.json.1.0123456789ab.tmp'))).isSymbolicLink(), 'a link is never removed');
    assert.equal(await fsp.readFile(path.join(dir, 'elsewhere.json'), 'utf8'), '{"features":[');
  });

  it('removes them even when this export fails', async () => {
    await leftover('.unleash/.development.json.4242.0123456789ab.tmp', 2 * HOUR);
    server.handle(() => ({ status: 500, body: { message: 'Unexpected error' } }));
    await assert.rejects(run(), HttpError);
    assert.deepEqual(await listFiles(), []);
  });
});

describe('exportToFile: concurrency and secrets', () => {
  it('concurrent exports to the same file never interleave, and each sees the one before', async () => {
    const bodies = Array.from({ length: 6 }, (_, i) => withDescription(`export number ${i} ${'x'.repeat(20_000 * (i + 1))}`));
    const candidates = new Set(bodies.map((body) => serializeExport(body)));
    server.handle(async (request: FaultRequest) => {
      const index = server.requests.indexOf(request);
      await new Promise((resolve) => setTimeout(resolve, (5 - index) % 2));
      return { body: bodies[index] };
    });
    const results = await Promise.all(bodies.map(() => run()));
    const final = await fsp.readFile(target(), 'utf8');
    assert.ok(candidates.has(final), 'the file is exactly one of the exports');
    assert.equal(results.filter((result) => !result.existed).length, 1, 'only the first write found no file');
    assert.ok(results.every((result) => result.changed));
    for (const result of results.filter((r) => r.existed)) assert.ok(candidates.has(result.previous ?? ''), 'each saw a whole file before it');
    assert.deepEqual(await listFiles(), ['.unleash/development.json']);
  });

  it('never writes the token, even when the server echoes it', async () => {
    server.handle((request) => {
      const echoed = String(request.headers.authorization);
      return {
        body: {
          ...withDescription(`called with ${echoed}`),
          [`debug-${SECRET}`]: { authorization: echoed, secret: SECRET },
        },
      };
    });
    const result = await run();
    const written = await fsp.readFile(target(), 'utf8');
    assert.equal(result.changed, true);
    assert.ok(!written.includes(TOKEN) && !written.includes(SECRET), 'the token is not in the file');
    assert.match(written, /called with «token»/);
  });

  it('never writes the token, even when a piece of the answer ends in the middle of it', async () => {
    const body = Buffer.from(JSON.stringify(withDescription(`called with ${TOKEN}, then ${SECRET}`)), 'utf8');
    const cut = body.indexOf(SECRET) + 5;
    server.handle((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(body.subarray(0, cut));
      setTimeout(() => res.end(body.subarray(cut)), 30);
    });
    await run();
    const written = await fsp.readFile(target(), 'utf8');
    assert.ok(!written.includes(SECRET), 'the token is not in the file');
    assert.match(written, /called with «token», then «token»/);
  });

  it('never puts the token in an error, even when the server echoes it', async () => {
    const previous = await previousFile();
    server.handle((request) => ({ status: 500, body: { message: `bad token ${String(request.headers.authorization)}` } }));
    const error = await run().catch((e: unknown) => e);
    assert.ok(error instanceof HttpError);
    assert.ok(!error.message.includes(SECRET) && !String(error.serverMessage).includes(SECRET));
    await assertIntact(previous);
  });
});

describe('exportToFile: an export larger than its budget', () => {
  /** 300 generated flags in six projects: the answer, and the flags the Flags view would list. */
  const data = generateDataset(300, 5);
  const answer = Buffer.from(JSON.stringify(data.exportFor('development')), 'utf8');
  const listed = data.exportFor('development').features.map((flag) => ({ name: flag.name, project: flag.project }));
  const limit = Math.floor(answer.length / 3);

  /** The answer streamed in pieces, without a length (as a compressing server sends it), or with one. */
  function streaming(options: { declared?: boolean; gzip?: boolean } = {}) {
    return (_request: FaultRequest, res: ServerResponse) => {
      const body = options.gzip ? gzipSync(answer) : answer;
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        ...(options.declared ? { 'content-length': String(body.length) } : {}),
        ...(options.gzip ? { 'content-encoding': 'gzip' } : {}),
      });
      let at = 0;
      const next = (): void => {
        if (at >= body.length) return void res.end();
        const more = res.write(body.subarray(at, (at += 16_384)));
        if (more) setImmediate(next);
        else res.once('drain', next);
      };
      res.on('error', () => undefined);
      next();
    };
  }

  /** The projects whose flags' share of the answer fits, largest first: what the message must offer. */
  function fitting(): string[] {
    const counts = new Map<string, number>();
    for (const flag of listed) counts.set(flag.project, (counts.get(flag.project) ?? 0) + 1);
    return [...counts]
      .filter(([, count]) => (count * answer.length) / listed.length <= limit)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([project]) => project);
  }

  it('says how large it is and which projects fit, writes nothing and leaves the previous file as it was', async () => {
    const previous = await previousFile();
    const fits = fitting();
    assert.ok(fits.length > 0 && fits.length < 6, 'some projects fit, not all');
    for (const how of [{}, { gzip: true }, { declared: true }]) {
      server.requests.length = 0;
      server.handle(streaming(how));
      const error = await run({ maxBytes: limit, flags: listed }).catch((e: unknown) => e);
      assert.ok(error instanceof ExportTooLargeError, `${JSON.stringify(how)}: ${String(error)}`);
      assert.equal(
        error.message,
        `The export of development is ${formatSize(answer.length)}; one export may take ${formatSize(limit)} (unleash.export.maxMegabytes). ` +
          `Export one project at a time (these fit: ${fits.join(', ')}), or raise unleash.export.maxMegabytes to 1. Nothing was written.`,
        JSON.stringify(how),
      );
      assert.equal(formatError(error).message, error.message, 'shown as it is');
      assert.deepEqual([error.bytes, error.exact], [answer.length, true]);
      assert.equal(server.requests.length, 1, 'one request, not retried');
      await assertIntact(previous);
    }
  });

  it('without a previous file, leaves nothing behind, not even the folder it made', async () => {
    server.handle(streaming());
    await assert.rejects(run({ maxBytes: limit, flags: listed }), ExportTooLargeError);
    assert.deepEqual(await fsp.readdir(dir), []);
  });

  it('offers tags when no single project fits, and the kinds of scope when the Flags view lists nothing', async () => {
    server.handle(streaming());
    const oneProject = listed.map((flag, i) => ({ ...flag, project: 'default', tags: [{ type: 'team', value: i % 10 === 0 ? 'small' : 'large' }] }));
    const tags = await run({ maxBytes: limit, flags: oneProject }).catch((e: unknown) => e);
    assert.ok(tags instanceof ExportTooLargeError);
    assert.match(tags.message, /No single project fits: export one tag at a time \(these fit: team:small\), or raise unleash\.export\.maxMegabytes to 1\./);
    const nothing = await run({ maxBytes: limit }).catch((e: unknown) => e);
    assert.ok(nothing instanceof ExportTooLargeError);
    assert.match(nothing.message, /Export one project or one tag at a time, or raise unleash\.export\.maxMegabytes to 1\. Nothing was written\.$/);
  });

  it('past the largest budget, says it is larger than what was counted and that raising the setting does not help', async () => {
    server.handle(streaming());
    const error = await exportToFile({
      client: { streamExport: (query, onBytes, call) => client().streamExport(query, onBytes, { ...call, measureUpTo: limit * 2 }) },
      environment: 'development',
      scope: { kind: 'project', project: 'checkout' },
      folder: dir,
      maxBytes: limit,
    }).catch((e: unknown) => e);
    assert.ok(error instanceof ExportTooLargeError);
    assert.equal(error.exact, false);
    assert.match(error.message, /^The export of development \(project checkout\) is more than [\d.]+ KB; one export may take [\d.]+ KB \(unleash\.export\.maxMegabytes\)\. /);
    assert.match(error.message, /raising unleash\.export\.maxMegabytes does not help past its largest value, 2048\. Nothing was written\.$/);
  });
});

describe('the result message', () => {
  const base = { path: '/w/.unleash/development.json', bytes: 12_698, flags: 7, strategies: 9, changed: true, existed: false };

  it('names the flags, the size, the environment and the file', () => {
    assert.equal(
      exportMessage(base, 'development', { kind: 'all' }, '.unleash/development.json'),
      'Exported 7 flags (12.4 KB) from development to .unleash/development.json.',
    );
  });

  it('says plainly when the file changed, and when it did not', () => {
    assert.equal(
      exportMessage({ ...base, existed: true }, 'development', { kind: 'all' }, '.unleash/development.json'),
      'Exported 7 flags (12.4 KB) from development to .unleash/development.json; it changed since the last export.',
    );
    assert.equal(
      exportMessage({ ...base, existed: true, changed: false }, 'development', { kind: 'all' }, '.unleash/development.json'),
      'Exported 7 flags (12.4 KB) from development to .unleash/development.json: unchanged since the last export.',
    );
  });

  it('says what the scope was', () => {
    const one = { ...base, flags: 1, bytes: 900 };
    assert.match(exportMessage(one, 'production', { kind: 'project', project: 'checkout' }, 'x.json'), /^Exported 1 flag of project checkout \(900 B\) from production/);
    assert.match(exportMessage(base, 'production', { kind: 'tag', type: 'team', value: 'payments' }, 'x.json'), /^Exported 7 flags tagged team:payments \(12\.4 KB\)/);
    assert.match(exportMessage(one, 'production', { kind: 'features', names: ['a'] }, 'x.json'), /^Exported 1 chosen flag \(900 B\)/);
  });

  it('keeps names from the server from forming links in the notification', () => {
    const message = exportMessage(base, '[dev](command:evil)', { kind: 'project', project: 'p\u202e' }, '.unleash/x.json');
    assert.equal(message, 'Exported 7 flags of project p (12.4 KB) from [dev] (command:evil) to .unleash/x.json.');
  });

  it('formats sizes in B, KB and MB', () => {
    assert.deepEqual([0, 1023, 1024, 12_698, 3 * 1024 * 1024 + 200_000].map(formatSize), ['0 B', '1023 B', '1.0 KB', '12.4 KB', '3.2 MB']);
  });
});

describe('exportToFile: segment definitions', () => {
  /** What GET /api/admin/segments answers: the two segments the export uses, one it does not, usage counts. */
  const SEGMENT_LIST = {
    segments: [
      { id: 3, name: 'checkout-eu', description: 'not used here', project: 'checkout', constraints: [], usedInFeatures: 1, createdAt: '2026-01-01T00:00:00.000Z' },
      {
        id: 2,
        name: 'beta-testers',
        description: 'Opted in',
        constraints: [{ values: ['beta', 'alpha'], operator: 'IN', contextName: 'group', inverted: false, caseInsensitive: false }],
        usedInFeatures: 7,
        usedInProjects: 2,
        createdBy: 'admin',
        createdAt: '2026-01-02T00:00:00.000Z',
      },
      { id: 1, name: 'internal-users', description: null, constraints: [{ contextName: 'email', operator: 'STR_ENDS_WITH', values: ['@example.com'] }], usedInFeatures: 3, createdAt: '2026-01-01T00:00:00.000Z' },
    ],
  };
  const routed = (exportBody: unknown, segments: unknown = SEGMENT_LIST) => (request: { path: string }) =>
    request.path === '/api/admin/segments' ? { body: segments } : { body: exportBody };

  it('writes the definitions of the segments used beside the export, which keeps only what the server sent; one request to the segment listing', async () => {
    server.handle(routed(fixture));
    const result = await exportToFile({ client: client(), environment: 'development', scope: { kind: 'all' }, folder: dir });
    const written = JSON.parse(await fsp.readFile(target(), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(written), Object.keys(fixture), 'the export holds what the server sent and nothing else (Unleash imports no other key)');
    assert.equal(result.segmentsPath, `${target()}.segments`);
    assert.deepEqual(await listFiles(), ['.unleash/development.json', '.unleash/development.json.segments']);
    const text = await fsp.readFile(`${target()}.segments`, 'utf8');
    assert.equal(
      text,
      [
        '{',
        '  "segmentDefinitions": [',
        '    {',
        '      "id": 1,',
        '      "name": "internal-users",',
        '      "description": null,',
        '      "constraints": [',
        '        {',
        '          "contextName": "email",',
        '          "operator": "STR_ENDS_WITH",',
        '          "values": [',
        '            "@example.com"',
        '          ]',
        '        }',
        '      ]',
        '    },',
        '    {',
        '      "id": 2,',
        '      "name": "beta-testers",',
        '      "description": "Opted in",',
        '      "constraints": [',
        '        {',
        '          "contextName": "group",',
        '          "operator": "IN",',
        '          "caseInsensitive": false,',
        '          "inverted": false,',
        '          "values": [',
        '            "beta",',
        '            "alpha"',
        '          ]',
        '        }',
        '      ]',
        '    }',
        '  ]',
        '}',
        '',
      ].join('\n'),
    );
    assert.deepEqual(server.requests.map((request) => `${request.method} ${request.path}`), [
      'POST /api/admin/features-batch/export',
      'GET /api/admin/segments',
    ]);
  });

  it('is diff-stable: shuffled answers and changed usage counts give the same bytes', async () => {
    server.handle(routed(fixture));
    await exportToFile({ client: client(), environment: 'development', scope: { kind: 'all' }, folder: dir });
    const first = await fsp.readFile(target(), 'utf8');
    const reordered = { segments: [...SEGMENT_LIST.segments].reverse().map((segment) => ({ ...segment, usedInFeatures: 99 })) };
    server.handle(routed(shuffled(fixture), reordered));
    const second = await exportToFile({ client: client(), environment: 'development', scope: { kind: 'all' }, folder: dir });
    assert.equal(second.changed, false);
    assert.equal(await fsp.readFile(target(), 'utf8'), first);
  });

  it('asks nothing more when the export uses no segments, and removes the segments file an earlier export left', async () => {
    server.handle(routed(fixture));
    await exportToFile({ client: client(), environment: 'development', scope: { kind: 'all' }, folder: dir });
    assert.deepEqual(await listFiles(), ['.unleash/development.json', '.unleash/development.json.segments']);
    server.requests.length = 0;
    const noSegments = { ...fixture, segments: [], featureStrategies: (fixture.featureStrategies as Array<Record<string, unknown>>).map((s) => ({ ...s, segments: [] })) };
    server.handle(routed(noSegments));
    const result = await exportToFile({ client: client(), environment: 'development', scope: { kind: 'all' }, folder: dir });
    assert.equal(result.segmentsPath, undefined);
    assert.deepEqual(await listFiles(), ['.unleash/development.json']);
    assert.deepEqual(server.requests.map((request) => request.path), ['/api/admin/features-batch/export']);
  });

  it('counts a change of the segment definitions alone as a change, and rewrites only the segments file', async () => {
    server.handle(routed(fixture));
    await exportToFile({ client: client(), environment: 'development', scope: { kind: 'all' }, folder: dir });
    const exported = await fsp.stat(target());
    const edited = { segments: SEGMENT_LIST.segments.map((segment) => (segment.id === 2 ? { ...segment, description: 'Opted in, edited' } : segment)) };
    server.handle(routed(fixture, edited));
    const second = await exportToFile({ client: client(), environment: 'development', scope: { kind: 'all' }, folder: dir });
    assert.equal(second.changed, true);
    assert.equal(second.previous, undefined, 'the export itself is unchanged: nothing to diff');
    assert.equal((await fsp.stat(target())).mtimeMs, exported.mtimeMs, 'the export file is not rewritten');
    assert.match(await fsp.readFile(`${target()}.segments`, 'utf8'), /"description": "Opted in, edited"/);
  });
});
