/**
 * The offline mode as the extension runs it, for the hostile scenarios of finding 3: the Connection reads the
 * workspace's `.unleash/*.json` through the editor's file system (the 'vscode' stand-in of test/support, over the
 * real disk), the store loads the source, and the user reads the tree's root and message, or a flag's hover. The
 * browser build's connection (FilesConnection, wired as src/extension.browser.ts wires it) reads them the same way.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
// First the stand-in for 'vscode', then the services, loaded before the measured run (loading is not the operation).
import '../../test/support/installVscode';
import { committedExportsNote } from '../../src/model/content/committedExports';
import { ServerApprovals } from '../../src/services/approvals';
import { Connection } from '../../src/services/connection';
import { FilesConnection } from '../../src/services/filesConnection';
import { TokenStore } from '../../src/services/tokens';
import { WorkspaceExports } from '../../src/services/workspaceExports';
import { installFakeVscode } from '../../test/support/fakeVscode';
import { recordingLogger } from '../../test/support/recordingLogger';
import { generateDataset } from '../data';
import { serializeExportBytes } from '../../src/model/export/exportBytes';
import { FlagStore } from '../../src/model/store/flagStore';

/** The store once the Connection has read the export files of the workspace `folder`, as the Flags view loads it. */
export async function offlineStore(folder: string): Promise<FlagStore> {
  const fake = installFakeVscode(folder);
  const { logger } = recordingLogger();
  return storeOf(new Connection(new TokenStore(fake.secretStorage as never, {}), new ServerApprovals(fake.globalState), logger), logger);
}

/** A store fed by `connection`'s first evaluation, loading (as the Flags view would make it). */
async function storeOf(connection: Connection | FilesConnection, logger: ReturnType<typeof recordingLogger>['logger']): Promise<FlagStore> {
  const state = await connection.update();
  const store = new FlagStore(logger);
  void store.load();
  await store.setSource(state.source, state.state, state.problem);
  connection.dispose();
  return store;
}

/** The same, in the browser build: its connection reads only the export files, through the same budget. */
export async function browserStore(folder: string): Promise<FlagStore> {
  installFakeVscode(folder);
  const { logger } = recordingLogger();
  const exportFiles = new WorkspaceExports(logger, {
    load: () => import('../../src/model/store/offlineReading'),
    lead: (read) => committedExportsNote(read.changedAt, new Date()),
  });
  return storeOf(new FilesConnection(exportFiles), logger);
}

/** Writes `.unleash/<name>` under the workspace `folder`. */
export function writeExport(folder: string, name: string, content: string | Uint8Array): void {
  const file = path.join(folder, '.unleash', name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/** A realistic export of one environment (bench/data.ts) as the extension writes it, as large as fits in `bytes`. */
export function realExport(bytes: number): Uint8Array {
  let flags = Math.floor(bytes / 2000);
  for (;;) {
    const written = serializeExportBytes(generateDataset(flags).exportFor('production') as never);
    if (written.length <= bytes) return written;
    flags = Math.floor((flags * bytes) / written.length) - 10;
  }
}
