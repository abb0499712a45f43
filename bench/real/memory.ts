/**
 * The heap the loaded store holds (after full GCs), against the floor: the search pages `JSON.parse`d and kept, what
 * any client that keeps the listing holds at least.
 */
import type { Pool } from 'undici';
import { mapLimited } from '../../src/base/mapLimited';
import { retainedBytes } from '../measure';
import type { Subject } from '../subject-build';
import { bareGet, PAGE, searchRoute } from './bare';
import { loadedStore, type Client } from './listing';

export interface MemoryFigures {
  storeBytes: number;
  parsedSearchBytes: number;
  bytesPerFlag: number;
}

export async function benchMemory(S: Subject, client: Client, url: string, token: string, pool: Pool, flags: number): Promise<MemoryFigures> {
  const loadStore = async () => {
    const store = await loadedStore(S, client);
    if (store.catalog.size !== flags) {
      store.dispose();
      throw new Error(`memory: the store holds ${store.catalog.size} flags, expected ${flags} (state ${store.state})`);
    }
    return store;
  };
  const loadParsed = async (): Promise<unknown[]> => {
    const offsets = Array.from({ length: Math.ceil(flags / PAGE) }, (_, i) => i * PAGE);
    const pages = await mapLimited(offsets, 4, async (offset) => (await bareGet<{ features: unknown[] }>(url, token, pool, searchRoute(offset))).features);
    return pages.flat();
  };
  (await loadStore()).dispose(); // one-time allocations (compiled schemas, pools) are not the store's
  const store = await retainedBytes(loadStore, (s) => s.dispose());
  const parsed = await retainedBytes(loadParsed);
  return { storeBytes: store, parsedSearchBytes: parsed, bytesPerFlag: Math.round(store / flags) };
}
