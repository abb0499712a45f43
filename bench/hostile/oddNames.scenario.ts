/**
 * Finding 1: a project holding flags named `constructor` and `toString`, whose listing a real 7.5.1 and 8.2.0 answer
 * with a 500 (their overview code keys a plain object by flag name). The server here answers as they do; the Flags
 * view's first load runs through the real client, listing and store, and the tree shows every flag.
 */
import { rootNodes } from '../../src/model/tree/root';
import { routes, startFaultServer, type FaultRequest } from '../../test/support/faultServer';
import type { HostileScenario } from './scenario';
import { loadedStore } from './serverStore';

const row = (name: string, project: string) => ({ name, project, type: 'release', environments: [{ name: 'development', enabled: true }] });
const ODD = ['constructor', 'toString', '__proto__', 'hasOwnProperty'].map((name) => row(name, 'odd'));

/** The search as a real server answers it: filtered by `project=IS_ANY_OF:…` / `IS_NONE_OF:…`. */
function search(request: FaultRequest) {
  const filter = request.query.get('project') ?? '';
  const [operator, list = ''] = filter.split(':');
  const projects = new Set(list.split(','));
  const all = [row('checkout', 'default'), ...ODD];
  const features = all.filter((flag) => !filter || (operator === 'IS_ANY_OF' ? projects.has(flag.project) : !projects.has(flag.project)));
  return { body: { features, total: features.length } };
}

export const scenario: HostileScenario = {
  finding: 1,
  input: 'a project holding flags named `constructor`, `toString`, `__proto__` and `hasOwnProperty`, whose listing answers 500',
  async prepare() {
    const server = await startFaultServer({
      handler: routes({
        'GET /api/admin/ui-config': { body: { version: '7.5.1', environment: 'Open Source' } },
        'GET /api/admin/projects/default/features': { body: { features: [row('checkout', 'default')] } },
        'GET /api/admin/projects/odd/features': { status: 500, body: { name: 'TypeError', message: "Cannot read properties of undefined (reading 'some')" } },
        'GET /api/admin/search/features': search,
      }),
    });
    return { context: { url: server.url }, stop: () => server.close() };
  },
  async run(_dir, context) {
    return loadedStore((context as { url: string }).url, async (store) => {
      const rows = rootNodes(store).map((node) => `${node.label} — ${node.description ?? ''}`);
      const odd = rootNodes(store).find((node) => node.label === 'odd');
      const flags = ((await odd?.children?.()) ?? []).map((node) => node.label);
      return `${store.state}: ${rows.join('; ')} · odd: ${flags.join(', ')}`;
    });
  },
  expect: /^ready: default — 1 flag; odd — 4 flags · odd: __proto__, constructor, hasOwnProperty, toString$/,
};
