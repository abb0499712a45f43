/**
 * Test Connection beside a listing that could not read everything: a working connection is said together with the
 * project that could not be read (or the refresh that failed), as a warning, never as "all is well".
 */
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HttpError } from '../../src/api/errors';
import type { ListingFailure } from '../../src/api/listingTypes';
import { editorConnection } from '../support/editorConnection';
import { installFakeVscode } from '../support/fakeVscode';
import { routes, startFaultServer, type FaultServer } from '../support/faultServer';
import { recordingLogger } from '../support/recordingLogger';

describe('Test Connection after a listing that could not read everything', () => {
  let dir: string;
  let server: FaultServer;
  let registerConnectionCommands: typeof import('../../src/commands/connection').registerConnectionCommands;
  before(async () => {
    dir = await fsp.mkdtemp(path.join(tmpdir(), 'unleash-test-connection-'));
    installFakeVscode(dir);
    registerConnectionCommands = (await import('../../src/commands/connection')).registerConnectionCommands;
    server = await startFaultServer({ handler: routes({ 'GET /api/admin/ui-config': { body: { version: '7.5.1', environment: 'Open Source' } } }) });
  });
  after(async () => {
    await server.close();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  async function testConnection(store: { failures: readonly ListingFailure[]; outOfDate: unknown }) {
    const fake = installFakeVscode(dir);
    fake.set('user', 'unleash.serverUrl', server.url);
    const { logger } = recordingLogger();
    const { tokens, approvals, connection } = await editorConnection(fake, logger, { env: { UNLEASH_API_TOKEN: 'test-token' } });
    const source = { kind: 'server' as const, label: '127.0.0.1' };
    const commands = registerConnectionCommands({ connection, tokens, approvals, logger, store: { ...store, currentSource: source as never } });
    try {
      const report = (await fake.commands.get('unleash.testConnection')?.()) as { ok: boolean; message: string };
      return { report, shown: fake.messages.at(-1) };
    } finally {
      commands.dispose();
      connection.dispose();
      tokens.dispose();
    }
  }

  const serverError = new HttpError({ status: 500, serverMessage: "Cannot read properties of undefined (reading 'some')", request: 'GET /api/admin/projects/odd/features' });

  it('a project the last listing could not read: said beside the working connection, as a warning', async () => {
    const { report, shown } = await testConnection({ failures: [{ project: 'odd', error: serverError, searchError: serverError }], outOfDate: undefined });
    assert.equal(report.ok, true, report.message);
    assert.equal(shown?.kind, 'warning');
    assert.match(
      shown?.message ?? '',
      /^Connected to Unleash 7\.5\.1 \(Open Source\) at 127\.0\.0\.1:\d+\. The token from the UNLEASH_API_TOKEN environment variable can read the Admin API\. But the last listing could not read project odd: .*500.* Failed request: GET \/api\/admin\/projects\/odd\/features\. Its row in the Flags view says more\.$/,
    );
  });

  it('a refresh that failed: the Flags view shows older flags, and why', async () => {
    const { shown } = await testConnection({ failures: [], outOfDate: serverError });
    assert.equal(shown?.kind, 'warning');
    assert.match(shown?.message ?? '', /But the last refresh failed, so the Flags view shows older flags: .*Failed request: GET \/api\/admin\/projects\/odd\/features\.$/);
  });

  it('everything read: the plain confirmation', async () => {
    const { shown } = await testConnection({ failures: [], outOfDate: undefined });
    assert.equal(shown?.kind, 'info');
    assert.match(shown?.message ?? '', /can read the Admin API\.$/);
  });
});
