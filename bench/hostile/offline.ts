/**
 * The offline mode as the extension runs it, for the hostile scenarios: the Connection lists the workspace's
 * `.unleash/*.json` through the editor's file system (the 'vscode' stand-in of test/support, over the real disk), the
 * worker thread reads them (src/worker.ts, as the desktop runs it), the store loads the source, and the user reads the
 * tree's root and message, or a flag's hover. The browser build's connection (FilesConnection, wired as
 * src/extension.browser.ts wires it) reads them on its own thread, in time slices.
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
import { sourceWorkerJobs } from '../../test/support/jobs';
import { generateDataset, mulberry32 } from '../data';
import { serializeExportBytes } from '../../src/model/export/exportBytes';
import { FlagStore } from '../../src/model/store/flagStore';
// The core the connection loads on first need, loaded now: loading modules is not the operation measured.
import '../../src/model/core';

/**
 * The store once the Connection has read the export files of the workspace `folder`, as the Flags view loads it: on
 * the desktop, through the worker thread. `trusted: false` is Restricted Mode (a cloned repository not yet trusted).
 */
export async function offlineStore(folder: string, options: { trusted?: boolean } = {}): Promise<FlagStore> {
  const fake = installFakeVscode(folder);
  if (options.trusted === false) fake.setTrusted(false);
  const { logger } = recordingLogger();
  const connection = new Connection(new TokenStore(fake.secretStorage as never, {}), new ServerApprovals(fake.globalState), logger, undefined, sourceWorkerJobs());
  return storeOf(connection, logger);
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

/** An export of one environment holding a flag per name, in `default` unless `project` says (the smallest rows). */
export function namesExport(names: readonly string[], project: (i: number) => string = () => 'default'): string {
  return JSON.stringify({
    features: names.map((name, i) => ({ name, project: project(i) })),
    featureStrategies: [],
    featureEnvironments: names.map((name) => ({ name, featureName: name, environment: 'production', enabled: true })),
    tagTypes: [],
  });
}

/** A deterministic name generator (bench/data.ts's PRNG): `count` names of lowercase letters and digits. */
export function randomNames(count: number, seed: number, length = 12): string[] {
  const random = mulberry32(seed);
  const letters = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from({ length: count }, () => Array.from({ length }, () => letters[Math.floor(random() * letters.length)]).join(''));
}
