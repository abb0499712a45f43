/** The server URL setting: parsed and checked, as text for requests, and whether it is a loopback address. */
import * as l10n from '@vscode/l10n';
import { ConfigError } from './errors';

/** The setting that holds the server URL; named in every message about it. */
export const SERVER_URL_SETTING = 'unleash.serverUrl';

/**
 * Parses the server URL setting. Accepts http(s) URLs, with or without a path prefix
 * (`https://flags.example.com/unleash`); the `/api/admin` suffix people paste by habit is dropped.
 * Throws a ConfigError naming the setting and saying what to change.
 */
export function parseBaseUrl(raw: string | undefined): URL {
  const text = (raw ?? '').trim();
  if (!text) {
    throw new ConfigError(SERVER_URL_SETTING, l10n.t('is empty. Set it to your Unleash address, e.g. https://unleash.example.com.'));
  }
  if (/\s/.test(text)) {
    throw new ConfigError(SERVER_URL_SETTING, l10n.t('contains spaces. Enter the address only, e.g. https://unleash.example.com.'));
  }
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    throw new ConfigError(SERVER_URL_SETTING, l10n.t('has no scheme: start it with https:// or http:// (for example https://{0}).', text));
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(SERVER_URL_SETTING, l10n.t('is not a valid URL. Use the form https://unleash.example.com.'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(SERVER_URL_SETTING, l10n.t('uses {0}// which is not supported: use https:// or http://.', url.protocol));
  }
  if (url.username || url.password) {
    throw new ConfigError(SERVER_URL_SETTING, l10n.t('contains a user name or password. Remove them and use an API token instead.'));
  }
  url.search = '';
  url.hash = '';
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/api(\/admin)?$/, '');
  return url;
}

/** `https://host/prefix` without a trailing slash, for building links into the web UI. */
export function baseUrlText(url: URL): string {
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The host of `url` as host rules compare it: lower case, an IPv6 address without its brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/**
 * Whether `url` names this machine without asking DNS: `localhost` itself, 127.0.0.0/8 (also as an IPv4-mapped IPv6
 * address, which the URL parser writes `::ffff:7f00:1`) and `::1`. Not `app.localhost`: a name under `localhost`
 * may resolve anywhere through DNS. The one definition: the plain-http warning, the proxy bypass and compression all
 * ask it.
 */
export function isLoopback(url: URL): boolean {
  const host = bareHost(url);
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host) || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host);
}
