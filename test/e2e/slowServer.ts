/**
 * A slow stand-in for Unleash for the e2e `slow` phase: 250 flags in two projects, whose search answers at once
 * (ignoring the `project` filter, so the page the listing asks for outside the projects it lists holds the first 100
 * flags) while each project listing takes SLOW_MS. The tree must show that page's rows while the rest is on its way
 * (the real server's seed fits in one page and answers at once, so it cannot show this).
 */
import { startFaultServer, type FaultServer } from '../support/faultServer';

const SLOW_MS = 6_000;
const SLOW_FLAGS = Array.from({ length: 250 }, (_, i) => ({
  name: `slow-flag-${String(i).padStart(3, '0')}`,
  project: i % 5 < 3 ? 'alpha' : 'beta',
  type: 'release',
  environments: [{ name: 'development', enabled: i % 2 === 0, type: 'development', sortOrder: 1 }],
}));

export async function startSlowServer(): Promise<FaultServer> {
  return startFaultServer({ handler: async (request) => {
    switch (request.path) {
      case '/api/admin/search/features': {
        const offset = Number(request.query.get('offset') ?? 0);
        const limit = Number(request.query.get('limit') ?? 100);
        return { body: { features: SLOW_FLAGS.slice(offset, offset + limit), total: SLOW_FLAGS.length } };
      }
      case '/api/admin/projects':
        return { body: { version: 1, projects: [{ id: 'alpha' }, { id: 'beta' }] } };
      case '/api/admin/environments':
        return { body: { version: 1, environments: [{ name: 'development', type: 'development', sortOrder: 1, enabled: true }] } };
      case '/api/admin/ui-config':
        return { body: { version: '7.5.1', environment: 'Open Source' } };
    }
    const project = /^\/api\/admin\/projects\/([^/]+)\/features$/.exec(request.path)?.[1];
    if (project) {
      await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
      return { body: { version: 2, features: SLOW_FLAGS.filter((flag) => flag.project === project).map(({ project: _, ...row }) => row) } };
    }
    return { status: 404, body: { name: 'NotFoundError', message: `The path you were looking for (${request.path}) is not available.` } };
  } });
}
