/**
 * The connection pool a client sends through: a keep-alive Pool for the server's origin, or a ProxyAgent when
 * VS Code's `http.proxy` is set. Extra CA certificates are added to Node's own roots, never instead of them.
 */
import * as tls from 'node:tls';
import { Pool, ProxyAgent, type Dispatcher } from 'undici';

export interface NetworkOptions {
  /** PEM text of extra certificate authorities (self-hosted servers with a private CA). */
  extraCaCertificates?: string[];
  /** False turns certificate checks off (the UI warns whenever this is in effect). */
  rejectUnauthorized?: boolean;
  /** An http(s) proxy URL, e.g. from VS Code's `http.proxy`. */
  proxy?: string;
  /** Whether the proxy's own certificate is checked (`http.proxyStrictSSL`). */
  proxyStrictSSL?: boolean;
}

export function createDispatcher(baseUrl: URL, options: NetworkOptions = {}): Dispatcher {
  const tlsOptions = {
    ca: options.extraCaCertificates?.length ? [...tls.rootCertificates, ...options.extraCaCertificates] : undefined,
    rejectUnauthorized: options.rejectUnauthorized ?? true,
  };
  if (options.proxy) {
    return new ProxyAgent({
      uri: options.proxy,
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
