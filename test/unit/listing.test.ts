/**
 * The listing strategy (src/api/listing.ts) against a scripted server: which requests it makes, in what order the
 * rows arrive, and that it stays complete and bounded whatever the server says. The same cases run against a real
 * Unleash in test/contract/listing.contract.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ForbiddenError, NotFoundError } from '../../src/api/errors';
import { AuthError, ConfigError, HttpError, NetworkError } from '../../src/api/errors';
import { listAllFeatures } from '../../src/api/listing';
import { ListingFallbacks } from '../../src/api/listingFallbacks';
import type { ListingRequests } from '../../src/api/listingTypes';
import type { ListingPage } from '../../src/api/searchPaging';
import type { FeatureSummary } from '../../src/api/schemas';

const PAGE = 2;

interface Server {
  /** Flags by project; a project not in `listed` is missing from the project list (as OSS does). */
  flags: Record<string, string[]>;
  listed?: string[];
  /** Project listings that answer 403 / 404; `noSearch` / `noProjects` remove an endpoint. */
  forbidden?: string[];
  noSearch?: boolean;
  noProjectEndpoint?: boolean;
  /** What the search says its total is (default: the true count). */
  total?: (filtered: number) => number | undefined;
  /** Every search page answers the same rows (a broken server). */
  repeatPages?: boolean;
  /** Searches allowed before the server answers 429 (Unleash 8 allows 15 a minute). */
  searchesAllowed?: number;
  /** The search answers after this many ms (the other requests at once), as a real server's does at many flags. */
  searchDelayMs?: number;
  /** What the server's ui-config says it is; absent, the listing cannot ask. */
  openSource?: boolean | 'fails';
  /** Project listings that answer 500 (a real server does for a project holding a flag named `constructor`). */
  broken?: string[];
  /** Projects a search filtered to them (`IS_ANY_OF:…`) fails for, with 502. */
  searchBroken?: string[];
  /** Project listings that answer 401 (the token was revoked meanwhile). */
  unauthorized?: string[];
  /** The version the server's ui-config names (absent: the listing cannot ask it). */
  version?: string;
}

function fake(server: Server): ListingRequests & { log: string[] } {
  const log: string[] = [];
  const rows = (project: string) => (server.flags[project] ?? []).map((name): FeatureSummary => ({ name, project, environments: [] }));
  const all = () => Object.keys(server.flags).flatMap(rows).sort((a, b) => (a.name < b.name ? -1 : 1));
  const notFound = (request: string) => new NotFoundError({ status: 404, request, serverMessage: 'The path you were looking for is not available.' });
  return {
    log,
    async searchPage(offset, limit, filter, signal): Promise<ListingPage> {
      log.push(`search ${offset}${filter ? ` ${filter}` : ''}`);
      if (server.searchDelayMs) await delay(server.searchDelayMs, signal);
      if (server.noSearch) throw notFound('GET /api/admin/search/features');
      if (server.searchesAllowed !== undefined && server.searchesAllowed-- <= 0) {
        throw new HttpError({ status: 429, request: 'GET /api/admin/search/features', serverMessage: 'Too many requests, please try again later.', retryAfterSeconds: 57 });
      }
      const [operator, list = ''] = (filter ?? '').split(':');
      const named = list.split(',');
      if (operator === 'IS_ANY_OF' && named.some((project) => server.searchBroken?.includes(project))) {
        throw new HttpError({ status: 502, request: 'GET /api/admin/search/features', serverMessage: 'Bad gateway' });
      }
      const matching = all().filter((row) => (operator === 'IS_ANY_OF' ? named.includes(row.project ?? '') : operator === 'IS_NONE_OF' ? !named.includes(row.project ?? '') : true));
      const features = server.repeatPages ? matching.slice(0, limit) : matching.slice(offset, offset + limit);
      return { features, total: server.total ? server.total(matching.length) : matching.length };
    },
    async projectFeatures(project) {
      log.push(`project ${project}`);
      if (server.noProjectEndpoint) throw notFound(`GET /api/admin/projects/${project}/features`);
      if (server.forbidden?.includes(project)) throw new ForbiddenError({ status: 403, request: 'GET project features', serverMessage: 'no access' });
      if (server.unauthorized?.includes(project)) throw new AuthError({ status: 401, request: `GET /api/admin/projects/${project}/features` });
      if (server.broken?.includes(project)) {
        throw new HttpError({ status: 500, request: `GET /api/admin/projects/${project}/features`, serverMessage: "Cannot read properties of undefined (reading 'some')" });
      }
      // A project listing's rows carry no project field (as a real server answers).
      return rows(project).map(({ project: _, ...row }) => row);
    },
    async projects() {
      log.push('projects');
      return server.listed ?? Object.keys(server.flags);
    },
    ...(server.version === undefined
      ? {}
      : {
          async serverVersion() {
            log.push('version');
            return server.version;
          },
        }),
    ...(server.openSource === undefined
      ? {}
      : {
          async openSource() {
            log.push('ui-config');
            if (server.openSource === 'fails') throw new HttpError({ status: 500, request: 'GET ui-config' });
            return server.openSource === true;
          },
        }),
  };
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    });
  });
}

const names = (rows: FeatureSummary[]) => rows.map((row) => `${row.project}/${row.name}`);

describe('listing', () => {
  it('a small catalog: default listed beside a search for the rest, then its one search page for what search rows carry', async () => {
    const server = fake({ flags: { default: ['b', 'a'] } });
    const searchPage = server.searchPage.bind(server);
    server.searchPage = async (...args) => {
      const page = await searchPage(...args);
      return { ...page, features: page.features.map((row) => ({ ...row, lifecycle: { stage: 'live', enteredStageAt: '2026-01-01T00:00:00.000Z' } })) };
    };
    const result = await listAllFeatures(server, { pageSize: PAGE });
    assert.deepEqual(result.features.map((row) => `${row.project}/${row.name}:${row.lifecycle?.stage ?? '-'}`), ['default/a:live', 'default/b:live']);
    assert.equal(result.total, 2);
    assert.deepEqual(server.log, ['search 0 IS_NONE_OF:default', 'project default', 'projects', 'search 0']);
  });

  it('lists every project the project list names, each as it arrives, and proves nothing is outside them', async () => {
    const server = fake({ flags: { default: ['a', 'c', 'e'], checkout: ['b', 'd'] }, searchDelayMs: 20 });
    const batches: string[][] = [];
    const result = await listAllFeatures(server, { pageSize: PAGE, onRows: (rows) => batches.push(names(rows)) });
    assert.deepEqual(names(result.features), ['default/a', 'checkout/b', 'default/c', 'checkout/d', 'default/e']);
    assert.equal(result.method, 'projects');
    assert.equal(result.total, 5);
    assert.deepEqual(server.log, [
      'search 0 IS_NONE_OF:default', 'project default', 'projects',
      // the project list names checkout: it is listed, and the search (still out) asked again without it
      'search 0 IS_NONE_OF:default,checkout', 'project checkout',
    ]);
    assert.deepEqual(batches, [['default/a', 'default/c', 'default/e'], ['checkout/b', 'checkout/d']], 'each project as it arrives');
  });

  it('asks an open-source server no project list (it names only default); any other, or one that cannot say, is asked', async () => {
    const flags = { default: ['a', 'c', 'e'], checkout: ['b', 'd'] };
    const oss = fake({ flags, listed: ['default'], openSource: true });
    const result = await listAllFeatures(oss, { pageSize: PAGE });
    assert.deepEqual(names(result.features), ['default/a', 'checkout/b', 'default/c', 'checkout/d', 'default/e']);
    assert.equal(result.total, 5);
    assert.ok(!oss.log.includes('projects'), oss.log.join(', '));
    assert.deepEqual(oss.log.slice(0, 3), ['search 0 IS_NONE_OF:default', 'project default', 'ui-config']);

    for (const openSource of [false, 'fails'] as const) {
      const server = fake({ flags, openSource });
      const listed = await listAllFeatures(server, { pageSize: PAGE });
      assert.equal(listed.features.length, 5);
      assert.deepEqual(server.log.slice(0, 4), ['search 0 IS_NONE_OF:default', 'project default', 'ui-config', 'projects'], `openSource: ${openSource}`);
    }
  });

  it('shows the search page of the rest as it arrives, while slow project listings are still out', async () => {
    const server = fake({ flags: { default: ['a'], checkout: ['x', 'y', 'z'] }, listed: ['default'] });
    const projectFeatures = server.projectFeatures.bind(server);
    server.projectFeatures = async (project, signal) => {
      await delay(30, signal);
      return projectFeatures(project, signal);
    };
    const batches: string[][] = [];
    const result = await listAllFeatures(server, { pageSize: PAGE, onRows: (rows) => batches.push(names(rows)) });
    assert.deepEqual(names(result.features), ['default/a', 'checkout/x', 'checkout/y', 'checkout/z']);
    assert.deepEqual(batches[0], ['checkout/x', 'checkout/y'], 'the search page first, before any listing answered');
  });

  it('a refresh lists the projects of the last listing at once, without the project list', async () => {
    const server = fake({ flags: { default: ['a', 'b', 'c'], checkout: ['x', 'y'], hidden: ['z'] }, listed: ['default'] });
    const result = await listAllFeatures(server, { pageSize: PAGE, knownProjects: ['checkout', 'hidden'] });
    assert.deepEqual(names(result.features), ['default/a', 'default/b', 'default/c', 'checkout/x', 'checkout/y', 'hidden/z']);
    assert.equal(result.total, 6);
    assert.deepEqual(server.log, ['search 0 IS_NONE_OF:default,checkout,hidden', 'project default', 'project checkout', 'project hidden']);
  });

  it('a refresh still finds a project created since the last listing: the search outside the known ones names it', async () => {
    const server = fake({ flags: { default: ['a'], checkout: ['x'], fresh: ['n1', 'n2', 'n3'] } });
    const result = await listAllFeatures(server, { pageSize: PAGE, knownProjects: ['checkout'] });
    assert.deepEqual(names(result.features), ['default/a', 'fresh/n1', 'fresh/n2', 'fresh/n3', 'checkout/x']);
    assert.equal(result.total, 5);
    assert.deepEqual(server.log, ['search 0 IS_NONE_OF:default,checkout', 'project default', 'project checkout', 'project fresh']);
  });

  it('finds the flags of a project the project list leaves out (open-source Unleash lists only default)', async () => {
    const server = fake({ flags: { default: ['a', 'b', 'c'], checkout: ['x', 'y'], hidden: ['z'] }, listed: ['default'] });
    const result = await listAllFeatures(server, { pageSize: PAGE });
    assert.deepEqual(names(result.features), ['default/a', 'default/b', 'default/c', 'checkout/x', 'checkout/y', 'hidden/z']);
    assert.equal(result.method, 'projects+search');
    assert.equal(result.total, 6);
    assert.deepEqual(server.log, [
      'search 0 IS_NONE_OF:default', 'project default', 'projects',
      // the page of the rest names checkout, which is then listed in one request; the next page of the rest is short
      'project checkout', 'search 0 IS_NONE_OF:default,checkout',
    ]);
  });

  it('keeps what a search row carries when the project listing of the same flags comes after it', async () => {
    const server = fake({ flags: { default: ['a'], checkout: ['x', 'y', 'z'] }, listed: ['default'] });
    const searchPage = server.searchPage.bind(server);
    server.searchPage = async (...args) => {
      const page = await searchPage(...args);
      return { ...page, features: page.features.map((row) => ({ ...row, lifecycle: { stage: 'live', enteredStageAt: '2026-01-01T00:00:00.000Z' } })) };
    };
    const result = await listAllFeatures(server, { pageSize: PAGE });
    assert.deepEqual(result.features.map((row) => `${row.name}:${row.lifecycle?.stage ?? '-'}`), ['a:-', 'x:live', 'y:live', 'z:-']);
  });

  it('reads a project the token may not list through the search', async () => {
    const server = fake({ flags: { default: ['a', 'b', 'c'], checkout: ['x', 'y'] }, forbidden: ['default'] });
    const result = await listAllFeatures(server, { pageSize: PAGE });
    assert.deepEqual(names(result.features), ['default/a', 'default/b', 'default/c', 'checkout/x', 'checkout/y']);
    assert.equal(result.method, 'projects+search');
    assert.equal(result.total, 5);
    assert.deepEqual(server.log.filter((line) => line.startsWith('search')), ['search 0 IS_NONE_OF:default', 'search 0 IS_ANY_OF:default', 'search 2 IS_ANY_OF:default']);
  });

  it('pages the search when the server has no per-project listing', async () => {
    const server = fake({ flags: { default: ['a', 'b', 'c', 'd', 'e'] }, noProjectEndpoint: true });
    const result = await listAllFeatures(server, { pageSize: PAGE });
    assert.deepEqual(names(result.features), ['default/a', 'default/b', 'default/c', 'default/d', 'default/e']);
    assert.equal(result.method, 'search');
    assert.equal(result.total, 5);
    assert.deepEqual(server.log.filter((line) => line.startsWith('search')), ['search 0 IS_NONE_OF:default', 'search 0', 'search 2', 'search 4']);
  });

  it('lists per project when the server has no search, and says it could not check', async () => {
    const server = fake({ flags: { default: ['b', 'a'], checkout: ['c'] }, noSearch: true });
    const result = await listAllFeatures(server, { pageSize: PAGE });
    assert.deepEqual(names(result.features), ['default/a', 'default/b', 'checkout/c']);
    assert.equal(result.method, 'projects');
    assert.equal(result.total, undefined);
    assert.equal(result.unchecked, 'the server has no flag search');
  });

  it('with projects configured, lists only those and searches for nothing else', async () => {
    const server = fake({ flags: { default: ['a', 'b', 'c'], checkout: ['x', 'y'], other: ['o'] } });
    const result = await listAllFeatures(server, { pageSize: PAGE, projects: ['default', 'checkout'] });
    assert.deepEqual(names(result.features), ['default/a', 'default/b', 'default/c', 'checkout/x', 'checkout/y']);
    assert.deepEqual(server.log, ['project default', 'project checkout']);
  });

  it('with a configured project the token may not list, reads it through the search', async () => {
    const server = fake({ flags: { default: ['a'], checkout: ['x', 'y', 'z'] }, forbidden: ['checkout'] });
    const result = await listAllFeatures(server, { pageSize: PAGE, projects: ['default', 'checkout'] });
    assert.deepEqual(names(result.features), ['default/a', 'checkout/x', 'checkout/y', 'checkout/z']);
    assert.deepEqual(server.log, ['project default', 'project checkout', 'search 0 IS_ANY_OF:checkout', 'search 2 IS_ANY_OF:checkout']);
  });

  describe('a server that limits searches (Unleash 8: 15 a minute, then 429)', () => {
    it('no search allowed: every listed project, and a note that completeness was not checked', async () => {
      const server = fake({ flags: { default: ['a', 'b', 'c'], checkout: ['x'] }, listed: ['default'], searchesAllowed: 0 });
      const result = await listAllFeatures(server, { pageSize: PAGE });
      assert.deepEqual(names(result.features), ['default/a', 'default/b', 'default/c']);
      assert.equal(result.method, 'projects');
      assert.equal(result.unchecked, 'the server refuses more searches for 57 s (429: it limits searches per minute)');
    });

    it('the first search allowed, the rest refused: what was listed, and how many flags are missing', async () => {
      const server = fake({ flags: { default: ['a', 'b', 'c'], checkout: ['x', 'y'], hidden: ['z'] }, listed: ['default'], searchesAllowed: 1 });
      const result = await listAllFeatures(server, { pageSize: PAGE });
      assert.deepEqual(names(result.features), ['default/a', 'default/b', 'default/c', 'checkout/x', 'checkout/y']);
      assert.equal(result.total, undefined);
      assert.equal(result.unchecked, 'the server refuses more searches for 57 s (429: it limits searches per minute); 1 of 6 flags are outside the projects listed');
    });

    it('configured projects need no search: a refused one leaves the listing complete, with no note', async () => {
      const server = fake({ flags: { default: ['a'], checkout: ['x'] }, searchesAllowed: 0 });
      const result = await listAllFeatures(server, { pageSize: PAGE, projects: ['default', 'checkout'] });
      assert.deepEqual(names(result.features), ['default/a', 'checkout/x']);
      assert.equal(result.unchecked, undefined);
      assert.deepEqual(server.log, ['project default', 'project checkout', 'search 0 IS_ANY_OF:default,checkout']);
    });

    it('lists 10,000 flags in two projects with one search', async () => {
      const many = (prefix: string) => Array.from({ length: 5_000 }, (_, i) => `${prefix}-${String(i).padStart(4, '0')}`);
      const server = fake({ flags: { default: many('d'), checkout: many('c') }, searchesAllowed: 1 });
      const result = await listAllFeatures(server);
      assert.equal(result.features.length, 10_000);
      assert.equal(result.unchecked, undefined);
      assert.deepEqual(server.log.filter((line) => line.startsWith('search')), ['search 0 IS_NONE_OF:default']);
    });
  });

  describe('a project that cannot be read (a real server answers 500 for a project holding a flag named `constructor`)', () => {
    it('is read through the search on its own: the listing is complete', async () => {
      const server = fake({ flags: { default: ['a', 'b'], odd: ['constructor', 'toString', 'x'] }, broken: ['odd'] });
      const result = await listAllFeatures(server, { pageSize: PAGE, knownProjects: ['odd'] });
      assert.deepEqual(names(result.features), ['default/a', 'default/b', 'odd/constructor', 'odd/toString', 'odd/x']);
      assert.equal(result.failed, undefined);
      assert.equal(result.total, 5);
      assert.deepEqual(server.log, ['search 0 IS_NONE_OF:default,odd', 'project default', 'project odd', 'search 0 IS_ANY_OF:odd', 'search 2 IS_ANY_OF:odd']);
    });

    it('whose search fails too is a failed part, with both causes; every other project is listed', async () => {
      const server = fake({ flags: { default: ['a', 'b'], checkout: ['c'], odd: ['constructor', 'x'] }, broken: ['odd'], searchBroken: ['odd'] });
      const result = await listAllFeatures(server, { pageSize: PAGE, knownProjects: ['checkout', 'odd'] });
      assert.deepEqual(names(result.features), ['default/a', 'default/b', 'checkout/c']);
      assert.equal(result.total, undefined, 'nothing proves the count without the failed project');
      assert.deepEqual(
        result.failed?.map((failure) => [failure.project, (failure.error as HttpError).request, (failure.error as HttpError).status, (failure.searchError as HttpError).status]),
        [['odd', 'GET /api/admin/projects/odd/features', 500, 502]],
      );
    });

    it('the same when the project is configured, or named by the search of the flags outside those listed', async () => {
      const flags = { default: ['a', 'b', 'c'], odd: ['constructor', 'x', 'y'] };
      const configured = await listAllFeatures(fake({ flags, broken: ['odd'], searchBroken: ['odd'] }), { pageSize: PAGE, projects: ['default', 'odd'] });
      assert.deepEqual(names(configured.features), ['default/a', 'default/b', 'default/c']);
      assert.deepEqual(configured.failed?.map((failure) => failure.project), ['odd']);

      const found = await listAllFeatures(fake({ flags, listed: ['default'], broken: ['odd'] }), { pageSize: PAGE });
      assert.deepEqual(names(found.features), ['default/a', 'default/b', 'default/c', 'odd/constructor', 'odd/x', 'odd/y']);
      assert.equal(found.failed, undefined);
    });

    it('the only project of a server is read through the whole search', async () => {
      const server = fake({ flags: { default: ['constructor', 'toString', 'a'] }, broken: ['default'] });
      const result = await listAllFeatures(server, { pageSize: PAGE });
      assert.deepEqual(names(result.features), ['default/a', 'default/constructor', 'default/toString']);
      assert.equal(result.method, 'search');
    });

    it('is remembered: the next listings read it through the search at once, until the server\'s version changes', async () => {
      const flags = { default: ['a', 'b'], odd: ['constructor', 'toString', 'x'] };
      const every = ['default/a', 'default/b', 'odd/constructor', 'odd/toString', 'odd/x'];
      const server: Server = { flags, broken: ['odd'], version: '7.5.1' };
      const requests = fake(server);
      const fallbacks = new ListingFallbacks();
      const list = async () => {
        requests.log.length = 0;
        const result = await listAllFeatures(requests, { pageSize: PAGE, knownProjects: ['odd'], fallbacks });
        assert.deepEqual([names(result.features), result.failed], [every, undefined]);
        return requests.log;
      };
      const asked = (log: string[]) => ['project odd', 'version', 'search 0 IS_ANY_OF:odd'].filter((request) => log.includes(request));

      assert.deepEqual(asked(await list()), ['project odd', 'version', 'search 0 IS_ANY_OF:odd'], 'the first listing finds the 500 and notes the version');
      assert.deepEqual(asked(await list()), ['version', 'search 0 IS_ANY_OF:odd'], 'a refresh: straight to the search');
      assert.deepEqual(asked(await list()), ['version', 'search 0 IS_ANY_OF:odd'], 'and the next');
      // The server is upgraded: its listing is asked again (and, failing still, remembered again).
      server.version = '8.2.0';
      assert.deepEqual(asked(await list()), ['project odd', 'version', 'search 0 IS_ANY_OF:odd']);
      assert.deepEqual(asked(await list()), ['version', 'search 0 IS_ANY_OF:odd']);
      // Upgraded again, to one that lists it: listed, and forgotten.
      server.version = '8.3.0';
      server.broken = [];
      assert.deepEqual(asked(await list()), ['project odd', 'version']);
      assert.deepEqual(asked(await list()), ['project odd']);
    });

    it('a remembered project whose search fails too is still a failed part, naming the listing\'s 500', async () => {
      const server = fake({ flags: { default: ['a'], odd: ['constructor'] }, broken: ['odd'], searchBroken: ['odd'], version: '7.5.1' });
      const fallbacks = new ListingFallbacks();
      for (let round = 0; round < 2; round++) {
        server.log.length = 0;
        const result = await listAllFeatures(server, { pageSize: PAGE, knownProjects: ['odd'], fallbacks });
        assert.deepEqual(
          result.failed?.map((failure) => [failure.project, (failure.error as HttpError).status, (failure.searchError as HttpError).status]),
          [['odd', 500, 502]],
        );
      }
      assert.ok(!server.log.includes('project odd'), server.log.join(', '));
    });

    it('a project listing that fails otherwise (a 503 for maintenance) is not remembered', async () => {
      const requests = fake({ flags: { default: ['a'], odd: ['x'] }, version: '7.5.1' });
      const failing: ListingRequests = {
        ...requests,
        async projectFeatures(project, signal, maxRows) {
          if (project === 'odd') {
            requests.log.push('project odd');
            throw new HttpError({ status: 503, request: 'GET /api/admin/projects/odd/features', serverMessage: 'Unleash is in maintenance mode' });
          }
          return requests.projectFeatures(project, signal, maxRows);
        },
      };
      const fallbacks = new ListingFallbacks();
      await listAllFeatures(failing, { pageSize: PAGE, knownProjects: ['odd'], fallbacks });
      requests.log.length = 0;
      await listAllFeatures(failing, { pageSize: PAGE, knownProjects: ['odd'], fallbacks });
      assert.ok(requests.log.includes('project odd'), requests.log.join(', '));
    });

    it('when nothing at all could be read, the listing fails with the first cause', async () => {
      const server = fake({ flags: { odd: ['constructor'] }, broken: ['odd'], searchBroken: ['odd'] });
      await assert.rejects(
        listAllFeatures(server, { pageSize: PAGE, projects: ['odd'] }),
        (error: unknown) => error instanceof HttpError && error.status === 500 && error.request === 'GET /api/admin/projects/odd/features',
      );
    });

    it('a refused connection ends the listing at once: no further request is sent, and those in flight stop', async () => {
      // A stopped server: every request is refused (after its own retries, here 20 ms).
      const log: string[] = [];
      const stopped: string[] = [];
      const refuse = async (request: string, signal?: AbortSignal): Promise<never> => {
        if (signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
        log.push(request);
        await delay(20, signal).catch((error: unknown) => {
          stopped.push(request);
          throw error;
        });
        throw new NetworkError(`GET ${request}`, 'ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:4242');
      };
      const requests: ListingRequests = {
        searchPage: (_offset, _limit, filter, signal) => refuse(`search ${filter ?? ''}`, signal),
        projectFeatures: (project, signal) => refuse(`project ${project}`, signal),
        projects: (signal) => refuse('projects', signal),
      };
      const known = Array.from({ length: 12 }, (_, i) => `p${i}`);
      await assert.rejects(listAllFeatures(requests, { pageSize: PAGE, knownProjects: known, concurrency: 4 }), (error: unknown) => error instanceof NetworkError && error.code === 'ECONNREFUSED');
      const projects = log.filter((request) => request.startsWith('project '));
      assert.ok(projects.length <= 4, `after the first refusal no project is asked for: ${projects.length} of 13 were (${projects.join(', ')})`);
      await delay(50);
      assert.deepEqual(log.filter((request) => request.startsWith('project ')), projects, 'nothing sent afterwards either');
    });

    it('a failure that is never one project\'s ends the listing: the token, a cancellation', async () => {
      const flags = { default: ['a'], checkout: ['c'] };
      await assert.rejects(listAllFeatures(fake({ flags, unauthorized: ['checkout'] }), { pageSize: PAGE, knownProjects: ['checkout'] }), AuthError);

      const slow = fake({ flags, searchDelayMs: 50 });
      const stop = new AbortController();
      const listing = listAllFeatures(slow, { pageSize: PAGE, signal: stop.signal });
      stop.abort();
      await assert.rejects(listing, { name: 'AbortError' });
    });
  });

  describe('bounded whatever the server says', () => {
    it('a total of 1e20 sends a bounded number of requests and holds no more rows than arrived', async () => {
      const server = fake({ flags: { default: ['a', 'b', 'c'] }, total: () => 1e20, noProjectEndpoint: true });
      const result = await listAllFeatures(server, { pageSize: PAGE });
      assert.deepEqual(names(result.features), ['default/a', 'default/b', 'default/c']);
      assert.ok(server.log.length <= 8, server.log.join(', '));
    });

    it('a total that is not a number is ignored: paging stops on the short page', async () => {
      const server = fake({ flags: { default: ['a', 'b', 'c'] }, total: () => Number.NaN });
      const result = await listAllFeatures(server, { pageSize: PAGE });
      assert.deepEqual(names(result.features), ['default/a', 'default/b', 'default/c']);
    });

    it('a server answering the same page for every offset stops at the repeat', async () => {
      const server = fake({ flags: { default: ['a', 'b', 'c', 'd'] }, repeatPages: true, noProjectEndpoint: true, total: () => 1e6 });
      const result = await listAllFeatures(server, { pageSize: PAGE });
      assert.deepEqual(names(result.features), ['default/a', 'default/b']);
      assert.ok(server.log.length <= 8, server.log.join(', '));
    });

    it('more flags than the row budget is an error that names unleash.projects, however they arrive', async () => {
      const flags = Array.from({ length: 6 }, (_, i) => `f${i}`);
      const listed = fake({ flags: { default: flags } });
      const asked: Array<number | undefined> = [];
      const projectFeatures = listed.projectFeatures.bind(listed);
      listed.projectFeatures = (project, signal, maxRows) => {
        asked.push(maxRows);
        return projectFeatures(project, signal, maxRows);
      };
      const message = 'The setting `unleash.projects` takes in more than 5 flags, more than the extension lists. Name fewer projects to show.';
      await assert.rejects(listAllFeatures(listed, { pageSize: PAGE, limits: { rows: 5 } }), (error: unknown) => error instanceof ConfigError && error.message === message);
      assert.deepEqual(asked, [5], 'the project listing is told the budget, to refuse a larger project before checking its rows');

      const searched = fake({ flags: { default: flags }, noProjectEndpoint: true });
      const batches: number[] = [];
      const refused = listAllFeatures(searched, { pageSize: PAGE, limits: { rows: 5 }, onRows: (rows) => batches.push(rows.length) });
      await assert.rejects(refused, (error: unknown) => error instanceof ConfigError && error.message === message);
      assert.ok(batches.reduce((sum, n) => sum + n, 0) <= 5, `no more than the budget was handed on: ${batches.join(', ')}`);
    });

    it('more pages than the limit is an error that says what to do', async () => {
      const flags = Array.from({ length: 30 }, (_, i) => `f${String(i).padStart(2, '0')}`);
      const server = fake({ flags: { default: flags }, noProjectEndpoint: true });
      const error = await listAllFeatures(server, { pageSize: PAGE, limits: { pages: 5 } }).catch((e: unknown) => e);
      assert.ok(error instanceof ConfigError);
      assert.equal(error.message, 'The setting `unleash.projects` takes in more than 10 flags, more than the extension lists. Name fewer projects to show.');
    });
  });
});
