/**
 * What differs between the unleash-server generations the extension supports (7.5.1 and 8.2.0), asserted on the
 * real server under test, per generation: the answers the client must read either way. When a generation changes one
 * of these, this file says so before a user does.
 *   UNLEASH_CONTRACT_SERVER=8.2.0 node --import tsx --test test/contract/generations.contract.test.ts
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useRealUnleash } from './env';
import { SEED, STRATEGY_ID_PATTERN, readSeededIds, type ServerVersion } from '../../tools/unleash';

const unleash = useRealUnleash();

async function get(path: string): Promise<Record<string, unknown>> {
  const res = await fetch(unleash.current.url + path, {
    headers: { Authorization: unleash.current.adminToken, Accept: 'application/json' },
    signal: AbortSignal.timeout(30_000),
  });
  assert.equal(res.status, 200, `GET ${path}`);
  return (await res.json()) as Record<string, unknown>;
}

const sortedKeys = (value: unknown): string[] => Object.keys(value as object).sort();

/**
 * The keys of listing rows, by flag: `tags` is there only on a tagged flag (both generations), so it is checked
 * against the seed and left out of the rest.
 */
function rowKeys(rows: unknown): { tagged: string[]; keys: string[][] } {
  const list = rows as { name: string; tags?: unknown }[];
  return {
    tagged: list.filter((row) => 'tags' in row).map((row) => row.name).sort(),
    keys: list.map((row) => sortedKeys(row).filter((key) => key !== 'tags')),
  };
}

const taggedSeedFlags = (project?: string): string[] =>
  SEED.flags
    .filter((flag) => !flag.archived && flag.tags.length > 0 && (project === undefined || flag.project === project))
    .map((flag) => flag.name)
    .sort();

/** Keys both generations send, and those only 7.5.1 adds. */
function expectedKeys(common: string[], only751: string[]): Record<ServerVersion, string[]> {
  return { '7.5.1': [...common, ...only751].sort(), '8.2.0': [...common].sort() };
}

describe('server generation differences (real server)', () => {
  it('reports its own version', async () => {
    assert.equal((await get('/api/admin/ui-config')).version, unleash.current.version);
  });

  it('strategy ids: UUIDs on 7.5.1, ULIDs on 8.2.0', async () => {
    const { strategyIds } = await readSeededIds(unleash.current.url, unleash.current.adminToken);
    const ids = Object.values(strategyIds);
    assert.ok(ids.length > 10, `only ${ids.length} strategy ids`);
    const shape = new RegExp(`^${STRATEGY_ID_PATTERN[unleash.current.version]}$`);
    assert.deepEqual(ids.filter((id) => !shape.test(id)), []);
  });

  it('GET feature: 8.2.0 drops the top-level variants and lastSeenAt', async () => {
    const feature = await get('/api/admin/projects/default/features/pricing-experiment?variantEnvironments=true');
    const keys = expectedKeys(
      ['archived', 'children', 'collaborators', 'createdAt', 'createdBy', 'dependencies', 'description', 'environments',
        'impressionData', 'lifecycle', 'links', 'name', 'project', 'stale', 'type'],
      ['lastSeenAt', 'variants'],
    );
    assert.deepEqual(sortedKeys(feature), keys[unleash.current.version]);
    // Per-environment variants, which the client reads, are there on both.
    const environments = feature.environments as { name: string; variants?: { name: string }[]; lastSeenAt?: unknown }[];
    assert.deepEqual(
      environments.map((env) => [env.name, env.variants?.map((variant) => variant.name), 'lastSeenAt' in env]),
      [['development', ['control', 'treatment'], true], ['production', ['control'], true]],
    );
  });

  it('search rows: 8.2.0 drops lastSeenAt', async () => {
    const page = await get('/api/admin/search/features?limit=100');
    assert.equal(page.total, 8);
    const keys = expectedKeys(
      ['archivedAt', 'createdAt', 'createdBy', 'dependencyType', 'description', 'environments', 'favorite',
        'impressionData', 'lifecycle', 'name', 'project', 'segments', 'stale', 'type'],
      ['lastSeenAt'],
    );
    const rows = rowKeys(page.features);
    assert.deepEqual(rows.keys, Array.from({ length: 8 }, () => keys[unleash.current.version]));
    assert.deepEqual(rows.tagged, taggedSeedFlags());
  });

  it('project listing rows: 8.2.0 drops lastSeenAt', async () => {
    const listing = await get('/api/admin/projects/default/features');
    const keys = expectedKeys(
      ['createdAt', 'description', 'environments', 'favorite', 'impressionData', 'name', 'stale', 'type'],
      ['lastSeenAt'],
    );
    const rows = rowKeys(listing.features);
    assert.deepEqual(rows.keys, Array.from({ length: 6 }, () => keys[unleash.current.version]));
    assert.deepEqual(rows.tagged, taggedSeedFlags('default'));
  });
});
