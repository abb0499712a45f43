/**
 * The rows of docs/reliability.md for issue 17: the proxy and the certificates follow VS Code's own settings and
 * environment (`http.proxy`, `HTTPS_PROXY`, `http.noProxy` / `NO_PROXY`, `http.proxyAuthorization`,
 * `http.proxySupport`, `http.systemCertificates`). Each case runs the real client against the fault server and the
 * test proxy on 127.0.0.1 and asserts who saw what: the proxy nothing when it is bypassed, the server the request.
 * The system-store cases go through the extension's Connection (over the 'vscode' stand-in) with `SSL_CERT_FILE`
 * pointing at a temporary bundle, the mechanism the extension itself reads.
 *
 * reliability.test.ts calls `networkRows()` with its own `row`, `group` and helpers, as it does `trustRows()`.
 */
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as tls from 'node:tls';
import { after, before } from 'node:test';
import type { UnleashClient } from '../../src/api/client';
import { NetworkError } from '../../src/api/errors';
import { formatError } from '../../src/model/content/formatError';
import { closedPort, faults, opensslAvailable, testCertificates } from '../support/faultServer';
import { installFakeVscode } from '../support/fakeVscode';
import { editorConnection } from '../support/editorConnection';
import { recordingLogger } from '../support/recordingLogger';
import { startProxyServer, type ProxyServer } from '../support/proxyServer';
import { startSocksServer, type SocksServer } from '../support/socksServer';
import type { TrustHarness } from './trustCases';

const ENVIRONMENTS = { version: 1, environments: [{ name: 'development', type: 'development', enabled: true, sortOrder: 1 }] };
const SERVER = 'unleash.example.com';
const LOAD = 'load the environments';
const CREDENTIALS = 'me:hunter2';
const BASIC = `Basic ${Buffer.from(CREDENTIALS).toString('base64')}`;

export function networkRows(h: TrustHarness): void {
  const proxies: Array<ProxyServer | SocksServer> = [];
  let dir: string;
  const { logger, lines: logged } = recordingLogger();
  const disposables: Array<{ dispose(): unknown }> = [];

  before(async () => {
    dir = await fsp.mkdtemp(path.join(tmpdir(), 'unleash-network-'));
  });
  after(async () => {
    for (const item of disposables) item.dispose();
    await Promise.all(proxies.map((p) => p.close()));
    await fsp.rm(dir, { recursive: true, force: true });
  });

  async function proxy(credentials?: string): Promise<ProxyServer> {
    const started = await startProxyServer({ credentials });
    proxies.push(started);
    return started;
  }

  /** A server answering the environments, and a client for it with `network` options. */
  async function serverAndClient(network: NonNullable<Parameters<TrustHarness['client']>[1]>['network']) {
    const server = await h.fault();
    server.script(faults.json(ENVIRONMENTS));
    return { server, client: h.client(server.url, { network }) };
  }

  async function socks(credentials?: { user: string; password: string }): Promise<SocksServer> {
    const started = await startSocksServer({ credentials });
    proxies.push(started);
    return started;
  }

  const seen = (via: ProxyServer) => via.seen.map((s) => `${s.method} ${s.target}`);

  /** Lists the environments and says what the proxy and the server saw. */
  async function succeeds(client: UnleashClient): Promise<void> {
    assert.equal((await client.listEnvironments()).length, 1);
  }

  h.group('Proxy and certificates as VS Code sets them (`http.*` settings, environment; issue 17)', () => {
    h.row('`http.noProxy` names the server, `http.proxy` is set', async () => {
      const via = await proxy();
      const { server, client } = await serverAndClient({ proxy: via.url, noProxy: ['127.0.0.1'] });
      await succeeds(client);
      assert.deepEqual(seen(via), [], 'the proxy sees nothing');
      assert.equal(server.requests.length, 1, 'the server sees the request');
      return { result: 'direct: the proxy saw nothing, the server the request' };
    });

    h.row('`NO_PROXY=127.0.0.1:PORT` in the environment, `HTTPS_PROXY` set', async () => {
      const via = await proxy();
      const server = await h.fault();
      server.script(faults.json(ENVIRONMENTS));
      const client = h.client(server.url, { network: { env: { HTTPS_PROXY: via.url, NO_PROXY: `example.com, 127.0.0.1:${server.port}` } } });
      await succeeds(client);
      assert.deepEqual(seen(via), []);
      assert.equal(server.requests.length, 1);
      return { result: 'direct: the proxy saw nothing, the server the request' };
    });

    h.row('`http.noProxy` set (another host) with `NO_PROXY=*`: the setting replaces the variable, as in VS Code', async () => {
      const via = await proxy();
      const { server, client } = await serverAndClient({ proxy: via.url, noProxy: ['.corp.example'], env: { NO_PROXY: '*' } });
      await succeeds(client);
      assert.deepEqual(seen(via), [`CONNECT 127.0.0.1:${server.port}`]);
      return { result: 'through the proxy (NO_PROXY is read only when `http.noProxy` is empty)' };
    });

    h.row('`HTTPS_PROXY` in the environment, `http.proxy` empty', async () => {
      const via = await proxy();
      const { server, client } = await serverAndClient({ proxy: '', env: { HTTPS_PROXY: via.url } });
      await succeeds(client);
      assert.deepEqual(seen(via), [`CONNECT 127.0.0.1:${server.port}`]);
      assert.equal(server.requests.length, 1);
      return { result: 'through the proxy: it saw the CONNECT' };
    });

    h.row('`http.proxy` set and `HTTPS_PROXY` pointing elsewhere', async () => {
      const via = await proxy();
      const nowhere = await closedPort();
      const { client } = await serverAndClient({ proxy: via.url, env: { HTTPS_PROXY: `http://127.0.0.1:${nowhere}` } });
      await succeeds(client);
      assert.equal(seen(via).length, 1);
      return { result: 'the setting wins: through `http.proxy`' };
    });

    h.row('`http.proxyAuthorization` for a proxy that asks for credentials', async () => {
      const via = await proxy(CREDENTIALS);
      // Wrong credentials in the URL: the setting's header replaces them, as VS Code sends it.
      const { client } = await serverAndClient({ proxy: `http://me:wrong@127.0.0.1:${via.port}`, proxyAuthorization: BASIC });
      await succeeds(client);
      assert.deepEqual(via.seen.map((s) => [s.proxyAuthorization, s.status]), [[BASIC, 200]]);
      return { result: 'succeeds; the proxy saw the `Proxy-Authorization` of the setting' };
    });

    h.row('proxy from `HTTPS_PROXY` asks for credentials (407)', async () => {
      const via = await proxy(CREDENTIALS);
      const { server, client } = await serverAndClient({ env: { HTTPS_PROXY: via.url } });
      const error = await client.listEnvironments().then(() => assert.fail('expected a 407'), (e: unknown) => e);
      assert.ok(error instanceof NetworkError);
      const formatted = formatError(error, { server: SERVER, action: LOAD });
      const message = formatted.message.replace(String(via.port), 'PORT');
      assert.equal(message, 'Could not load the environments. The proxy 127.0.0.1:PORT (HTTPS_PROXY) asks for a user name and password (407). Put them in HTTPS_PROXY (http://user:password@host:port), or ask your network administrator.');
      assert.equal(server.requests.length, 0);
      return { result: 'NetworkError (proxy 407), named after the variable', message, steps: h.stepsOf(formatted) };
    });

    h.row('`http.proxy` is a SOCKS5 proxy (`socks5://`)', async () => {
      const via = await socks();
      const { server, client } = await serverAndClient({ proxy: via.url });
      await succeeds(client);
      assert.deepEqual(via.seen, [{ target: `127.0.0.1:${server.port}` }]);
      assert.equal(server.requests.length, 1);
      return { result: 'through the proxy: it saw the SOCKS5 CONNECT, the server the request' };
    });

    h.row('… an https server with an internal CA, through `socks5://user:password@…`', async () => {
      const via = await socks({ user: 'me', password: 'hunter2' });
      const server = await h.fault({ tls: testCertificates().caSigned });
      server.script(faults.json(ENVIRONMENTS));
      const client = h.client(`https://127.0.0.1:${server.port}`, {
        network: { proxy: `socks5://me:hunter2@127.0.0.1:${via.port}`, extraCaCertificates: [testCertificates().caCert] },
      });
      await succeeds(client);
      assert.deepEqual(via.seen, [{ target: `127.0.0.1:${server.port}`, user: 'me' }]);
      return { result: 'succeeds: credentials sent as SOCKS5 authentication, the server\'s TLS checked inside the tunnel' };
    }, { skip: opensslAvailable() ? false : 'openssl is not installed' });

    h.row('… the SOCKS5 proxy refuses the credentials', async () => {
      const via = await socks({ user: 'me', password: 'hunter2' });
      const { server, client } = await serverAndClient({ proxy: `socks5://me:wrong@127.0.0.1:${via.port}` });
      const error = await client.listEnvironments().then(() => assert.fail('expected a refusal'), (e: unknown) => e);
      assert.ok(error instanceof NetworkError);
      const formatted = formatError(error, { server: SERVER, action: LOAD });
      const message = formatted.message.replace(String(via.port), 'PORT');
      assert.equal(
        message,
        'Could not load the environments. The SOCKS5 proxy 127.0.0.1:PORT (http.proxy) refused the user name and password, or asks for them (UND_ERR_SOCKS5_AUTH_FAILED). Put the right ones in http.proxy (socks5://user:password@host:port), or ask your network administrator.',
      );
      assert.equal(server.requests.length, 0);
      return { result: 'NetworkError (SOCKS5 authentication), the password never shown', message, steps: h.stepsOf(formatted) };
    });

    h.row('… the SOCKS5 proxy cannot reach the server', async () => {
      const via = await socks();
      const nowhere = await closedPort();
      const client = h.client(`http://127.0.0.1:${nowhere}`, { network: { proxy: via.url } });
      const error = await client.listEnvironments().then(() => assert.fail('expected a refusal'), (e: unknown) => e);
      assert.ok(error instanceof NetworkError);
      const formatted = formatError(error, { server: SERVER, action: LOAD });
      const message = formatted.message.replace(String(via.port), 'PORT');
      assert.equal(
        message,
        'Could not load the environments. The proxy 127.0.0.1:PORT (http.proxy) would not connect to unleash.example.com (UND_ERR_SOCKS5_REPLY_5). Check unleash.serverUrl and http.proxy, or ask your network administrator.',
      );
      assert.deepEqual(via.seen, [{ target: `127.0.0.1:${nowhere}` }]);
      return { result: 'NetworkError (the proxy\'s refusal, named as the proxy\'s)', message, steps: h.stepsOf(formatted) };
    });

    h.row('`http.proxySupport: off` with `http.proxy` and `HTTPS_PROXY` set', async () => {
      const via = await proxy();
      const { server, client } = await serverAndClient({ proxy: via.url, proxySupport: 'off', env: { HTTPS_PROXY: via.url } });
      await succeeds(client);
      assert.deepEqual(seen(via), []);
      assert.equal(server.requests.length, 1);
      return { result: 'direct: the proxy saw nothing, the server the request' };
    });

    h.row('server on this machine (`127.0.0.1`), `http.proxy` set: direct, as VS Code', async () => {
      const nowhere = await closedPort();
      const { server, client } = await serverAndClient({ proxy: `http://127.0.0.1:${nowhere}`, directLoopback: true });
      await succeeds(client);
      assert.equal(server.requests.length, 1);
      return { result: 'direct (the proxy, which refuses connections, is not used)' };
    });

    // The operating system's store, read by the extension's Connection as the editor would: SSL_CERT_FILE names a
    // temporary bundle holding the test CA; no `unleash.network.caCertificates`.
    const skip = opensslAvailable() ? false : 'openssl is not installed';
    async function throughConnection(systemCertificates: boolean | undefined): Promise<{ client: UnleashClient; requests: () => number }> {
      const https = await h.fault({ tls: testCertificates().caSigned });
      https.script(faults.json(ENVIRONMENTS));
      const folder = await fsp.mkdtemp(path.join(dir, 'ws-'));
      const fake = installFakeVscode(folder);
      const { tokens, connection } = await editorConnection(fake, logger, { env: { UNLEASH_API_TOKEN: h.token } });
      disposables.push(connection, tokens);
      fake.set('user', 'unleash.serverUrl', `https://127.0.0.1:${https.port}`);
      if (systemCertificates !== undefined) fake.set('user', 'http.systemCertificates', systemCertificates);
      const state = await withSystemBundle(() => connection.update());
      assert.equal(state.state, 'ready');
      const client = await withSystemBundle(() => connection.serverClient());
      return { client: client as UnleashClient, requests: () => https.requests.length };
    }

    /** Runs `fn` with SSL_CERT_FILE naming a bundle of Node's roots plus the test CA (and no SSL_CERT_DIR). */
    async function withSystemBundle<T>(fn: () => Promise<T>): Promise<T> {
      const bundle = path.join(dir, `ca-certificates-${Date.now()}.crt`);
      await fsp.writeFile(bundle, `${tls.rootCertificates.join('\n')}\n${testCertificates().caCert}`);
      const saved = { file: process.env.SSL_CERT_FILE, dir: process.env.SSL_CERT_DIR };
      process.env.SSL_CERT_FILE = bundle;
      delete process.env.SSL_CERT_DIR;
      try {
        return await fn();
      } finally {
        for (const [name, value] of [['SSL_CERT_FILE', saved.file], ['SSL_CERT_DIR', saved.dir]] as const) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      }
    }

    h.row('internal CA in the system bundle (`SSL_CERT_FILE`), no extension setting', async () => {
      const { client, requests } = await throughConnection(undefined);
      await succeeds(client);
      assert.equal(requests(), 1);
      assert.ok(logged.some((line) => /^System certificates: \d+ from .*ca-certificates-\d+\.crt/.test(line)), 'the log says where they came from');
      return { result: 'succeeds (`http.systemCertificates` is on by default)' };
    }, { skip });

    h.row('the same with `http.systemCertificates: false`', async () => {
      const { client, requests } = await throughConnection(false);
      const error = await client.listEnvironments().then(() => assert.fail('expected a certificate error'), (e: unknown) => e);
      assert.ok(error instanceof NetworkError);
      assert.equal(error.code, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
      const formatted = formatError(error, { server: SERVER, action: LOAD });
      h.assertNoSecret(formatted.message, error.message);
      assert.equal(requests(), 0);
      return { result: 'NetworkError UNABLE_TO_VERIFY_LEAF_SIGNATURE: not trusted', message: formatted.message, steps: h.stepsOf(formatted) };
    }, { skip });
  });
}

