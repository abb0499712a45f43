/**
 * The trust and safety rows of docs/reliability.md (issue 13): what a cloned repository's settings and files can make
 * the extension do. Each case runs the real code (the Connection and the connection commands over the 'vscode'
 * stand-in of test/support/fakeVscode.ts, the client against the fault server, exports on a real disk) and asserts
 * what the user sees, that no token left, and that memory and time stay bounded.
 *
 * reliability.test.ts calls `trustRows()` with its own `row`, `group` and helpers, so these rows join its table.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before } from 'node:test';
import { UnleashClient, type ClientOptions } from '../../src/api/client';
import { ConfigError, TimeoutError } from '../../src/api/errors';
import type { ExportResult } from '../../src/api/exportSchemas';
import { LIST_LIMITS } from '../../src/api/listLimits';
import { tokenSecretKey } from '../../src/base/constants';
import { exportToFile } from '../../src/model/export/exportToFile';
import { ExportWriteError } from '../../src/model/export/exportWriteError';
import { FlagStore } from '../../src/model/store/flagStore';
import { OfflineSource } from '../../src/model/store/offlineSource';
import { approvalQuestion } from '../../src/model/settings/settingRules';
import { MAX_PROJECTS } from '../../src/model/settings/settingLists';
import { viewMessage } from '../../src/model/tree/commandData';
import { MAX_CA_FILE_BYTES, readCaFiles } from '../../src/services/network';
import { formatError } from '../../src/model/content/formatError';
import type { FormattedError } from '../../src/model/content/formattedError';
import { faults, type FaultServer, type startFaultServer } from '../support/faultServer';
import { installFakeVscode, type FakeVscode } from '../support/fakeVscode';
import { editorConnection } from '../support/editorConnection';
import { recordingLogger } from '../support/recordingLogger';
import { workerReads } from '../support/jobs';
import { TimeSlices } from '../../src/base/timeSlices';
import { timed, within as withinBound, type Outcome, type Time } from './reliabilityRows';

export interface TrustHarness {
  row(name: string, fn: () => Promise<Outcome>, options?: { skip?: string | boolean }): void;
  group(title: string, body: () => void): void;
  /** A fault server whose requests the row's meter counts; `name` gives it its own count (`requests: { per: 'server' }`). */
  fault(options?: Parameters<typeof startFaultServer>[0], name?: string): Promise<FaultServer>;
  client(baseUrl: string, overrides?: Partial<ClientOptions>): UnleashClient;
  assertNoSecret(...texts: Array<string | undefined>): void;
  /** The buttons of a formatted error, as the table writes them. */
  stepsOf(formatted: FormattedError): string;
  token: string;
}

const HANG_BOUND_MS = 2_000;
const root = path.join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const nls: Record<string, string> = JSON.parse(readFileSync(path.join(root, 'package.nls.json'), 'utf8'));
const EXPORT = JSON.parse(readFileSync(path.join(root, 'test', 'fixtures', 'export-development.json'), 'utf8')) as ExportResult;

/** The Flags view's welcome text for a state, as package.json words it (its first line). */
function welcome(state: string, extra = ''): string {
  const entry = manifest.contributes.viewsWelcome.find((item: { when: string }) => item.when === `unleash.state == ${state}${extra}`);
  assert.ok(entry, `no welcome content for ${state}`);
  const key = /^%(.+)%$/.exec(entry.contents as string)?.[1];
  const contents: string = key === undefined ? entry.contents : nls[key];
  return contents.split('\n')[0] as string;
}

function page(offset: number, size: number, total: number): object {
  return { features: Array.from({ length: size }, (_, i) => ({ name: `flag-${String(offset + i).padStart(7, '0')}`, project: 'default' })), total };
}

function offsetOf(url: string): number {
  return Number(new URL(url, 'http://x').searchParams.get('offset') ?? 0);
}

/** Runs `fn`, asserts it took less than `bound` ms, and returns the Time cell that says so. */
async function within<T>(bound: number, fn: () => Promise<T>): Promise<{ value: T; time: Time }> {
  const { value, ms } = await timed(fn);
  return { value, time: withinBound(ms, bound) };
}

export function trustRows(h: TrustHarness): void {
  let dir: string;
  let fake: FakeVscode;
  /** Loaded after the 'vscode' stand-in is in place. */
  let registerConnectionCommands: typeof import('../../src/commands/connection').registerConnectionCommands;
  let readSettings: typeof import('../../src/services/settings').readSettings;
  const disposables: Array<{ dispose(): unknown }> = [];
  const { logger } = recordingLogger();

  before(async () => {
    dir = await fsp.mkdtemp(path.join(tmpdir(), 'unleash-trust-'));
    installFakeVscode(dir);
    registerConnectionCommands = (await import('../../src/commands/connection')).registerConnectionCommands;
    readSettings = (await import('../../src/services/settings')).readSettings;
  });
  after(async () => {
    for (const item of disposables) item.dispose();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  /** A fresh editor on a fresh folder: settings, secrets, global state, and the extension's connection and commands. */
  async function editor(options: { env?: Record<string, string>; globalState?: FakeVscode['globalState'] } = {}) {
    const folder = await fsp.mkdtemp(path.join(dir, 'ws-'));
    fake = installFakeVscode(folder);
    const globalState = options.globalState ?? fake.globalState;
    const { tokens, approvals, connection } = await editorConnection(fake, logger, { env: options.env, globalState });
    const commands = registerConnectionCommands({ connection, tokens, approvals, logger });
    disposables.push(connection, tokens, commands);
    return { folder, fake, connection, tokens, approvals, globalState };
  }

  const env = (): Record<string, string> => ({ UNLEASH_API_TOKEN: h.token });

  h.group('Trust: what a cloned repository can make the extension do', () => {
    h.row("workspace `.vscode/settings.json` names another server; `UNLEASH_API_TOKEN` is set", async () => {
      const server = await h.fault();
      const { fake, connection } = await editor({ env: env() });
      fake.set('workspace', 'unleash.serverUrl', server.url);
      const state = await connection.update();
      assert.equal(state.state, 'unapproved');
      assert.equal(await connection.serverClient(), undefined);
      const checkTag = formatError(state.problem, { action: 'check the tag team:payments' }).message;
      assert.equal(
        checkTag,
        `Could not check the tag team:payments. The setting \`unleash.serverUrl\` names ${server.url} in this workspace's settings, which you have not allowed: no token is sent there. Run "Unleash: Allow the Workspace's Server…".`,
      );
      assert.equal(server.requests.length, 0);
      return {
        result: 'no client, no token sent (view state `unapproved`)',
        message: `Flags view: ${welcome('unapproved')} Check Tag, Export, Test Connection: ${checkTag}`,
        steps: 'Review the Server…, Connect to Another Server, Show Log',
        requests: 'none',
      };
    });

    h.row('… Review the Server… asks in a modal naming the host; Cancel', async () => {
      const server = await h.fault();
      const { fake, connection } = await editor({ env: env() });
      fake.set('workspace', 'unleash.serverUrl', server.url);
      await connection.update();
      fake.answers.push(undefined);
      assert.equal(await fake.vscode.commands.executeCommand('unleash.approveServer'), false);
      const modal = fake.messages.find((message) => message.modal);
      assert.deepEqual(modal && { message: modal.message, detail: modal.detail, buttons: modal.buttons }, { ...approvalQuestion(server.url), buttons: ['Allow'] });
      assert.equal(connection.state.state, 'unapproved');
      assert.equal(server.requests.length, 0);
      return { result: 'still no token sent', message: `${modal?.message} ${modal?.detail}`, steps: 'Allow (modal)', requests: 'none' };
    });

    h.row('… Allow: remembered for the address (origin and path), in the global state (not the workspace)', async () => {
      const server = await h.fault();
      server.script(faults.json({ version: 1, environments: [{ name: 'development', type: 'development', enabled: true }] }));
      const first = await editor({ env: env() });
      first.fake.set('workspace', 'unleash.serverUrl', server.url);
      await first.connection.update();
      first.fake.answers.push('Allow');
      assert.equal(await first.fake.vscode.commands.executeCommand('unleash.approveServer'), true);
      assert.equal(first.connection.state.state, 'ready');
      await first.connection.state.source?.listEnvironments();
      assert.equal(server.requests[0]?.headers.authorization, h.token);
      // A new window on another clone naming the same server: no question again.
      const second = await editor({ env: env(), globalState: first.globalState });
      second.fake.set('workspace', 'unleash.serverUrl', `${server.url}/`);
      assert.equal((await second.connection.update()).state, 'ready');
      assert.deepEqual(first.globalState.get('unleash.approvedServerOrigins'), [new URL(server.url).origin]);
      return { result: 'ready; the token goes only after Allow', requests: { note: 'after the approval' } };
    });

    h.row('… another path on an allowed server; an approval stored as an origin (before the path counted)', async () => {
      const server = await h.fault();
      const { fake, connection, globalState } = await editor({ env: env() });
      // What an earlier version stored on Allow: the origin alone.
      await globalState.update('unleash.approvedServerOrigins', [new URL(server.url).origin]);
      fake.set('workspace', 'unleash.serverUrl', `${server.url}/other/`);
      const state = await connection.update();
      assert.equal(state.state, 'unapproved');
      const formatted = formatError(state.problem, { action: 'connect' });
      const message = formatted.message;
      assert.equal(
        message,
        `Could not connect. The setting \`unleash.serverUrl\` names ${server.url}/other in this workspace's settings, which you have not allowed: no token is sent there. Run "Unleash: Allow the Workspace's Server…".`,
      );
      fake.set('workspace', 'unleash.serverUrl', `${server.url}/`);
      assert.equal((await connection.update()).state, 'ready', 'the origin allows its root path');
      assert.equal(server.requests.length, 0);
      return {
        result: 'another path asks again (view state `unapproved`); the stored origin allows its root path only',
        message,
        steps: h.stepsOf(formatted),
        requests: 'none',
      };
    });

    h.row('… the workspace\'s address holds U+202E and the workspace sets `unleash.webUrl`; Review the Server…', async () => {
      const server = await h.fault();
      const { fake, connection } = await editor({ env: env() });
      fake.set('workspace', 'unleash.serverUrl', `${server.url}/\u202egnp.exe`);
      fake.set('workspace', 'unleash.webUrl', 'https://flags.example.com/ui');
      await connection.update();
      fake.answers.push(undefined);
      assert.equal(await fake.vscode.commands.executeCommand('unleash.approveServer'), false);
      const modal = fake.messages.find((message) => message.modal);
      assert.equal(modal?.message, `Send your Unleash API token to ${new URL(server.url).host}?`);
      assert.equal(
        modal?.detail,
        `This workspace's settings (unleash.serverUrl) name the server ${server.url}/%E2%80%AEgnp.exe. A cloned repository can name any server: allow it only if you know it. Your answer is remembered for this address only. They also set unleash.webUrl to https://flags.example.com/ui: links to flags will open there.`,
      );
      assert.equal(server.requests.length, 0);
      return {
        result: 'the modal shows the address requests use (U+202E percent-encoded) and names the web UI address',
        message: `${modal?.message} ${modal?.detail}`,
        steps: 'Allow (modal)',
        requests: 'none',
      };
    });

    /** A user with their own server, a workspace naming another; Connect to Server…, the workspace's address entered. */
    async function connectToWorkspaceServer(approval: string | undefined) {
      const server = await h.fault();
      server.script(faults.json({ version: '7.5.1', environment: 'Open Source' }));
      const { fake, connection } = await editor({ env: env() });
      fake.set('user', 'unleash.serverUrl', 'https://unleash.mine.example');
      fake.set('workspace', 'unleash.serverUrl', server.url);
      await connection.update();
      fake.answers.push(server.url, approval);
      await fake.vscode.commands.executeCommand('unleash.connect');
      const saved = fake.vscode.workspace.getConfiguration('unleash').inspect<string>('serverUrl').globalValue;
      const modal = fake.messages.find((message) => message.modal);
      assert.deepEqual(fake.inputBoxes.map((box) => box.value), ['https://unleash.mine.example'], "the box holds the user's own address");
      assert.deepEqual(modal && { message: modal.message, detail: modal.detail }, approvalQuestion(server.url), 'the approval comes first');
      return { server, fake, saved, modal };
    }

    h.row("Connect to Server… while the workspace names a server not allowed yet; its address entered; Cancel", async () => {
      const { server, fake, saved, modal } = await connectToWorkspaceServer(undefined);
      assert.equal(saved, 'https://unleash.mine.example', 'nothing saved');
      assert.equal(fake.secrets.size, 0);
      assert.equal(server.requests.length, 0);
      return {
        result: "the box holds the user's own address; the workspace's asks the approval before it is saved: nothing saved, no token sent",
        message: `${modal?.message} ${modal?.detail}`,
        steps: 'Allow (modal)',
        requests: 'none',
      };
    });

    h.row("… Allow: saved in the user settings, then Test Connection with the token", async () => {
      const { server, fake, saved } = await connectToWorkspaceServer('Allow');
      assert.equal(saved, server.url);
      assert.equal(server.requests[0]?.headers.authorization, h.token);
      const info = fake.texts('info').at(-1);
      assert.match(info ?? '', /^Connected to Unleash 7\.5\.1/);
      return { result: 'saved and connected, the token sent only after Allow', message: info, requests: { note: 'after the approval' } };
    });

    h.row('Connect to Server… while a workspace setting overrides the typed address', async () => {
      const workspaceServer = await h.fault();
      const typedServer = await h.fault();
      const { fake } = await editor();
      fake.set('workspace', 'unleash.serverUrl', workspaceServer.url);
      fake.answers.push(typedServer.url, h.token);
      await fake.vscode.commands.executeCommand('unleash.connect');
      assert.equal(fake.secrets.get(tokenSecretKey(typedServer.url)), h.token, 'the token is kept for the typed address');
      assert.equal(fake.secrets.size, 1);
      const warning = fake.messages.find((message) => message.kind === 'warning');
      const [typedHost, workspaceHost] = [typedServer.url, workspaceServer.url].map((url) => new URL(url).host);
      assert.equal(
        warning?.message,
        `Saved http://${typedHost} in your user settings, but this workspace's unleash.serverUrl (http://${workspaceHost}) takes precedence, so the Flags view keeps using that one. Remove it from the workspace settings to use http://${typedHost}.`,
      );
      assert.equal(workspaceServer.requests.length + typedServer.requests.length, 0);
      return { result: 'token stored for the typed address only', message: warning?.message, steps: 'Open Workspace Settings', requests: 'none' };
    });

    h.row('Set API Token… for a server only the workspace named', async () => {
      const server = await h.fault();
      const { fake, connection } = await editor();
      fake.set('workspace', 'unleash.serverUrl', server.url);
      await connection.update();
      fake.answers.push(undefined);
      assert.equal(await fake.vscode.commands.executeCommand('unleash.setToken'), false);
      assert.equal(fake.messages.filter((message) => message.modal).length, 1, 'the approval modal comes first');
      assert.equal(fake.secrets.size, 0);
      return { result: 'asks the approval first; dismissed: nothing stored', requests: 'none' };
    });

    h.row('workspace sets `network.rejectUnauthorized: false` and `network.caCertificates`', async () => {
      const server = await h.fault();
      const { fake, connection } = await editor({ env: env() });
      fake.set('user', 'unleash.serverUrl', server.url);
      fake.set('workspace', 'unleash.network.rejectUnauthorized', false);
      fake.set('workspace', 'unleash.network.caCertificates', ['/dev/zero']);
      const settings = readSettings();
      assert.deepEqual([settings.network.rejectUnauthorized, settings.network.caCertificates], [true, []]);
      assert.equal((await connection.update()).state, 'ready');
      assert.deepEqual(fake.messages, []);
      return { result: 'ignored: certificate checks on, no extra CA (user or machine settings only)', requests: 'none' };
    });

    h.row('Restricted Mode: untrusted folder with export files, a server in the user settings', async () => {
      const server = await h.fault();
      const { folder, fake, connection } = await editor({ env: env() });
      await fsp.mkdir(path.join(folder, '.unleash'));
      await fsp.writeFile(path.join(folder, '.unleash', 'development.json'), JSON.stringify(EXPORT));
      fake.setTrusted(false);
      fake.set('user', 'unleash.serverUrl', server.url);
      const state = await connection.update();
      assert.equal(state.source?.kind, 'files');
      const store = new FlagStore(logger);
      void store.load(); // needed from the start: setSource reads the list
      await store.setSource(state.source, state.state);
      const names = store.catalog.flags.map((flag) => flag.name);
      assert.deepEqual(names, ['new-checkout-flow', 'new-checkout-flow-ui', 'pricing-experiment']);
      assert.equal(server.requests.length, 0);
      assert.equal(welcome('noServer', ' && !isWorkspaceTrusted && !unleash.browser').startsWith('This folder is in Restricted Mode'), true);
      return { result: `offline tree from .unleash/development.json: ${names.join(', ')}`, requests: 'none' };
    });

    h.row('offline mode: one of two export files changes', async () => {
      const { folder, fake, connection } = await editor();
      await fsp.mkdir(path.join(folder, '.unleash'));
      await fsp.writeFile(path.join(folder, '.unleash', 'development.json'), JSON.stringify(EXPORT));
      await fsp.writeFile(path.join(folder, '.unleash', 'production.json'), JSON.stringify(EXPORT));
      // Each evaluation, and the listing that needs its files (they are read then).
      const evaluate = async () => {
        const evaluated = await connection.update();
        await evaluated.source?.listFeatures();
        return evaluated;
      };
      // The files read: through the editor's file system, or by the worker thread (local files).
      const before = workerReads.length;
      const reads = () => [...fake.reads, ...workerReads.slice(before)].map((file) => path.basename(file));
      await evaluate();
      assert.equal(reads().length, 2);
      const changed = { ...EXPORT, features: EXPORT.features.slice(0, 1) };
      await fsp.writeFile(path.join(folder, '.unleash', 'production.json'), JSON.stringify(changed));
      await fsp.utimes(path.join(folder, '.unleash', 'production.json'), new Date(), new Date(Date.now() + 5_000));
      const state = await evaluate();
      assert.deepEqual(reads().slice(2), ['production.json']);
      assert.equal(state.source?.label, '.unleash/development.json, .unleash/production.json');
      return { result: 'only the changed file is read and parsed again', requests: 'none' };
    });

    h.row('switching servers while the first evaluation is slow', async () => {
      const first = await h.fault({}, 'the first');
      const second = await h.fault({}, 'the second');
      second.script(faults.json({ version: 1, environments: [] }));
      const { fake, connection } = await editor({ env: env() });
      const closed: string[] = [];
      const close = UnleashClient.prototype.close;
      UnleashClient.prototype.close = function (this: UnleashClient) {
        closed.push(this.baseUrl.host);
        return close.call(this);
      };
      try {
        const get = fake.secretStorage.get;
        fake.secretStorage.get = async (key: string) => {
          if (key.includes(String(first.port))) await new Promise((resolve) => setTimeout(resolve, 200));
          return get(key);
        };
        fake.set('user', 'unleash.serverUrl', first.url);
        const slow = connection.update();
        fake.set('user', 'unleash.serverUrl', second.url);
        await connection.update();
        await slow;
        const client = await connection.serverClient();
        assert.equal(client?.baseUrl.host, new URL(second.url).host);
        await client?.listEnvironments();
        // The late evaluation's client was closed before anything needed it: it was never built.
        assert.ok(!closed.includes(new URL(first.url).host));
        assert.equal(first.requests.length, 0);
        assert.equal(second.requests.length, 1);
      } finally {
        UnleashClient.prototype.close = close;
      }
      return { result: "the late evaluation's client is closed, never published: Export and Check Tag use the second server", requests: { per: 'server' } };
    });

    h.row('what `activate()` hands other extensions: the store with a server source', async () => {
      const server = await h.fault();
      server.script(faults.json({ features: [], total: 0 }));
      const { fake, connection } = await editor({ env: env() });
      fake.set('user', 'unleash.serverUrl', server.url);
      const state = await connection.update();
      const store = new FlagStore(logger);
      void store.load(); // needed from the start: setSource reads the list
      await store.setSource(state.source, state.state);
      const seen = new Set<unknown>();
      const found: string[] = [];
      const walk = (value: unknown, where: string, depth: number): void => {
        if (value === null || (typeof value !== 'object' && typeof value !== 'function') || seen.has(value) || depth > 8) {
          if (typeof value === 'string' && value.includes(h.token)) found.push(where);
          return;
        }
        seen.add(value);
        if (value instanceof UnleashClient) found.push(where);
        for (const key of Reflect.ownKeys(value)) {
          const descriptor = Object.getOwnPropertyDescriptor(value, key);
          if (descriptor && 'value' in descriptor) walk(descriptor.value, `${where}.${String(key)}`, depth + 1);
        }
      };
      walk({ store }, 'api', 0);
      assert.deepEqual(found, []);
      return { result: 'no client and no token reachable from the store (private `#client`)', requests: { note: 'the listing' } };
    });

    h.row('workspace `unleash.projects` names 5,000 projects', async () => {
      const server = await h.fault();
      // Each project's listing holds one flag of that project.
      server.script(faults.json((request) => ({ features: [{ name: `flag-of-${/projects\/([^/]+)\/features/.exec(request.path)?.[1]}` }] })));
      const { fake, connection } = await editor({ env: env() });
      fake.set('user', 'unleash.serverUrl', server.url);
      fake.set('workspace', 'unleash.projects', Array.from({ length: 5_000 }, (_, i) => `project-${i}`));
      const state = await connection.update();
      const store = new FlagStore(logger);
      void store.load(); // needed from the start: setSource reads the list
      await store.setSource(state.source, state.state);
      const message = viewMessage(store);
      assert.equal(
        message,
        `unleash.projects names 5000 projects, more than the ${MAX_PROJECTS} the Flags view lists (each is one request on every refresh): only the first ${MAX_PROJECTS} are shown. Name at most ${MAX_PROJECTS} projects, or leave the setting empty to list every project.`,
      );
      assert.equal(store.catalog.flags.length, MAX_PROJECTS);
      assert.equal(server.requests.length, MAX_PROJECTS, 'one listing per project shown, none for the rest');
      return { result: `the first ${MAX_PROJECTS} projects listed, one request each; the view says why`, message: `Flags view: ${message}` };
    });

    h.row('refresh interval `0.0001` min, request timeout `5e6` s', async () => {
      const { fake } = await editor();
      fake.set('user', 'unleash.refreshIntervalMinutes', 0.0001);
      fake.set('user', 'unleash.requestTimeoutSeconds', 5e6);
      const settings = readSettings();
      assert.deepEqual([settings.refreshIntervalMinutes, settings.requestTimeoutMs], [1, 300_000]);
      return { result: `clamped to the manifest: every ${settings.refreshIntervalMinutes} min, ${settings.requestTimeoutMs / 1000} s`, requests: 'none' };
    });

    h.row('token over plain `http://` to a non-loopback host', async () => {
      const { fake, connection } = await editor({ env: env() });
      fake.set('user', 'unleash.serverUrl', 'http://unleash.internal.example:4242');
      assert.equal((await connection.update()).state, 'ready');
      fake.set('user', 'unleash.serverUrl', 'http://127.0.0.1:4242');
      await connection.update();
      const warnings = fake.messages.filter((message) => message.kind === 'warning').map((message) => message.message);
      assert.equal(warnings.length, 1, 'loopback gets no warning');
      return { result: 'warning (once per session); none for 127.0.0.1', message: warnings[0], requests: 'none' };
    });
  });

  h.group('Trust: bounded listing, certificate files, exports and offline files', () => {
    h.row('search answers `total: 1e20`, then a short page', async () => {
      const server = await h.fault();
      server.script(faults.json((request) => page(offsetOf(request.url), offsetOf(request.url) === 0 ? 100 : 50, 1e20)));
      const heap = process.memoryUsage().heapUsed;
      const { value, time } = await within(HANG_BOUND_MS, () => h.client(server.url).listFeatures());
      assert.equal(value.length, 150);
      assert.ok(process.memoryUsage().heapUsed - heap < 64 * 1024 * 1024, 'memory stays bounded');
      return { result: `${value.length} flags; no offsets built from \`total\``, requests: { per: 'endpoint' }, time };
    });

    h.row('search pages never end (every page full and new)', async () => {
      const server = await h.fault();
      server.script(faults.json((request) => page(offsetOf(request.url), 100, 1e20)));
      const error = await h.client(server.url, { listLimits: { pages: 5 } }).listFeatures().then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof ConfigError);
      const formatted = formatError(error, { server: 'unleash.example.com', action: 'load the flags' });
      const searches = server.requests.filter((request) => request.path === '/api/admin/search/features').length;
      assert.equal(searches, 5);
      h.assertNoSecret(formatted.message);
      const pageSize = Math.max(...server.requests.map((request) => Number(new URL(request.url, 'http://x').searchParams.get('limit') ?? 0)));
      return {
        result: `ConfigError after the page limit (${LIST_LIMITS.pages.toLocaleString('en-US')} pages of ${pageSize} outside tests; ${searches} here)`,
        message: formatted.message,
        steps: h.stepsOf(formatted),
        requests: { per: 'endpoint' },
      };
    });

    h.row('search ignores `offset` (the same page again)', async () => {
      const server = await h.fault();
      server.script(faults.json(() => page(0, 100, 1e20)));
      const flags = await h.client(server.url).listFeatures();
      assert.equal(flags.length, 100);
      return { result: `${flags.length} flags: a repeated page ends the listing`, requests: { per: 'endpoint' } };
    });

    h.row('a listing slower than its overall limit', async () => {
      const server = await h.fault();
      server.script(faults.json(page(0, 100, 1e6)), faults.json(page(100, 100, 1e6), { delayMs: 1_000 }));
      const limitMs = 300;
      const { value: error, time } = await within(HANG_BOUND_MS, () =>
        h.client(server.url, { listLimits: { ms: limitMs } }).listFeatures().then(() => undefined, (e: unknown) => e),
      );
      assert.ok(error instanceof TimeoutError);
      const formatted = formatError(error, { server: 'unleash.example.com', action: 'load the flags' });
      return { result: `TimeoutError (${LIST_LIMITS.ms / 1000} s outside tests; ${limitMs / 1000} s here)`, message: formatted.message, steps: h.stepsOf(formatted), time };
    });

    const caCase = (name: string, make: (folder: string) => Promise<string>, expected: (file: string) => string) =>
      h.row(name, async () => {
        const folder = await fsp.mkdtemp(path.join(tmpdir(), 'unleash-ca-'));
        try {
          const file = await make(folder);
          const { value: error, time } = await within(HANG_BOUND_MS, () => readCaFiles([file]).then(() => undefined, (e: unknown) => e));
          assert.ok(error instanceof ConfigError);
          assert.equal(error.message, expected(file));
          return { result: 'ConfigError, nothing read', message: error.message.replace(file, '…'), steps: h.stepsOf(formatError(error)), requests: 'none', time };
        } finally {
          await fsp.rm(folder, { recursive: true, force: true });
        }
      });
    caCase('CA file is `/dev/zero`', async () => '/dev/zero',
      (file) => `The setting \`unleash.network.caCertificates\` lists ${file}, which is not a regular file. Give the path of a PEM file.`);
    caCase('CA file is a FIFO nobody writes to', async (folder) => {
      const fifo = path.join(folder, 'ca.pem');
      execFileSync('mkfifo', [fifo]);
      return fifo;
    }, (file) => `The setting \`unleash.network.caCertificates\` lists ${file}, which is not a regular file. Give the path of a PEM file.`);
    caCase('CA file of 2 MB', async (folder) => {
      const big = path.join(folder, 'ca.pem');
      await fsp.writeFile(big, Buffer.alloc(2 * MAX_CA_FILE_BYTES, 65));
      return big;
    }, (file) => `The setting \`unleash.network.caCertificates\` lists ${file}, which is larger than 1024 KB. Give the path of a PEM file.`);

    const exportCase = (name: string, arrange: (folder: string, outside: string) => Promise<void>, check: (folder: string, outside: string, error: unknown) => Promise<string>) =>
      h.row(name, async () => {
        const base = await fsp.mkdtemp(path.join(tmpdir(), 'unleash-export-'));
        const folder = path.join(base, 'ws');
        const outside = path.join(base, 'outside');
        await fsp.mkdir(folder);
        await fsp.mkdir(outside);
        try {
          await arrange(folder, outside);
          const client = { exportFeatures: async () => EXPORT };
          const run = () => exportToFile({ client, environment: 'development', scope: { kind: 'all' }, folder }).then(() => undefined, (e: unknown) => e);
          const { value: error, time } = await within(HANG_BOUND_MS, run);
          assert.ok(error instanceof ExportWriteError, String(error));
          const result = await check(folder, outside, error);
          const formatted = formatError(error, { action: 'export' });
          return { result, message: formatted.message, steps: h.stepsOf(formatted), requests: 'none', time };
        } finally {
          await fsp.rm(base, { recursive: true, force: true });
        }
      });
    exportCase('export: the repository ships `.unleash` → `../outside`',
      async (folder, outside) => fsp.symlink(outside, path.join(folder, '.unleash')),
      async (_folder, outside) => {
        assert.deepEqual(await fsp.readdir(outside), []);
        return 'refused: nothing written outside the workspace';
      });
    exportCase('export: the target is a link to another file',
      async (folder, outside) => {
        await fsp.writeFile(path.join(outside, 'secret.txt'), 'private');
        await fsp.mkdir(path.join(folder, '.unleash'));
        await fsp.symlink(path.join(outside, 'secret.txt'), path.join(folder, '.unleash', 'development.json'));
      },
      async (_folder, outside, error) => {
        assert.ok(!String((error as Error).message).includes('private'));
        assert.equal(await fsp.readFile(path.join(outside, 'secret.txt'), 'utf8'), 'private');
        return 'refused: the linked file is neither read (no Show Changes) nor replaced';
      });
    exportCase('export: the target is a FIFO; then an export to the same path',
      async (folder) => {
        await fsp.mkdir(path.join(folder, '.unleash'));
        execFileSync('mkfifo', [path.join(folder, '.unleash', 'development.json')]);
      },
      async (folder) => {
        await fsp.rm(path.join(folder, '.unleash', 'development.json'));
        const next = await exportToFile({ client: { exportFeatures: async () => EXPORT }, environment: 'development', scope: { kind: 'all' }, folder });
        assert.equal(next.changed, true);
        return 'refused at once; the path lock is released (the next export writes)';
      });

    h.row('offline mode: 40,000 flags and 40,000 tags in one export file', async () => {
      const exportOf = (count: number) =>
        ({
          features: Array.from({ length: count }, (_, i) => ({ name: `flag-${i}`, project: 'default' })),
          featureStrategies: [],
          featureEnvironments: [],
          featureTags: Array.from({ length: count }, (_, i) => ({ featureName: `flag-${i}`, tagType: 'team', tagValue: `t${i % 50}` })),
          tagTypes: [],
        }) as unknown as ExportResult;
      // Each tag row's reads counted: indexing is linear when each row is read a few times, whatever the machine's
      // load; the old scan of every tag per flag read each row once per flag (40,000 times here).
      let reads = 0;
      const counted = <T extends object>(rows: T[]): T[] =>
        new Proxy(rows, {
          get(target, key, receiver) {
            if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
            return Reflect.get(target, key, receiver) as unknown;
          },
        });
      const large = exportOf(40_000);
      const result = { ...large, featureTags: counted(large.featureTags ?? []) } as ExportResult;
      const { value: source, time } = await within(10_000, async () => OfflineSource.read([{ path: '.unleash/development.json', result }], { slices: TimeSlices.unsliced() }));
      const READS_PER_ROW = 4;
      assert.ok(reads <= READS_PER_ROW * 40_000, `the 40,000 tag rows were read ${reads.toLocaleString('en-US')} times: not linear`);
      const flags = await source.listFeatures();
      assert.deepEqual(flags[39_999]?.tags, [{ type: 'team', value: 't49' }]);
      return {
        result: `${flags.length.toLocaleString('en-US')} flags indexed with their tags, each tag row read at most ${READS_PER_ROW} times (a Map by flag name; the old scan read each once per flag)`,
        requests: 'none',
        time,
      };
    });
  });
}
