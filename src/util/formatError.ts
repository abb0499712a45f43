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
  MissingTokenError,
  NetworkError,
  NotFoundError,
  SchemaError,
  TimeoutError,
} from '../api/errors';

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

export function formatError(error: unknown, context: ErrorContext = {}): FormattedError {
  const result = describe(error, context.server ?? 'the server');
  return { ...result, message: context.action ? `Could not ${context.action}. ${result.message}` : result.message };
}

function describe(error: unknown, server: string): FormattedError {
  if (error instanceof CancelledError) return { message: 'Cancelled.', actions: [], silent: true };
  if (error instanceof ConfigError) return { message: error.message, actions: ['openSettings'], setting: error.setting };
  if (error instanceof MissingTokenError) {
    return {
      message: `No API token is set for ${server}. Run "Unleash: Set API Token" or set the UNLEASH_API_TOKEN environment variable.`,
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
    const where = error.actualProject ? ` It is in project "${error.actualProject}".` : '';
    return { message: `Not found: ${error.serverMessage}.${where}`.replace(/\.\./g, '.'), actions: ['retry'] };
  }
  if (error instanceof BadRequestError) return { message: `${error.message}.`, actions: ['showLog'] };
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
  if (error.status === 429) {
    const wait = error.retryAfterSeconds !== undefined ? ` in ${error.retryAfterSeconds} s` : ' in a moment';
    return { message: `${server} is limiting requests (429). Try again${wait}.`, actions: ['retry'] };
  }
  if (error.status >= 500) {
    return {
      message: `${server} failed (${error.status}${error.serverMessage ? `: ${error.serverMessage}` : ''}). Try again; if it keeps failing, check the server's logs.`,
      actions: ['retry', 'showLog'],
    };
  }
  return { message: `${error.message}.`, actions: ['showLog'] };
}

function describeNetwork(error: NetworkError, server: string): FormattedError {
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
