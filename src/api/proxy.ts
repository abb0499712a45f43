/**
 * Which proxy a request to the server goes through, decided the way VS Code's own extension host decides it
 * (@vscode/proxy-agent, `useProxySettings`), from the same settings and the environment passed in. VS Code would in
 * the end ask the operating system (system proxy, PAC file); extensions have no API for that, so it is not done here.
 */
import * as l10n from '@vscode/l10n';
import * as net from 'node:net';
import { PROXY_SETTING } from '../base/constants';
import { ConfigError } from './errors';
import { bareHost, isLoopback } from './baseUrl';


export type ProxySupport = 'off' | 'on' | 'fallback' | 'override';

export interface ProxySettings {
  /** `http.proxy`; `host:port` alone means `http://host:port`. */
  proxy?: string;
  /** `http.noProxy`: hosts reached without the proxy. When empty, `NO_PROXY` applies. */
  noProxy?: string[];
  /** `http.proxyAuthorization`: sent as `Proxy-Authorization` to the proxy (wins over credentials in the URL). */
  proxyAuthorization?: string;
  /** `http.proxySupport`; `off` means no proxy at all. */
  proxySupport?: ProxySupport;
  /** Where `HTTPS_PROXY`, `NO_PROXY`… are read; none when absent (tests stay hermetic; the extension passes process.env). */
  env?: Record<string, string | undefined>;
  /** Loopback servers go direct, as in VS Code (the extension sets it; tests of a proxy on 127.0.0.1 leave it off). */
  directLoopback?: boolean;
}

type ProxyChoice =
  | { kind: 'direct'; reason: 'none' | 'off' | 'loopback' | 'noProxy' }
  | {
      kind: 'proxy';
      url: URL;
      /** What named it: `http.proxy` or the environment variable (`HTTPS_PROXY`…), for messages. */
      source: string;
      /** `host:port`, never the credentials. */
      label: string;
    };

const PROXY_PROTOCOLS = new Set(['http:', 'https:', 'socks:', 'socks5:']);
const ENV_PROXY = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] as const;
const ENV_NO_PROXY = ['no_proxy', 'NO_PROXY'] as const;

/**
 * The proxy URL to use, or undefined when none is set. `proxy.corp:8080` (no scheme, as curl and many users write
 * it) means `http://proxy.corp:8080`. Throws a ConfigError naming `source` for anything unusable; the message
 * never repeats the value, which may hold a password.
 */
function parseProxyUrl(raw: string | undefined, source = PROXY_SETTING): URL | undefined {
  const text = (raw ?? '').trim();
  if (!text) return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ConfigError(source, l10n.t('is not a valid proxy address. Use the form http://proxy.example.com:8080.'));
  }
  if (!PROXY_PROTOCOLS.has(url.protocol)) {
    throw new ConfigError(source, l10n.t('uses {0}// which is not supported: use http://, https:// or socks5://.', url.protocol));
  }
  if (!url.hostname) {
    throw new ConfigError(source, l10n.t('has no host name. Use the form http://proxy.example.com:8080.'));
  }
  return url;
}

/**
 * Decides how requests to `target` travel: `http.proxySupport: off`, no proxy; a loopback server directly (when
 * `directLoopback`, as in VS Code); a host `http.noProxy` (or when that is empty `NO_PROXY`) matches, directly; else
 * `http.proxy`, or when empty `https_proxy`, `HTTPS_PROXY`, `http_proxy`, `HTTP_PROXY` (in that order, whatever the
 * server's scheme, as VS Code reads them); otherwise directly.
 */
export function chooseProxy(target: URL, settings: ProxySettings = {}): ProxyChoice {
  if (settings.proxySupport === 'off') return { kind: 'direct', reason: 'off' };
  const env = settings.env ?? {};
  const host = bareHost(target);
  if (settings.directLoopback && isLoopback(target)) return { kind: 'direct', reason: 'loopback' };
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  const configured = (settings.noProxy ?? []).map((entry) => entry.trim()).filter(Boolean);
  const noProxy = configured.length ? configured : firstEnv(env, ENV_NO_PROXY)?.value.split(',') ?? [];
  if (bypassesProxy(host, port, noProxy)) return { kind: 'direct', reason: 'noProxy' };
  const fromSetting = parseProxyUrl(settings.proxy);
  if (fromSetting) return { kind: 'proxy', url: fromSetting, source: PROXY_SETTING, label: fromSetting.host };
  const fromEnv = firstEnv(env, ENV_PROXY);
  const envUrl = fromEnv && parseProxyUrl(fromEnv.value, fromEnv.name);
  if (fromEnv && envUrl) return { kind: 'proxy', url: envUrl, source: fromEnv.name, label: envUrl.host };
  return { kind: 'direct', reason: 'none' };
}

/**
 * Whether `host` (lower case, IPv6 without brackets) on `port` is exempt from the proxy by one of `entries`:
 * `*` (everything), `host`, `host:port`, `.domain` / `*.domain` / `domain` (the domain and its subdomains, never a
 * name that merely ends the same: `example.com` does not exempt `badexample.com`), an IP address, or a CIDR range
 * such as `10.0.0.0/8` (an address only; names are not resolved to check them, as in VS Code).
 */
export function bypassesProxy(host: string, port: string, entries: readonly string[]): boolean {
  const ipVersion = net.isIP(host);
  for (const raw of entries) {
    let entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    if (ipVersion && matchesAddress(host, ipVersion, entry)) return true;
    const hostPort = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
    if (hostPort) {
      if (hostPort[2] !== port) continue;
      entry = (hostPort[1] as string).replace(/^\[|\]$/g, '');
    }
    entry = entry.replace(/^\*?\./, '');
    if (host === entry || (!ipVersion && host.endsWith(`.${entry}`))) return true;
  }
  return false;
}

function matchesAddress(host: string, version: number, entry: string): boolean {
  const [address, prefix] = entry.split('/');
  const entryVersion = net.isIP(address ?? '');
  if (entryVersion !== version || !address) return false;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const list = new net.BlockList();
  if (prefix === undefined) {
    list.addAddress(address, family);
  } else {
    const bits = Number(prefix);
    if (!Number.isInteger(bits) || bits < 0 || bits > (version === 4 ? 32 : 128)) return false;
    list.addSubnet(address, bits, family);
  }
  return list.check(host, family);
}

function firstEnv(env: Record<string, string | undefined>, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}
