/**
 * "Export Environment…" (src/commands/exportEnvironment.ts) when the server's answer is larger than the budget the
 * user set (`unleash.export.maxMegabytes`, user settings only): the warning a user sees names the size, the projects
 * that fit and the setting, with buttons for a smaller scope and the setting; nothing is written. In the 'vscode'
 * stand-in of test/support/fakeVscode.ts, against a fault server streaming the answer.
 *   node --import tsx --test test/unit/exportCommand.test.ts
 */
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateDataset } from '../../bench/data';
import { UnleashClient } from '../../src/api/client';
import { startFaultServer, type FaultServer } from '../support/faultServer';
import { installFakeVscode } from '../support/fakeVscode';
import { recordingLogger } from '../support/recordingLogger';

installFakeVscode();
let registerExportCommand: typeof import('../../src/commands/exportEnvironment').registerExportCommand;
// Loaded once the stand-in answers `require('vscode')`.
before(async () => {
  registerExportCommand = (await import('../../src/commands/exportEnvironment')).registerExportCommand;
});

const MIB = 1024 * 1024;
const exported = generateDataset(2_000, 3).exportFor('development');
const answer = Buffer.from(JSON.stringify(exported), 'utf8');
const flags = exported.features.map((flag) => ({ name: flag.name, project: flag.project }));
let server: FaultServer;
let client: UnleashClient;
const folders: string[] = [];

before(async () => {
  const segments = { segments: exported.segments.map((segment) => ({ ...segment, constraints: [] })) };
  server = await startFaultServer({
    handler: (request) => (request.path === '/api/admin/segments' ? { body: segments } : { headers: { 'content-type': 'application/json' }, body: answer }),
  });
  client = new UnleashClient({ baseUrl: server.url, getToken: () => '*:*.command0123456789abcdef', timeoutMs: 10_000 });
});
after(async () => {
  await client.close();
  await server.close();
  await Promise.all(folders.map((folder) => fsp.rm(folder, { recursive: true, force: true })));
});

/** The command over a workspace folder, with the budget set in user (and, to be ignored, workspace) settings. */
async function exportWithBudget(settings: { user?: number; workspace?: number }) {
  const folder = await fsp.mkdtemp(path.join(tmpdir(), 'export-command-'));
  folders.push(folder);
  const fake = installFakeVscode(folder);
  if (settings.user !== undefined) fake.set('user', 'unleash.export.maxMegabytes', settings.user);
  if (settings.workspace !== undefined) fake.set('workspace', 'unleash.export.maxMegabytes', settings.workspace);
  const { logger } = recordingLogger();
  const registration = registerExportCommand({
    connection: { serverClient: async () => client, state: { state: 'ready' }, settled: async () => ({ state: 'ready' as const }) },
    store: { catalog: { flags } as never, load: async () => undefined },
    logger,
  });
  try {
    const result = await fake.vscode.commands.executeCommand('unleash.exportEnvironment', { environment: 'development', scope: 'all', folder });
    return { result: result as { error?: string; path?: string }, messages: fake.messages, files: await fsp.readdir(folder) };
  } finally {
    registration.dispose();
  }
}

describe('Export Environment… over the budget', () => {
  it('warns with the size, the projects that fit and the setting, offers a smaller scope, and writes nothing', async () => {
    assert.ok(answer.length > MIB && answer.length < 4 * MIB, `a ${answer.length}-byte answer`);
    const { result, messages, files } = await exportWithBudget({ user: 1 });
    const counts = new Map<string, number>();
    for (const flag of flags) counts.set(flag.project, (counts.get(flag.project) ?? 0) + 1);
    const fit = [...counts]
      .filter(([, count]) => (count * answer.length) / flags.length <= MIB)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([project]) => project);
    const expected =
      `The export of development is ${(answer.length / MIB).toFixed(1)} MB; one export may take 1.0 MB (unleash.export.maxMegabytes). ` +
      `Export one project at a time (these fit: ${fit.join(', ')}), or raise unleash.export.maxMegabytes to ${Math.ceil(answer.length / MIB)}. Nothing was written.`;
    assert.deepEqual(messages.map((m) => [m.kind, m.message, m.buttons]), [['warning', expected, ['Export a Smaller Scope…', 'Open Settings']]]);
    assert.equal(result.error, expected);
    assert.deepEqual(files, [], 'nothing written, not even the folder');
  });

  it('reads the budget from the user settings only: a workspace cannot raise it', async () => {
    const { result, files } = await exportWithBudget({ user: 1, workspace: 2048 });
    assert.match(result.error ?? '', /one export may take 1\.0 MB/);
    assert.deepEqual(files, []);
    const allowed = await exportWithBudget({ user: 8 });
    assert.equal(allowed.result.error, undefined);
    assert.deepEqual(allowed.files, ['.unleash']);
  });
});
