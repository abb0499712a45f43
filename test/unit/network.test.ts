/**
 * Issue 17 in plain Node: which proxy a server's requests take (proxy.ts, VS Code's order and NO_PROXY forms), the
 * operating system's certificates (systemCertificates.ts: SSL_CERT_FILE, SSL_CERT_DIR, bounds, cache), the trust
 * built from them (dispatcher.ts), and the `http.*` settings read from the user's settings only.
 * The requests themselves (proxy bypassed, env proxy, authorization, a CA in the system bundle) are rows of
 * docs/reliability.md: test/unit/networkCases.ts.
 */
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { ConfigError } from '../../src/api/errors';
import { trustStore } from '../../src/api/dispatcher';
import { bypassesProxy, chooseProxy, type ProxySettings } from '../../src/api/proxy';
import { clearSystemCertificateCache, loadSystemCertificates } from '../../src/api/systemCertificates';
import { MAX_BUNDLE_BYTES } from '../../src/api/certificateBundles';
import { formatError } from '../../src/model/content/formatError';
import { opensslAvailable, testCertificates } from '../support/faultServer';
import { installFakeVscode } from '../support/fakeVscode';

const route = (url: string, settings: ProxySettings): string => {
  const choice = chooseProxy(new URL(url), settings);
  return choice.kind === 'direct' ? `direct (${choice.reason})` : `${choice.label} (${choice.source})`;
};

describe('proxy: which way a request goes', () => {
  it('matches the NO_PROXY forms: host, .domain, *.domain, domain, host:port, IP, CIDR, *', () => {
    const cases: Array<[string, string, string[], boolean]> = [
      ['unleash.corp', '443', ['unleash.corp'], true],
      ['api.unleash.corp', '443', ['unleash.corp'], true],
      ['badunleash.corp', '443', ['unleash.corp'], false],
      ['a.b.corp', '443', ['.corp'], true],
      ['corp', '443', ['.corp'], true],
      ['a.corp', '443', ['*.corp'], true],
      ['acorp', '443', ['*.corp'], false],
      ['unleash.corp', '4242', ['unleash.corp:4242'], true],
      ['unleash.corp', '443', ['unleash.corp:4242'], false],
      ['10.1.2.3', '80', ['10.1.2.3'], true],
      ['10.1.2.3', '80', ['10.0.0.0/8'], true],
      ['11.1.2.3', '80', ['10.0.0.0/8'], false],
      ['10.1.2.3', '80', ['1.2.3'], false],
      ['::1', '80', ['::1'], true],
      ['::1', '8080', ['[::1]:8080'], true],
      ['fd00::5', '80', ['fd00::/8'], true],
      ['anything.example', '443', ['*'], true],
      ['UNLEASH.corp'.toLowerCase(), '443', [' Unleash.CORP '], true],
      ['unleash.corp', '443', ['', ' '], false],
    ];
    for (const [host, port, entries, expected] of cases) {
      assert.equal(bypassesProxy(host, port, entries), expected, `${host}:${port} against ${JSON.stringify(entries)}`);
    }
  });

  it('follows VS Code\'s order: off, loopback, noProxy (setting, else NO_PROXY), http.proxy, then the environment', () => {
    const env = { HTTPS_PROXY: 'http://env.proxy:3128', NO_PROXY: 'internal.corp' };
    assert.equal(route('https://u.example', {}), 'direct (none)');
    assert.equal(route('https://u.example', { env }), 'env.proxy:3128 (HTTPS_PROXY)');
    assert.equal(route('https://u.example', { proxy: 'set.proxy:8080', env }), 'set.proxy:8080 (http.proxy)');
    assert.equal(route('https://u.example', { proxy: 'set.proxy:8080', proxySupport: 'off', env }), 'direct (off)');
    assert.equal(route('https://x.internal.corp', { proxy: 'set.proxy:8080', env }), 'direct (noProxy)');
    assert.equal(route('https://x.internal.corp', { proxy: 'set.proxy:8080', noProxy: ['other.corp'], env }), 'set.proxy:8080 (http.proxy)');
    assert.equal(route('http://localhost:4242', { proxy: 'set.proxy:8080', directLoopback: true }), 'direct (loopback)');
    assert.equal(route('http://[::1]:4242', { proxy: 'set.proxy:8080', directLoopback: true }), 'direct (loopback)');
    assert.equal(route('http://127.3.2.1:4242', { proxy: 'set.proxy:8080', directLoopback: true }), 'direct (loopback)');
    // A name under localhost is resolved by DNS, maybe to another machine: it goes the way any other name goes.
    assert.equal(route('http://evil.localhost:4242', { proxy: 'set.proxy:8080', directLoopback: true }), 'set.proxy:8080 (http.proxy)');
    assert.equal(route('http://127.0.0.1:4242', { proxy: 'set.proxy:8080' }), 'set.proxy:8080 (http.proxy)');
    // VS Code reads the variables in this order, whatever the server's scheme.
    assert.equal(route('http://u.example', { env: { https_proxy: 'http://a:1', HTTPS_PROXY: 'http://b:2', HTTP_PROXY: 'http://c:3' } }), 'a:1 (https_proxy)');
    assert.equal(route('https://u.example', { env: { HTTP_PROXY: 'http://c:3' } }), 'c:3 (HTTP_PROXY)');
    assert.equal(route('https://u.example', { env: { no_proxy: 'u.example', HTTP_PROXY: 'http://c:3' } }), 'direct (noProxy)');
  });

  it('names the environment variable, never its value, when it is unusable; no Open Settings button', () => {
    let error: unknown;
    try {
      chooseProxy(new URL('https://u.example'), { env: { HTTPS_PROXY: 'ftp://me:hunter2@proxy' } });
    } catch (caught) {
      error = caught;
    }
    assert.ok(error instanceof ConfigError);
    const formatted = formatError(error, { action: 'connect' });
    assert.equal(formatted.message, 'Could not connect. The environment variable `HTTPS_PROXY` uses ftp:// which is not supported: use http://, https:// or socks5://.');
    assert.deepEqual(formatted.actions, ['showLog']);
  });
});

describe('system certificates', () => {
  let dir: string;
  let pems: string[];
  before(async () => {
    dir = await fsp.mkdtemp(path.join(tmpdir(), 'unleash-syscerts-'));
    pems = tls.rootCertificates.slice(0, 3);
  });
  after(() => fsp.rm(dir, { recursive: true, force: true }));

  it('reads SSL_CERT_FILE, and is cached until the file changes', async () => {
    clearSystemCertificateCache();
    const file = path.join(dir, 'bundle.pem');
    await fsp.writeFile(file, `# a comment\n${pems[0]}\n${pems[1]}\n${pems[0]}\n`);
    const first = await loadSystemCertificates({ env: { SSL_CERT_FILE: file } });
    assert.deepEqual([first.certificates.length, first.sources, first.cached, first.problem], [2, [file], false, undefined]);
    const again = await loadSystemCertificates({ env: { SSL_CERT_FILE: file } });
    assert.equal(again.cached, true);
    await fsp.writeFile(file, `${pems.join('\n')}\n`);
    await fsp.utimes(file, new Date(), new Date(Date.now() + 5_000));
    const changed = await loadSystemCertificates({ env: { SSL_CERT_FILE: file } });
    assert.deepEqual([changed.certificates.length, changed.cached], [3, false]);
  });

  it('reads the hashed files of SSL_CERT_DIR (only those), and falls back to the usual bundles when neither is set', async () => {
    const certs = path.join(dir, 'certs');
    await fsp.mkdir(certs);
    await fsp.writeFile(path.join(certs, '5ed36f99.0'), pems[0] as string);
    await fsp.writeFile(path.join(certs, 'abcdef01.1'), pems[1] as string);
    await fsp.writeFile(path.join(certs, 'README.pem'), pems[2] as string);
    const fromDir = await loadSystemCertificates({ env: { SSL_CERT_DIR: certs } });
    assert.deepEqual([fromDir.certificates.length, fromDir.sources], [2, [certs]]);
    const bundle = path.join(dir, 'distro.crt');
    await fsp.writeFile(bundle, pems.join('\n'));
    const fallback = await loadSystemCertificates({ env: {}, bundles: [path.join(dir, 'missing.crt'), bundle] });
    assert.deepEqual([fallback.certificates.length, fallback.sources], [3, [bundle]]);
    const none = await loadSystemCertificates({ env: {}, bundles: [path.join(dir, 'missing.crt')] });
    assert.deepEqual([none.certificates, none.problem], [[], 'no system certificate bundle found']);
  });

  it('refuses a bundle that is too large or not a file, and says so', async () => {
    const big = path.join(dir, 'big.crt');
    await fsp.writeFile(big, Buffer.alloc(MAX_BUNDLE_BYTES + 1, 0x41));
    const tooLarge = await loadSystemCertificates({ env: { SSL_CERT_FILE: big } });
    assert.deepEqual(tooLarge.certificates, []);
    assert.match(tooLarge.problem ?? '', /larger than 4096 KB/);
    const folder = await loadSystemCertificates({ env: { SSL_CERT_FILE: dir } });
    assert.deepEqual(folder.certificates, []);
  });

  it('adds only what Node\'s bundled roots lack, in one secure context', { skip: opensslAvailable() ? false : 'openssl is not installed' }, () => {
    assert.equal(trustStore([...tls.rootCertificates]), undefined, 'the same roots again add nothing');
    assert.equal(trustStore([`${tls.rootCertificates[0]}\n${tls.rootCertificates[1]}`]), undefined, 'a bundle is split into its certificates');
    const { caCert } = testCertificates();
    const trust = trustStore([caCert, caCert, ...tls.rootCertificates.slice(0, 5)]);
    assert.equal(trust?.ca.length, tls.rootCertificates.length + 1);
    assert.ok(trust?.secureContext);
  });
});

describe('the http.* settings', () => {
  it('are read from the user\'s settings only, with VS Code\'s defaults', async () => {
    const dir = await fsp.mkdtemp(path.join(tmpdir(), 'unleash-http-settings-'));
    try {
      const fake = installFakeVscode(dir);
      const { readSettings } = await import('../../src/services/settings');
      assert.deepEqual(pick(readSettings().network), { noProxy: [], proxyAuthorization: undefined, proxySupport: 'override', systemCertificates: true });
      for (const [id, value] of [['http.noProxy', ['evil.example']], ['http.proxyAuthorization', 'Basic eA=='], ['http.proxySupport', 'off'], ['http.systemCertificates', false]] as const) {
        fake.set('workspace', id, value);
      }
      assert.deepEqual(pick(readSettings().network), { noProxy: [], proxyAuthorization: undefined, proxySupport: 'override', systemCertificates: true });
      fake.set('user', 'http.noProxy', ['unleash.corp', 3]);
      fake.set('user', 'http.proxyAuthorization', ' Basic bWU6aHVudGVyMg== ');
      fake.set('user', 'http.proxySupport', 'off');
      fake.set('user', 'http.systemCertificates', false);
      assert.deepEqual(pick(readSettings().network), { noProxy: ['unleash.corp'], proxyAuthorization: 'Basic bWU6aHVudGVyMg==', proxySupport: 'off', systemCertificates: false });
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});

function pick(network: { noProxy: string[]; proxyAuthorization?: string; proxySupport: string; systemCertificates: boolean }) {
  const { noProxy, proxyAuthorization, proxySupport, systemCertificates } = network;
  return { noProxy, proxyAuthorization, proxySupport, systemCertificates };
}
