/**
 * The one error formatter: turns any error into the sentence a user reads and the next steps offered as buttons
 * (showError in commands/commandHelpers.ts makes the buttons). Network failures are worded in formatNetworkError.ts.
 */
import * as l10n from '@vscode/l10n';
import {
  AuthError,
  BadRequestError,
  CancelledError,
  ConfigError,
  DeadlineError,
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
import { settingId, Settings } from '../../base/constants';
import { ExportPathError } from '../export/exportPathError';
import { inertText } from '../text/markdown';
import { clean } from '../text/plainText';
import { ExportFilesError } from '../export/exportFilesError';
import { ExportWriteError } from '../export/exportWriteError';
import { ExportTooLargeError } from '../export/exportBudget';
import type { FormattedError } from './formattedError';
import { describeNetwork } from './formatNetworkError';

export interface ErrorContext {
  /** What was being done, as a verb phrase: "load the flags", "check the tag". */
  action?: string;
  /** The server URL, for messages that name it. */
  server?: string;
  /** Ends the message with the request that failed (method and path), when the error names one. */
  request?: boolean;
}

const SERVER_URL = settingId(Settings.serverUrl);
const TIMEOUT = settingId(Settings.requestTimeoutSeconds);

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
function failedRequest(error: unknown): string | undefined {
  const request = typeof error === 'object' && error !== null ? (error as { request?: unknown }).request : undefined;
  return typeof request === 'string' && /^(GET|POST|PUT|PATCH|DELETE) \//.test(request) ? clean(request, MAX_REQUEST) : undefined;
}

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
  if (error instanceof DeadlineError) {
    // Only an export streams: each wait was within the timeout, so raising it would not help.
    return {
      message: l10n.t(
        '{0} was still sending the export after {1}, so it was stopped; the previous file is unchanged. Check the server and the network to it, or export a smaller scope (a project or a tag).',
        server,
        duration(error.deadlineMs / 1000),
      ),
      actions: ['retry', 'showLog'],
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


/** Ends a message with one full stop. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
