/**
 * What the extension does against a server, for the scenarios whose hostile input is a server: the real client (its
 * large answers parsed and checked in the worker thread, as on the desktop) and source under the store (the Flags
 * view's first load) or under FlagActivity (a hover's history and usage); `look` reads what the user sees, then
 * everything is closed.
 */
import { UnleashClient } from '../../src/api/client';
import { FlagActivity } from '../../src/model/activity/flagActivity';
import { Catalog } from '../../src/model/store/catalog';
import { FlagStore } from '../../src/model/store/flagStore';
import { ServerSource } from '../../src/services/serverSource';
import type { WorkerJobs } from '../../src/model/jobs/workerJobs';
import { sourceWorkerJobs } from '../../test/support/jobs';

const TOKEN = '*:*.hostile0123456789abcdef0123456789';

/** A client of the server at `url` as serverEvaluation.ts builds it on the desktop. */
export function desktopClient(url: string): UnleashClient {
  const jobs = (workers ??= sourceWorkerJobs());
  return new UnleashClient({ baseUrl: url, getToken: () => TOKEN, parseLarge: (bytes, schema) => jobs.run('answer', { bytes, ...(schema ? { schema } : {}) }) });
}
let workers: WorkerJobs | undefined;

export async function loadedStore(url: string, look: (store: FlagStore) => Promise<string> | string): Promise<string> {
  const client = desktopClient(url);
  const store = new FlagStore({ info() {}, error() {} });
  try {
    void store.load();
    await store.setSource(new ServerSource(client, [], ''), 'ready');
    return await look(store);
  } finally {
    store.dispose();
    await client.close();
  }
}

/** FlagActivity on the server at `url`, with no flag listed (history and usage are read by name). */
export async function serverActivity(url: string, look: (activity: FlagActivity) => Promise<string>): Promise<string> {
  const client = desktopClient(url);
  const store = { currentSource: new ServerSource(client, [], ''), catalog: Catalog.empty, onDidChange: () => ({ dispose() {} }) };
  try {
    return await look(new FlagActivity(store, { warn() {} }));
  } finally {
    await client.close();
  }
}
