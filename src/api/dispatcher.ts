/**
 * The connection pool a client sends through: a keep-alive Pool for the server's origin, or a ProxyAgent when
 * VS Code's `http.proxy` is set. Extra CA certificates are added to Node's own roots, never instead of them.
 */
import * as tls from 'node:tls';
import { Pool, ProxyAgent, type Dispatcher } from 'undici';
import { ConfigError } from './errors';

/** VS Code's proxy setting; named in every message about the proxy. */
export const PROXY_SETTING = 'http.proxy';
/** The extension's setting for extra certificate authorities; named when one of its files is not PEM. */
export const CA_CERTIFICATES_SETTING = 'unleash.network.caCertificates';

export interface NetworkOptions {
  /** PEM text of extra certificate authorities (self-hosted servers with a private CA). */
  extraCaCertificates?: string[];
  /** False turns certificate checks off (the UI warns whenever this is in effect). */
  rejectUnauthorized?: boolean;
  /** An http(s) proxy URL, e.g. from VS Code's `http.proxy`; `host:port` alone means `http://host:port`. */
  proxy?: string;
  /** Whether the proxy's own certificate is checked (`http.proxyStrictSSL`). */
  proxyStrictSSL?: boolean;
}

const PROXY_PROTOCOLS = new Set(['http:', 'https:', 'socks:', 'socks5:']);

/**
 * The proxy URL to use, or undefined when none is set. `proxy.corp:8080` (no scheme, as curl and many users write
 * it) means `http://proxy.corp:8080`. Throws a ConfigError naming `http.proxy` for anything unusable; the message
 * never repeats the value, which may hold a password.
 */
export function parseProxyUrl(raw: string | undefined): URL | undefined {
  const text = (raw ?? '').trim();
  if (!text) return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ConfigError(PROXY_SETTING, 'is not a valid proxy address. Use the form http://proxy.example.com:8080.');
  }
  if (!PROXY_PROTOCOLS.has(url.protocol)) {
    throw new ConfigError(PROXY_SETTING, `uses ${url.protocol}// which is not supported: use http://, https:// or socks5://.`);
  }
  if (!url.hostname) {
    throw new ConfigError(PROXY_SETTING, 'has no host name. Use the form http://proxy.example.com:8080.');
  }
  return url;
}

/** `host:port` of a proxy, for messages: never its user name or password. */
export function proxyLabel(raw: string | undefined): string | undefined {
  try {
    return parseProxyUrl(raw)?.host;
  } catch {
    return undefined;
  }
}

export function createDispatcher(baseUrl: URL, options: NetworkOptions = {}): Dispatcher {
  const extra = options.extraCaCertificates ?? [];
  // Node silently ignores CA text without a PEM block, which would leave the user with the same TLS error and no
  // clue: say which setting holds a file that is not PEM (DER, a key, an empty file).
  if (extra.some((pem) => !/-----BEGIN CERTIFICATE-----/.test(pem))) {
    throw new ConfigError(
      CA_CERTIFICATES_SETTING,
      'lists a file that holds no PEM certificate (a "-----BEGIN CERTIFICATE-----" block). Give the CA certificate in PEM form.',
    );
  }
  const tlsOptions = {
    ca: extra.length ? [...tls.rootCertificates, ...extra] : undefined,
    rejectUnauthorized: options.rejectUnauthorized ?? true,
  };
  const proxy = parseProxyUrl(options.proxy);
  if (proxy) {
    return new ProxyAgent({
      uri: proxy.href,
      requestTls: tlsOptions,
      proxyTls: { rejectUnauthorized: options.proxyStrictSSL ?? true },
    });
  }
  return new Pool(baseUrl.origin, {
    connections: 8,
    keepAliveTimeout: 10_000,
    connect: tlsOptions,
  });
}
