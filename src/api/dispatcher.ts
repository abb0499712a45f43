/**
 * The connection pool a client sends through: a keep-alive Pool, or a ProxyAgent (Socks5 for `socks5://`) when
 * proxy.ts says so, with extra CA certificates beside Node's roots. A bundled undici gets neither VS Code's proxy nor
 * its system certificates (those patch `http`/`https`, `fetch` and `tls.connect`): the same settings are applied here.
 */
import * as tls from 'node:tls';
import { Pool, ProxyAgent, Socks5ProxyAgent, type Dispatcher } from 'undici';
import { pemBlocks, pemKey, requirePemCertificates, uniquePems } from './pem';
import { chooseProxy, type ProxySettings } from './proxy';

export interface NetworkOptions extends ProxySettings {
  /** PEM text of extra certificate authorities (self-hosted servers with a private CA). */
  extraCaCertificates?: string[];
  /** PEM certificates of the operating system's store (systemCertificates.ts), for `http.systemCertificates`. */
  systemCaCertificates?: string[];
  /** False turns certificate checks off (the UI warns whenever this is in effect). */
  rejectUnauthorized?: boolean;
  /** Whether the proxy's own certificate is checked (`http.proxyStrictSSL`). */
  proxyStrictSSL?: boolean;
}

export function createDispatcher(baseUrl: URL, options: NetworkOptions = {}): Dispatcher {
  const extra = options.extraCaCertificates ?? [];
  requirePemCertificates(extra);
  const trust = trustStore([...(options.systemCaCertificates ?? []), ...extra]);
  const tlsOptions = { ...trust, rejectUnauthorized: options.rejectUnauthorized ?? true };
  const choice = chooseProxy(baseUrl, options);
  if (choice.kind === 'proxy' && isSocks(choice.url)) {
    // SOCKS5 is spoken in the clear to the proxy (undici's ProxyAgent would wrap it in TLS whenever proxy TLS options
    // are given); the server's TLS runs inside the tunnel, checked as without a proxy. The proxy resolves the host
    // name; a user name and password in the proxy URL are sent as SOCKS5 credentials.
    // (undici's types leave out `requestTls`, which the agent reads.)
    return new Socks5ProxyAgent(choice.url, { requestTls: tlsOptions } as Socks5ProxyAgent.Options);
  }
  if (choice.kind === 'proxy') {
    const token = options.proxyAuthorization?.trim();
    return new ProxyAgent({
      uri: choice.url.href,
      // `http.proxyAuthorization` is the whole header value; it replaces credentials in the proxy URL.
      ...(token ? { token } : {}),
      requestTls: tlsOptions,
      proxyTls: { ...trust, rejectUnauthorized: options.proxyStrictSSL ?? true },
    });
  }
  return new Pool(baseUrl.origin, {
    connections: 8,
    keepAliveTimeout: 10_000,
    connect: tlsOptions,
  });
}

function isSocks(url: URL): boolean {
  return url.protocol === 'socks5:' || url.protocol === 'socks:';
}

let bundledKeys: Set<string> | undefined;

/**
 * The TLS trust for certificates added to Node's bundled roots: undefined when they add nothing new (the system
 * bundle on most Linux systems holds the same Mozilla roots), else `ca` and one secure context built from it.
 *
 * Node parses every `ca` certificate on every handshake when given `ca` alone (bench/network.bench.ts), so one context
 * is built per dispatcher, and only the certificates Node does not already have are added to its default context
 * (`addCACert`, what VS Code's own tls.connect patch uses). Where that method is missing, it is built from `ca`.
 * `ca` stays in the options beside the context so that VS Code's tls.connect patch leaves the connection alone.
 */
export function trustStore(additional: string[]): { ca: string[]; secureContext: tls.SecureContext } | undefined {
  bundledKeys ??= new Set(tls.rootCertificates.map(pemKey));
  const known = bundledKeys;
  const fresh = uniquePems(additional.flatMap(pemBlocks)).filter((pem) => !known.has(pemKey(pem)));
  if (!fresh.length) return undefined;
  const ca = [...tls.rootCertificates, ...fresh];
  const secureContext = tls.createSecureContext();
  const native = (secureContext as { context?: { addCACert?: (pem: string) => void } }).context;
  if (typeof native?.addCACert !== 'function') return { ca, secureContext: tls.createSecureContext({ ca }) };
  for (const pem of fresh) native.addCACert(pem);
  return { ca, secureContext };
}
