/**
 * A real Unleash (the contract harness's, on 127.0.0.1) holding N bench flags: restored from the cached dump when
 * there is one, otherwise filled through the import endpoint and then dumped for the next run.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { launch, serverVersionFromEnv, SUITE_SEARCH_RATE_LIMIT, type RealUnleash, type ServerVersion } from '../../tools/unleash';
import { cacheFile, fill, multiply, restoreDump, saveDump } from './fill';

/** The flag limit of an open-source server is 5,000 unless raised. */
const FLAG_LIMIT = '100000';

export interface FilledUnleash {
  unleash: RealUnleash;
  version: ServerVersion;
  flags: number;
  /** 'cache' when restored from a dump, 'import' when filled in this run, 'copies' when copied from the 1,000 set. */
  filledBy: 'cache' | 'import' | 'copies';
  /** Restore or import time, ms. */
  fillMs: number;
  /** Process start to healthy (migrations included), ms. */
  startMs: number;
}

/** Sets above this many flags are copies of the imported set of this size (see `multiply`). */
const IMPORTED = 1_000;

/**
 * How the flags sit in projects: `six-projects` as filled (five of them inserted in SQL, so an open-source server's
 * project list leaves them out: a client finds them through the search), or `one-project`, every flag moved into
 * `default` after the restore (an open-source server as people run it: it cannot create projects).
 */
export type Layout = 'six-projects' | 'one-project';

/**
 * Moves every flag into `default` (strategies carry their project too), and refreshes the planner's statistics of
 * the rewritten tables (without them the first listing took 15 s).
 */
const ONE_PROJECT_SQL =
  "UPDATE features SET project = 'default'; UPDATE feature_strategies SET project_name = 'default'; ANALYZE features; ANALYZE feature_strategies;";

/**
 * A real Unleash holding `flags` bench flags in `layout`. The unleash-server is the harness's (UNLEASH_CONTRACT_SERVER,
 * else 7.5.1), and part of the cache key: a dump is only restored into its version.
 */
export async function startFilled(flags: number, log: (line: string) => void, layout: Layout = 'six-projects'): Promise<FilledUnleash> {
  const version = serverVersionFromEnv();
  const dump = cacheFile(version, flags);
  if (layout !== 'six-projects' && !fs.existsSync(dump)) {
    // The cached set first (the dump is always of the layout as filled), then this layout from it.
    await (await startFilled(flags, log)).unleash.stop();
  }
  const cached = fs.existsSync(dump);
  const copies = !cached && flags > IMPORTED;
  if (copies && flags % IMPORTED !== 0) throw new Error(`bench: a set above ${IMPORTED} flags must be a multiple of it (got ${flags})`);
  if (copies && !fs.existsSync(cacheFile(version, IMPORTED))) {
    // The set to copy: imported (and cached) first.
    await (await startFilled(IMPORTED, log)).unleash.stop();
  }
  let restoreMs = 0;
  const unleash = await launch({
    version,
    seed: false,
    log,
    serverEnv: { UNLEASH_FEATURE_FLAGS_LIMIT: FLAG_LIMIT },
    // Unleash 8 allows 15 searches a minute per address; the bare paged searches need hundreds. The bench measures
    // what each read costs the server, so the limit is raised as in the test suites.
    searchRateLimit: SUITE_SEARCH_RATE_LIMIT,
    startTimeoutMs: 300_000,
    beforeUnleash: cached || copies
      ? async (pg) => {
          const t = Date.now();
          await restoreDump(pg, cached ? dump : cacheFile(version, IMPORTED));
          if (copies) await multiply(pg.psql, flags / IMPORTED);
          if (layout === 'one-project') await pg.psql(ONE_PROJECT_SQL);
          restoreMs = Date.now() - t;
        }
      : undefined,
  });
  try {
    if (cached) {
      log(`bench: restored ${flags} flags from ${path.relative(process.cwd(), dump)} in ${restoreMs} ms`);
      return { unleash, version, flags, filledBy: 'cache', fillMs: restoreMs, startMs: unleash.startMs };
    }
    if (copies) {
      log(`bench: ${flags} flags copied in SQL from the ${IMPORTED}-flag set in ${restoreMs} ms`);
      await saveDump(unleash.postgres, dump);
      return { unleash, version, flags, filledBy: 'copies', fillMs: restoreMs, startMs: unleash.startMs };
    }
    log(`bench: filling ${flags} flags through the import endpoint (no cached dump yet)`);
    const result = await fill(unleash, unleash.postgres.psql, flags, log);
    log(`bench: filled ${flags} flags in ${result.requests} import requests, ${result.ms} ms`);
    await saveDump(unleash.postgres, dump);
    return { unleash, version, flags, filledBy: 'import', fillMs: result.ms, startMs: unleash.startMs };
  } catch (error) {
    await unleash.stop();
    throw error;
  }
}
