/**
 * The extension's Connection in the 'vscode' stand-in, made as activate() makes it: a TokenStore on the editor's
 * secrets (`env` standing for the process environment), the ServerApprovals kept in `globalState` (the editor's
 * unless given), and export files read by the worker thread (one for the test process, as one for a window). The
 * services import 'vscode': they are loaded on first use, once installFakeVscode() has run.
 */
import type { Logger } from '../../src/base/logger';
import type { WorkerJobs } from '../../src/services/workerJobs';
import type { FakeVscode } from './fakeVscode';
import { sourceWorkerJobs } from './jobs';

let jobs: WorkerJobs | undefined;

export async function editorConnection(
  fake: FakeVscode,
  logger: Logger,
  options: { env?: Record<string, string>; globalState?: FakeVscode['globalState'] } = {},
) {
  const [{ Connection }, { TokenStore }, { ServerApprovals }] = await Promise.all([
    import('../../src/services/connection'),
    import('../../src/services/tokens'),
    import('../../src/services/approvals'),
  ]);
  const tokens = new TokenStore(fake.secretStorage as never, options.env ?? {});
  const approvals = new ServerApprovals(options.globalState ?? fake.globalState);
  const connection = new Connection(tokens, approvals, logger, undefined, (jobs ??= sourceWorkerJobs()));
  return { tokens, approvals, connection };
}
