/**
 * unleash-server 8 allows 15 searches a minute per client address (`SEARCH_FEATURES_RATE_LIMIT_PER_MINUTE`) and
 * answers 429 with `Retry-After` past that; 7.x has no such limit. The shared contract server raises the limit (the
 * suite lists far more often than a person), so this file starts its own 8.2.0 with the server's default and shows
 * what a user gets: a listing that needs one search, and, once searches are refused, the projects it can list with
 * a note that says what it could not check. Runs in the 8.2.0 contract run only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UnleashClient } from '../../src/api/client';
import { HttpError } from '../../src/api/errors';
import { FlagStore } from '../../src/model/store/flagStore';
import { viewMessage } from '../../src/model/tree/commandData';
import { ServerSource } from '../../src/services/serverSource';
import { SEED, serverVersionFromEnv, startRealUnleash, type RealUnleash } from '../../tools/unleash';

const version = serverVersionFromEnv();
const skip = version === '8.2.0' ? false : `unleash-server ${version} does not limit searches`;
const live = SEED.flags.filter((flag) => !flag.archived);
const names = (features: ReadonlyArray<{ project?: string; name: string }>) => features.map((feature) => `${feature.project}/${feature.name}`).sort();
let server: RealUnleash | undefined;

before(async () => {
  if (!skip) server = await startRealUnleash({ version: '8.2.0', seed: true });
}, { timeout: 600_000 });
after(async () => {
  await server?.stop();
});

function client(): UnleashClient {
  if (!server) throw new Error('the 8.2.0 server is not started');
  const { url, adminToken } = server;
  return new UnleashClient({ baseUrl: url, getToken: () => adminToken, retryBaseMs: 10 });
}

describe('Unleash 8 limits searches to 15 a minute (real server, default limit)', { skip }, () => {
  it('a small listing costs two searches: complete, within the limit', async () => {
    const result = await client().listing();
    assert.deepEqual(names(result.features), live.map((flag) => `${flag.project}/${flag.name}`).sort());
    assert.equal(result.unchecked, undefined);
  });

  it('past the limit, the server answers 429 with Retry-After and its limit', async () => {
    let answer: Response | undefined;
    for (let i = 0; i < 20; i++) {
      answer = await fetch(`${server!.url}/api/admin/search/features?limit=1`, {
        headers: { authorization: server!.adminToken },
        signal: AbortSignal.timeout(30_000),
      });
      await answer.arrayBuffer();
      if (answer.status === 429) break;
    }
    assert.equal(answer?.status, 429, 'refused within 20 searches');
    assert.match(answer.headers.get('retry-after') ?? '', /^\d+$/);
    assert.equal(answer.headers.get('ratelimit-limit'), '15');
  });

  it('once refused, the listing shows the projects it can list and says what it could not check', async () => {
    const store = new FlagStore({ info: () => undefined, error: () => undefined });
    void store.load(); // needed from the start: setSource reads the list
    await store.setSource(new ServerSource(client(), [], ''), 'ready');
    assert.equal(store.state, 'ready');
    // Open source lists only `default` among its projects: the checkout flags need the search that was refused.
    assert.deepEqual(names(store.catalog.flags), live.filter((flag) => flag.project === 'default').map((flag) => `default/${flag.name}`).sort());
    assert.match(
      viewMessage(store) ?? '',
      /^The list may be incomplete: the server refuses more searches for \d+ s \(429: it limits searches per minute\)\. Refresh in a minute to check again\.$/,
    );
    const direct = await client().listing().catch((error: unknown) => error);
    assert.ok(!(direct instanceof HttpError), 'the 429 never reaches the user as a failed load');
  });
});
