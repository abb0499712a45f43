/**
 * The sentence and next steps for a request that never got an answer: TLS (certificate, host name, not HTTPS),
 * DNS, a refused connection, and failures of an HTTP or SOCKS5 proxy (named by what set it).
 */
import * as l10n from '@vscode/l10n';
import type { NetworkError } from '../../api/errors';
import { PROXY_SETTING, settingId, Settings } from '../../base/constants';
import type { FormattedError } from './formattedError';

const SERVER_URL = settingId(Settings.serverUrl);
const CA = settingId(Settings.caCertificates);

export function describeNetwork(error: NetworkError, server: string): FormattedError {
  if (error.proxy) {
    const proxied = describeProxy(error, server, error.proxy);
    if (proxied) return proxied;
  }
  const code = error.code ?? '';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') {
    return {
      message: l10n.t('The TLS certificate of {0} was issued for another host name ({1}). Use the host name the certificate names in {2}.', server, code, SERVER_URL),
      actions: ['openSettings', 'showLog'],
      setting: SERVER_URL,
    };
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return {
      message:
        code === 'CERT_HAS_EXPIRED'
          ? l10n.t("The TLS certificate of {0} has expired ({1}). Check this computer's clock, and ask the server's administrator to renew the certificate.", server, code)
          : l10n.t("The TLS certificate of {0} is not valid yet ({1}). Check this computer's clock, and ask the server's administrator to renew the certificate.", server, code),
      actions: ['retry', 'showLog'],
    };
  }
  if (/WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST/i.test(`${code} ${error.message}`)) {
    return {
      message: l10n.t(
        "{0} does not speak HTTPS at this address ({1}). Check the port in {2}: use the https:// address you open Unleash at, or ask the server's administrator for it.",
        server,
        code || l10n.t('TLS error'),
        SERVER_URL,
      ),
      actions: ['openSettings', 'showLog'],
      setting: SERVER_URL,
    };
  }
  if (error.tls) {
    return {
      message: l10n.t(
        'Could not verify the TLS certificate of {0} ({1}). If it uses a private certificate authority, add its PEM file to {2}.',
        server,
        error.code ?? l10n.t('TLS error'),
        CA,
      ),
      actions: ['openSettings', 'showLog'],
      setting: CA,
    };
  }
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') {
    return {
      message: l10n.t('Could not find the host of {0} ({1}). Check {2}.', server, error.code, SERVER_URL),
      actions: ['openSettings', 'retry'],
      setting: SERVER_URL,
    };
  }
  if (error.code === 'ECONNREFUSED') {
    return {
      message: l10n.t('Could not connect to {0}: connection refused. Is the server running, and is {1} right?', server, SERVER_URL),
      actions: ['retry', 'openSettings'],
      setting: SERVER_URL,
    };
  }
  return {
    message: l10n.t('Lost the connection to {0} ({1}). Try again.', server, error.code ?? l10n.t('network error')),
    actions: ['retry', 'showLog'],
  };
}

/**
 * Failures that are the proxy's (it refused us, or refused to open the tunnel); undefined for the server's own. The
 * message names what set the proxy: `http.proxy` (with an Open Settings button) or an environment variable.
 */
function describeProxy(error: NetworkError, server: string, proxy: string): FormattedError | undefined {
  const source = error.proxySource ?? PROXY_SETTING;
  const setting = source === PROXY_SETTING ? { setting: PROXY_SETTING } : {};
  const openSettings = source === PROXY_SETTING ? (['openSettings'] as const) : [];
  const status = error.proxyStatus;
  if (status === 407) {
    return {
      message: l10n.t(
        'The proxy {0} ({1}) asks for a user name and password (407). Put them in {1} (http://user:password@host:port), or ask your network administrator.',
        proxy,
        source,
      ),
      actions: [...openSettings, 'showLog'],
      ...setting,
    };
  }
  if (status !== undefined) {
    return {
      message: l10n.t(
        'The proxy {0} ({1}) would not connect to {2} ({3}). Check {4} and {1}, or ask your network administrator.',
        proxy,
        source,
        server,
        status,
        SERVER_URL,
      ),
      actions: ['retry', ...openSettings, 'showLog'],
      ...setting,
    };
  }
  const socks = describeSocks(error.code ?? '', server, proxy, source);
  if (socks) return { message: socks.message, actions: [...(socks.retry ? (['retry'] as const) : []), ...openSettings, 'showLog'], ...setting };
  if (error.code === 'ECONNREFUSED' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') {
    return {
      message: l10n.t('Could not connect to the proxy {0} ({1}). Check {2}, or clear it if this network needs no proxy.', proxy, error.code, source),
      actions: [...openSettings, 'retry'],
      ...setting,
    };
  }
  return undefined;
}

/** A SOCKS5 proxy's refusal (undici's `UND_ERR_SOCKS5_…` codes), in words; undefined for any other failure. */
function describeSocks(code: string, server: string, proxy: string, source: string): { message: string; retry: boolean } | undefined {
  if (!code.startsWith('UND_ERR_SOCKS5')) return undefined;
  if (code === 'UND_ERR_SOCKS5_AUTH_FAILED' || code === 'UND_ERR_SOCKS5_AUTH_REJECTED') {
    return {
      message: l10n.t(
        'The SOCKS5 proxy {0} ({1}) refused the user name and password, or asks for them ({2}). Put the right ones in {1} (socks5://user:password@host:port), or ask your network administrator.',
        proxy,
        source,
        code,
      ),
      retry: false,
    };
  }
  if (code.startsWith('UND_ERR_SOCKS5_REPLY_')) {
    return {
      message: l10n.t('The proxy {0} ({1}) would not connect to {2} ({3}). Check {4} and {1}, or ask your network administrator.', proxy, source, server, code, SERVER_URL),
      retry: true,
    };
  }
  return {
    message: l10n.t('The proxy {0} ({1}) did not answer as a SOCKS5 proxy ({2}). Check the address and port in {1}, or use an http:// proxy.', proxy, source, code),
    retry: false,
  };
}
