/**
 * The one error formatter: turns any error into the sentence a user reads and the next steps offered as buttons.
 * Imports nothing from 'vscode' (showError.ts turns the steps into buttons), so every message is unit-tested.
 */
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
} from '../api/errors';
import { ExportPathError } from './exportPath';
import { inertText } from './markdown';
import { ExportWriteError } from './exportToFile';

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
}

const SERVER_URL = 'unleash.serverUrl';
const TIMEOUT = 'unleash.requestTimeoutSeconds';
const CA = 'unleash.network.caCertificates';
const PROXY = 'http.proxy';

/** Longest message shown; server text inside is already cut, this bounds the whole. */
const MAX_MESSAGE = 1_000;

export function formatError(error: unknown, context: ErrorContext = {}): FormattedError {
  const result = describe(error, context.server ?? 'the server');
  const message = context.action ? `Could not ${context.action}. ${result.message}` : result.message;
  return { ...result, message: inertText(message, MAX_MESSAGE) };
}

/**
 * The message as notification-safe plain text. Messages quote the server (its error text, a redirect target), and
 * VS Code turns `[text](command:…)`, `[text](file:…)` and `[text](https:…)` in a notification into links that run or
 * open on a click: every `](` is broken up so no link can form. Control characters become spaces, bidirectional
 * overrides (which make text read backwards) are dropped, and the length is bounded.
 */
/** `30 s`, `5 min`, `2 h`. */
function duration(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

function describe(error: unknown, server: string): FormattedError {
  if (error instanceof CancelledError) return { message: 'Cancelled.', actions: [], silent: true };
  if (error instanceof ConfigError) {
    // A setting gets an Open Settings button; an environment variable (HTTPS_PROXY) cannot be opened there.
    if (isEnvironmentVariable(error.setting)) return { message: error.message, actions: ['showLog'] };
    return { message: error.message, actions: ['openSettings'], setting: error.setting };
  }
  if (error instanceof MissingTokenError) {
    return {
      message: `No API token is set for ${server}. Run "Unleash: Set API Token" or set the UNLEASH_API_TOKEN environment variable.`,
      actions: ['setToken'],
    };
  }
  if (error instanceof InvalidTokenError) {
    return {
      message: `The API token for ${server} contains characters that cannot be sent (a line break, a non-ASCII or an invisible character, often left by copy and paste). Set the token again.`,
      actions: ['setToken'],
    };
  }
  if (error instanceof AuthError) {
    return {
      message: `${server} rejected the API token (401${error.serverMessage ? `: ${error.serverMessage}` : ''}). It may be mistyped, expired or deleted: set a new one.`,
      actions: ['setToken', 'showLog'],
    };
  }
  if (error instanceof ForbiddenError) {
    return error.wrongTokenType
      ? {
          message: 'This API token is a client (backend or frontend) token, and the Admin API does not accept those (403). Create an admin token or a personal access token in Unleash and set it.',
          actions: ['setToken'],
        }
      : {
          message: `The API token has no permission for this (403${error.serverMessage ? `: ${error.serverMessage}` : ''}). Ask an Unleash admin for access, or use another token.`,
          actions: ['setToken', 'showLog'],
        };
  }
  if (error instanceof NotFoundError) {
    if (/path you were looking for/i.test(error.serverMessage ?? '') || !error.serverMessage) {
      return {
        message: `${server} has no Unleash Admin API at this address (404). Check ${SERVER_URL}: it is the address you open Unleash at.`,
        actions: ['openSettings', 'showLog'],
        setting: SERVER_URL,
      };
    }
    // The server's sentence already names the project the flag is in: say what to do instead of repeating it.
    const next = error.actualProject ? ' Refresh the flags to read it from there.' : '';
    return { message: `Not found: ${error.serverMessage}.${next}`.replace(/\.\./g, '.'), actions: ['retry'] };
  }
  if (error instanceof BadRequestError) return { message: sentence(error.message), actions: ['showLog'] };
  if (error instanceof ExportPathError) return { message: error.message, actions: ['openSettings'], setting: error.setting };
  if (error instanceof ExportWriteError) return { message: error.message, actions: ['retry', 'showLog'] };
  if (error instanceof HttpError) return describeHttp(error, server);
  if (error instanceof NetworkError) return describeNetwork(error, server);
  if (error instanceof TimeoutError) {
    return {
      message: `${server} did not answer within ${error.timeoutMs / 1000} s. Try again, or raise ${TIMEOUT}.`,
      actions: ['retry', 'openSettings'],
      setting: TIMEOUT,
    };
  }
  if (error instanceof SchemaError) {
    return {
      message: `${error.message} Check that ${SERVER_URL} points at an Unleash server; the log has details.`,
      actions: ['showLog', 'openSettings'],
      setting: SERVER_URL,
    };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { message: `Unexpected error: ${text}`, actions: ['showLog'] };
}

function describeHttp(error: HttpError, server: string): FormattedError {
  if (error.maintenance) return { message: `${server} is in maintenance mode (503). Try again later.`, actions: ['retry'] };
  if (error.status >= 300 && error.status < 400 && error.location) {
    return {
      message: `${server} redirects to ${error.location} (${error.status}) instead of answering. If that is your Unleash server, put that address in ${SERVER_URL}; if it is a login page, a proxy or single sign-on is in the way.`,
      actions: ['openSettings', 'showLog'],
      setting: SERVER_URL,
    };
  }
  if (error.status === 429) {
    const wait = error.retryAfterSeconds ? ` in ${duration(error.retryAfterSeconds)}` : ' in a moment';
    return { message: `${server} is limiting requests (429). Try again${wait}.`, actions: ['retry'] };
  }
  if (error.status >= 500) {
    return {
      message: `${server} failed (${error.status}${error.serverMessage ? `: ${error.serverMessage}` : ''}). Try again; if it keeps failing, check the server's logs.`,
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
      message: `The TLS certificate of ${server} was issued for another host name (${code}). Use the host name the certificate names in ${SERVER_URL}.`,
      actions: ['openSettings', 'showLog'],
      setting: SERVER_URL,
    };
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    const state = code === 'CERT_HAS_EXPIRED' ? 'has expired' : 'is not valid yet';
    return {
      message: `The TLS certificate of ${server} ${state} (${code}). Check this computer's clock, and ask the server's administrator to renew the certificate.`,
      actions: ['retry', 'showLog'],
    };
  }
  if (/WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST/i.test(`${code} ${error.message}`)) {
    return {
      message: `${server} does not speak HTTPS at this address (${code || 'TLS error'}). Check the port in ${SERVER_URL}: use the https:// address you open Unleash at, or ask the server's administrator for it.`,
      actions: ['openSettings', 'showLog'],
      setting: SERVER_URL,
    };
  }
  if (error.tls) {
    return {
      message: `Could not verify the TLS certificate of ${server} (${error.code ?? 'TLS error'}). If it uses a private certificate authority, add its PEM file to ${CA}.`,
      actions: ['openSettings', 'showLog'],
      setting: CA,
    };
  }
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') {
    return {
      message: `Could not find the host of ${server} (${error.code}). Check ${SERVER_URL}.`,
      actions: ['openSettings', 'retry'],
      setting: SERVER_URL,
    };
  }
  if (error.code === 'ECONNREFUSED') {
    return {
      message: `Could not connect to ${server}: connection refused. Is the server running, and is ${SERVER_URL} right?`,
      actions: ['retry', 'openSettings'],
      setting: SERVER_URL,
    };
  }
  return {
    message: `Lost the connection to ${server} (${error.code ?? 'network error'}). Try again.`,
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
      message: `The proxy ${proxy} (${source}) asks for a user name and password (407). Put them in ${source} (http://user:password@host:port), or ask your network administrator.`,
      actions: [...openSettings, 'showLog'],
      ...setting,
    };
  }
  if (status !== undefined) {
    return {
      message: `The proxy ${proxy} (${source}) would not connect to ${server} (${status}). Check ${SERVER_URL} and ${source}, or ask your network administrator.`,
      actions: ['retry', ...openSettings, 'showLog'],
      ...setting,
    };
  }
  if (error.code === 'ECONNREFUSED' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') {
    return {
      message: `Could not connect to the proxy ${proxy} (${error.code}). Check ${source}, or clear it if this network needs no proxy.`,
      actions: [...openSettings, 'retry'],
      ...setting,
    };
  }
  return undefined;
}

/** Ends a message with one full stop. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
