import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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
} from '../../src/api/errors';
import { formatError } from '../../src/model/content/formatError';

const request = 'GET /api/admin/tags/team/x';
const server = 'unleash.example.com';

describe('formatError: what the user reads and can do next', () => {
  const cases: Array<[string, unknown, string, string[]]> = [
    ['no token', new MissingTokenError(), 'No API token is set for unleash.example.com. Run "Unleash: Set API Token" or set the UNLEASH_API_TOKEN environment variable.', ['setToken']],
    ['bad token', new AuthError({ status: 401, request, serverMessage: 'You must log in to use Unleash.' }), 'unleash.example.com rejected the API token (401: You must log in to use Unleash.). It may be mistyped, expired or deleted: set a new one.', ['setToken', 'showLog']],
    ['client token', new ForbiddenError({ status: 403, request, serverMessage: 'invalid token: expected a different token type for this endpoint' }), 'This API token is a client (backend or frontend) token, and the Admin API does not accept those (403). Create an admin token or a personal access token in Unleash and set it.', ['setToken']],
    ['no permission', new ForbiddenError({ status: 403, request, serverMessage: 'You need UPDATE_FEATURE' }), 'The API token has no permission for this (403: You need UPDATE_FEATURE). Ask an Unleash admin for access, or use another token.', ['setToken', 'showLog']],
    ['wrong URL', new NotFoundError({ status: 404, request, serverMessage: 'The path you were looking for (/api/admin/x) is not available.' }), 'unleash.example.com has no Unleash Admin API at this address (404). Check unleash.serverUrl: it is the address you open Unleash at.', ['openSettings', 'showLog']],
    ['flag elsewhere', new NotFoundError({ status: 404, request, serverMessage: 'There\'s no feature named "x" in project "default", but there\'s a feature with that name in project "checkout"' }), 'Not found: There\'s no feature named "x" in project "default", but there\'s a feature with that name in project "checkout". Open it from project checkout in the Flags view (after a refresh, if the view still shows it in another project).', []],
    ['rate limited', new HttpError({ status: 429, request, retryAfterSeconds: 30 }), 'unleash.example.com is limiting requests (429). Try again in 30 s.', ['retry']],
    ['maintenance', new HttpError({ status: 503, request, serverMessage: 'Unleash is in maintenance mode' }), 'unleash.example.com is in maintenance mode (503). Try again later.', ['retry']],
    ['server error', new HttpError({ status: 502, request }), 'unleash.example.com failed (502). Try again; if it keeps failing, check the server\'s logs.', ['retry', 'showLog']],
    ['refused', new NetworkError(request, 'ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1'), 'Could not connect to unleash.example.com: connection refused. Is the server running, and is unleash.serverUrl right?', ['retry', 'openSettings']],
    ['dns', new NetworkError(request, 'ENOTFOUND', 'getaddrinfo ENOTFOUND x'), 'Could not find the host of unleash.example.com (ENOTFOUND). Check unleash.serverUrl.', ['openSettings', 'retry']],
    ['tls', new NetworkError(request, 'DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'), 'Could not verify the TLS certificate of unleash.example.com (DEPTH_ZERO_SELF_SIGNED_CERT). If it uses a private certificate authority, add its PEM file to unleash.network.caCertificates.', ['openSettings', 'showLog']],
    ['timeout', new TimeoutError(request, 15000), 'unleash.example.com did not answer within 15 s. Try again, or raise unleash.requestTimeoutSeconds.', ['retry', 'openSettings']],
    ['html', new SchemaError(request, 'the server answered with an HTML page instead of JSON (is the URL your Unleash server, or is a proxy or login page in the way?)'), 'Unexpected answer from the server: the server answered with an HTML page instead of JSON (is the URL your Unleash server, or is a proxy or login page in the way?). Check that unleash.serverUrl points at an Unleash server; the log has details.', ['showLog', 'openSettings']],
    ['bad request', new BadRequestError({ status: 400, request, details: [{ message: 'The `/body/environment` property is required.' }] }), 'The server refused the request (400): The `/body/environment` property is required.', ['showLog']],
    ['setting', new ConfigError('unleash.serverUrl', 'has no scheme: start it with https:// or http:// (for example https://x).'), 'The setting `unleash.serverUrl` has no scheme: start it with https:// or http:// (for example https://x).', ['openSettings']],
  ];
  for (const [name, error, message, actions] of cases) {
    it(name, () => {
      const formatted = formatError(error, { server });
      assert.equal(formatted.message, message);
      assert.deepEqual(formatted.actions, actions);
    });
  }

  it('prefixes what was being done', () => {
    assert.equal(formatError(new HttpError({ status: 502, request }), { action: 'load the flags', server }).message.slice(0, 32), 'Could not load the flags. unleas');
  });

  it('keeps cancellation silent', () => {
    assert.equal(formatError(new CancelledError()).silent, true);
  });

  it('names the setting to open', () => {
    assert.equal(formatError(new TimeoutError(request, 1000)).setting, 'unleash.requestTimeoutSeconds');
  });
});
