/**
 * How contract and e2e tests find the real Unleash: test/run.ts starts one server for the whole run and passes it
 * through these environment variables; a test file run on its own starts its own (see useRealUnleash), of the
 * generation UNLEASH_CONTRACT_SERVER names (7.5.1 when unset).
 */
import { after, before } from 'node:test';
import { SERVER_VERSION_ENV, serverVersionFromEnv, startRealUnleash, SUITE_SEARCH_RATE_LIMIT, type RealUnleash, type ServerVersion } from '../../tools/unleash';

interface UnleashUnderTest {
  /** The unleash-server generation (7.5.1 or 8.2.0): assert per version only where the server really differs. */
  version: ServerVersion;
  url: string;
  adminToken: string;
  backendToken: string;
  frontendToken: string;
}

export function contractEnv(unleash: RealUnleash): Record<string, string> {
  return {
    [SERVER_VERSION_ENV]: unleash.version,
    UNLEASH_CONTRACT_URL: unleash.url,
    UNLEASH_CONTRACT_TOKEN: unleash.adminToken,
    UNLEASH_CONTRACT_BACKEND_TOKEN: unleash.backendToken,
    UNLEASH_CONTRACT_FRONTEND_TOKEN: unleash.frontendToken,
  };
}

/**
 * The server under test, for a test file: the shared one when test/run.ts started it, otherwise one started in
 * `before` and stopped (by pid) in `after`. Read `.current` inside tests.
 */
export function useRealUnleash(): { readonly current: UnleashUnderTest } {
  const shared = fromEnv();
  let own: RealUnleash | undefined;
  let current = shared;
  if (!shared) {
    before(async () => {
      own = await startRealUnleash({ seed: true, searchRateLimit: SUITE_SEARCH_RATE_LIMIT });
      current = own;
    }, { timeout: 600_000 });
    after(async () => {
      await own?.stop();
    });
  }
  return {
    get current() {
      if (!current) throw new Error('The real Unleash is not started yet.');
      return current;
    },
  };
}

function fromEnv(): UnleashUnderTest | undefined {
  const url = process.env.UNLEASH_CONTRACT_URL;
  const adminToken = process.env.UNLEASH_CONTRACT_TOKEN;
  if (!url || !adminToken) return undefined;
  return {
    version: serverVersionFromEnv(),
    url,
    adminToken,
    backendToken: process.env.UNLEASH_CONTRACT_BACKEND_TOKEN ?? '',
    frontendToken: process.env.UNLEASH_CONTRACT_FRONTEND_TOKEN ?? '',
  };
}
