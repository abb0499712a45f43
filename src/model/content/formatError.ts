/**
 * The one error formatter: turns any error into the sentence a user reads and the next steps offered as buttons.
 * Imports nothing from 'vscode' (showError.ts turns the steps into buttons), so every message is unit-tested.
 */
import * as l10n from '@vscode/l10n';
import {
  AuthError,
  BadRequestError,
  CancelledError,
  ConfigError,
  ForbiddenError,
  HttpError,
  InvalidTokenError,
  isEnvironmentVariable,
  MissingTokenError,
  NetworkError,
  NotFoundError,
  SchemaError,
  TimeoutError,
} from '../../api/errors';
import { ExportPathError } from '../export/exportPathError';
import { inertText } from '../text/markdown';
import { clean } from '../text/plainText';
import { ExportFilesError } from '../export/exportFilesError';
import { ExportWriteError } from '../export/exportWriteError';
import { ExportTooLargeError } from '../export/exportBudget';

export type NextStep = 'setToken' | 'openSettings' | 'retry' | 'showLog';

export interface FormattedError {
  message: string;
  actions: NextStep[];
  /** The setting "Open Settings" should show, when one is to blame. */
  setting?: string;
  /** Cancellation is not an error to show. */
  silent?: boolean;
}

export interface ErrorContext {
  /** What was being done, as a verb phrase: "load the flags", "check the tag". */
  action?: string;
  /** The server URL, for messages that name it. */
  server?: string;
  /** Ends the message with the request that failed (method and path), when the error names one. */
  request?: boolean;
}

const SERVER_URL = 'unleash.serverUrl';
const TIMEOUT = 'unleash.requestTimeoutSeconds';
const CA = 'unleash.network.caCertificates';
const PROXY = 'http.proxy';

/** Longest message shown; server text inside is already cut, this bounds the whole. */
const MAX_MESSAGE = 1_000;
/** Longest request shown (a path holds a project's or a flag's name). */
const MAX_REQUEST = 200;

export function formatError(error: unknown, context: ErrorContext = {}): FormattedError {
  const result = describe(error, context.server ?? l10n.t('the server'));
  const action = context.action ? l10n.t('Could not {0}. {1}', context.action, result.message) : result.message;
  const request = context.request ? failedRequest(error) : undefined;
  const message = request ? `${action} ${l10n.t('Failed request: {0}.', request)}` : action;
  return { ...result, message: inertText(message, MAX_MESSAGE) };
}

/**
 * The request an error says failed: its method and path, as the client labels it (no host, no query, no token), or
 * undefined when it names none.
 */
export function failedRequest(error: unknown): string | undefined {
  const request = typeof error === 'object' && error !== null ? (error as { request?: unknown }).request : undefined;
  return typeof request === 'string' && /^(GET|POST|PUT|PATCH|DELETE) \//.test(request) ? clean(request, MAX_REQUEST) : undefined;
}

/**
 * The message as notification-safe plain text. Messages quote the server (its error text, a redirect target), and
 * VS Code turns `[text](command:…)`, `[text](file:…)` and `[text](https:…)` in a notification into links that run or
 * open on a click: every `](` is broken up so no link can form. Control characters become spaces, bidirectional
 * overrides (which make text read backwards) are dropped, and the length is bounded.
 */
/** `30 s`, `5 min`, `2 h`. */
function duration(seconds: number): string {
  if (seconds < 90) return l10n.t('{0} s', seconds);
  if (seconds < 90 * 60) return l10n.t('{0} min', Math.round(seconds / 60));
  return l10n.t('{0} h', Math.round(seconds / 3600));
}

function describe(error: unknown, server: string): FormattedError {
  if (error instanceof CancelledError) return { message: l10n.t('Cancelled.'), actions: [], silent: true };
  if (error instanceof ConfigError) {
    // A setting gets an Open Settings button; an environment variable (HTTPS_PROXY) cannot be opened there.
    if (isEnvironmentVariable(error.setting)) return { message: error.message, actions: ['showLog'] };
    return { message: error.message, actions: ['openSettings'], setting: error.setting };
  }
  if (error instanceof MissingTokenError) {
    return {
      message: l10n.t('No API token is set for {0}. Run "Unleash: Set API Token" or set the UNLEASH_API_TOKEN environment variable.', server),
      actions: ['setToken'],
    };
  }
  if (error instanceof InvalidTokenError) {
    return {
      message: l10n.t(
        'The API token for {0} contains characters that cannot be sent (a line break, a non-ASCII or an invisible character, often left by copy and paste). Set the token again.',
        server,
      ),
      actions: ['setToken'],
    };
  }
  if (error instanceof AuthError) {
    return {
      message: error.serverMessage
        ? l10n.t('{0} rejected the API token (401: {1}). It may be mistyped, expired or deleted: set a new one.', server, error.serverMessage)
        : l10n.t('{0} rejected the API token (401). It may be mistyped, expired or deleted: set a new one.', server),
      actions: ['setToken', 'showLog'],
    };
  }
  if (error instanceof ForbiddenError) {
    return error.wrongTokenType
      ? {
          message: l10n.t(
            'This API token is a client (backend or frontend) token, and the Admin API does not accept those (403). Create an admin token or a personal access token in Unleash and set it.',
          ),
          actions: ['setToken'],
        }
      : {
          message: error.serverMessage
            ? l10n.t('The API token has no permission for this (403: {0}). Ask an Unleash admin for access, or use another token.', error.serverMessage)
            : l10n.t('The API token has no permission for this (403). Ask an Unleash admin for access, or use another token.'),
          actions: ['setToken', 'showLog'],
        };
  }
  if (error instanceof NotFoundError) {
    if (/path you were looking for/i.test(error.serverMessage ?? '') || !error.serverMessage) {
      return {
        message: l10n.t('{0} has no Unleash Admin API at this address (404). Check {1}: it is the address you open Unleash at.', server, SERVER_URL),
        actions: ['openSettings', 'showLog'],
        setting: SERVER_URL,
      };
    }
    // The flag lives in another project: asking again (Retry) gets the same answer. It is read from that project:
    // its row in the Flags view, once a refresh has moved it there if the view still shows it in the old one.
    if (error.actualProject) {
      const message = l10n.t(
        'Not found: {0}. Open it from project {1} in the Flags view (after a refresh, if the view still shows it in another project).',
        error.serverMessage,
        clean(error.actualProject, 60),
      );
      return { message: message.replace(/\.\./g, '.'), actions: [] };
    }
    return { message: l10n.t('Not found: {0}.', error.serverMessage).replace(/\.\./g, '.'), actions: ['retry'] };
  }
  if (error instanceof BadRequestError) return { message: sentence(error.message), actions: ['showLog'] };
  if (error instanceof ExportPathError) return { message: error.message, actions: ['openSettings'], setting: error.setting };
  if (error instanceof ExportFilesError) return { message: error.message, actions: ['retry', 'showLog'] };
  if (error instanceof ExportWriteError) return { message: error.message, actions: ['retry', 'showLog'] };
  if (error instanceof ExportTooLargeError) return { message: error.message, actions: ['openSettings'], setting: error.setting };
  if (error instanceof HttpError) return describeHttp(error, server);
  if (error instanceof NetworkError) return describeNetwork(error, server);
  if (error instanceof TimeoutError) {
    return {
      message: l10n.t('{0} did not answer within {1} s. Try again, or raise {2}.', server, error.timeoutMs / 1000, TIMEOUT),
      actions: ['retry', 'openSettings'],
      setting: TIMEOUT,
    };
  }
  if (error instanceof SchemaError) {
    return {
      message: l10n.t('{0} Check that {1} points at an Unleash server; the log has details.', error.message, SERVER_URL),
      actions: ['showLog', 'openSettings'],
      setting: SERVER_URL,
    };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { message: l10n.t('Unexpected error: {0}', text), actions: ['showLog'] };
}

function describeHttp(error: HttpError, server: string): FormattedError {
  if (error.maintenance) return { message: l10n.t('{0} is in maintenance mode (503). Try again later.', server), actions: ['retry'] };
  if (error.status >= 300 && error.status < 400 && error.location) {
    return {
      message: l10n.t(
        '{0} redirects to {1} ({2}) instead of answering. If that is your Unleash server, put that address in {3}; if it is a login page, a proxy or single sign-on is in the way.',
        server,
        error.location,
        error.status,
        SERVER_URL,
      ),
      actions: ['openSettings', 'showLog'],
      setting: SERVER_URL,
    };
  }
  if (error.status === 429) {
    const message = error.retryAfterSeconds
      ? l10n.t('{0} is limiting requests (429). Try again in {1}.', server, duration(error.retryAfterSeconds))
      : l10n.t('{0} is limiting requests (429). Try again in a moment.', server);
    return { message, actions: ['retry'] };
  }
  if (error.status >= 500) {
    return {
      message: error.serverMessage
        ? l10n.t("{0} failed ({1}: {2}). Try again; if it keeps failing, check the server's logs.", server, error.status, error.serverMessage)
        : l10n.t("{0} failed ({1}). Try again; if it keeps failing, check the server's logs.", server, error.status),
      actions: ['retry', 'showLog'],
    };
  }
  return { message: sentence(error.message), actions: ['showLog'] };
}

function describeNetwork(error: NetworkError, server: string): FormattedError {
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
  const source = error.proxySource ?? PROXY;
  const setting = source === PROXY ? { setting: PROXY } : {};
  const openSettings = source === PROXY ? (['openSettings'] as const) : [];
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

/** Ends a message with one full stop. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
