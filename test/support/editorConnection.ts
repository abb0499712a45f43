/**
 * The extension's Connection in the 'vscode' stand-in, made as activate() makes it: a TokenStore on the editor's
 * secrets (`env` standing for the process environment) and the ServerApprovals kept in `globalState` (the editor's
 * unless given). The services import 'vscode': they are loaded on first use, once installFakeVscode() has run.
 */
import type { Logger } from '../../src/base/logger';
import type { FakeVscode } from './fakeVscode';

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
  const connection = new Connection(tokens, approvals, logger);
  return { tokens, approvals, connection };
}
