/**
 * What the Flags view's first load does against a server, for the scenarios whose hostile input is a server: the
 * real client, listing and store, loaded once; `look` reads what the user sees, then everything is closed.
 */
import { UnleashClient } from '../../src/api/client';
import { FlagStore } from '../../src/model/store/flagStore';
import { ServerSource } from '../../src/services/serverSource';

const TOKEN = '*:*.hostile0123456789abcdef0123456789';

export async function loadedStore(url: string, look: (store: FlagStore) => Promise<string> | string): Promise<string> {
  const client = new UnleashClient({ baseUrl: url, getToken: () => TOKEN });
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
