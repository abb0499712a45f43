/**
 * The drift check as the extension runs it, for the hostile scenarios whose input is the workspace's export files in
 * server mode: a server (the fault server, answering a listing of `flags`) under the real client, source and store;
 * the export files of the workspace `folder` read by the worker thread; the check after the listing; the Export
 * Files view's rows and the diagnostics on the files. Loaded before the measured run.
 */
import '../../test/support/installVscode';
import { UnleashClient } from '../../src/api/client';
import { ExportDiagnostics } from '../../src/code/exportDiagnostics';
import { driftDescription } from '../../src/model/export/driftText';
import { FlagStore } from '../../src/model/store/flagStore';
import { ExportDrift } from '../../src/services/exportDrift';
import { ServerSource } from '../../src/services/serverSource';
import { installFakeVscode } from '../../test/support/fakeVscode';
import { routes, startFaultServer } from '../../test/support/faultServer';
import { sourceWorkerJobs } from '../../test/support/jobs';
import { recordingLogger } from '../../test/support/recordingLogger';
import '../../src/model/core';

/** A server listing `flags` in project `default`, on in production; `stop` stops it. */
export async function driftServer(flags: readonly string[]): Promise<{ context: { url: string }; stop: () => Promise<void> }> {
  const listing = { features: flags.map((name) => ({ name, project: 'default', type: 'release', environments: [{ name: 'production', enabled: true }] })) };
  const server = await startFaultServer({
    handler: routes({
      'GET /api/admin/ui-config': { body: { version: '7.5.1', environment: 'Open Source' } },
      'GET /api/admin/projects/default/features': { body: listing },
      'GET /api/admin/search/features': { body: { features: [], total: 0 } },
    }),
  });
  return { context: { url: server.url }, stop: () => server.close() };
}

/** The check of the workspace `folder`'s export files against the server at `url`: what the view and the log show. */
export async function checkDrift(folder: string, url: string): Promise<string> {
  const fake = installFakeVscode(folder);
  const { logger, lines } = recordingLogger();
  const client = new UnleashClient({ baseUrl: url, getToken: () => '*:*.hostile0123456789abcdef0123456789' });
  const store = new FlagStore(logger);
  const jobs = sourceWorkerJobs();
  const drift = new ExportDrift(store, logger, jobs);
  const diagnostics = new ExportDiagnostics(drift, logger);
  try {
    void store.load();
    await store.setSource(new ServerSource(client, [], ''), 'ready');
    await drift.check();
    await diagnostics.settled();
    const reports = drift.reports.map((report) => `${report.path}: ${report.drift ? driftDescription(report.drift) : report.problem}`);
    const published = reports.length ? drift.reports.reduce((sum, report) => sum + fake.diagnostics(report.uri.toString()).length, 0) : 0;
    const notes = lines.filter((line) => /Not compared|in part/.test(line)).map((line) => line.slice(0, 200));
    return `${reports.join('; ') || 'no file compared'} · ${published} diagnostics · log: ${notes.join(' | ') || 'nothing left out'}`;
  } finally {
    diagnostics.dispose();
    drift.dispose();
    store.dispose();
    jobs.dispose();
    await client.close();
  }
}
