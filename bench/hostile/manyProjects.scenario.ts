/**
 * Finding 10: a workspace's `unleash.projects` names 5,000 projects, so each listing would ask for 5,000 project
 * listings. The Flags view's first load as the extension runs it: the setting read as readSettings() reads it (the
 * union of the folders' lists, capped), the server source the connection builds from it, and the view's message.
 * The server (in the runner's process) answers each project's listing with one flag of that project.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { UnleashClient } from '../../src/api/client';
import { FlagStore } from '../../src/model/store/flagStore';
import { projectsOf } from '../../src/model/settings/settingRules';
import { viewMessage } from '../../src/model/tree/commandData';
import { ServerSource } from '../../src/services/serverSource';
import type { HostileScenario } from './scenario';

const PROJECTS = 5_000;

export const scenario: HostileScenario = {
  finding: 10,
  input: `\`unleash.projects\` naming ${PROJECTS.toLocaleString('en-US')} projects`,
  async prepare() {
    const server = http.createServer((request, response) => {
      const project = /\/api\/admin\/projects\/([^/]+)\/features/.exec(request.url ?? '')?.[1] ?? 'default';
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ features: [{ name: `flag-of-${project}` }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      context: url,
      stop: () => {
        server.closeAllConnections();
        return new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  },
  async run(_dir, url) {
    let requests = 0;
    const named = Array.from({ length: PROJECTS }, (_, i) => `project-${i}`);
    const projects = projectsOf([named]);
    const client = new UnleashClient({
      baseUrl: url as string,
      getToken: () => '*:*.bench',
      onEvent: (event) => void (event.kind === 'retry' || requests++),
    });
    try {
      const store = new FlagStore({ info() {}, error() {} });
      void store.load();
      await store.setSource(new ServerSource(client, projects.projects, '', undefined, projects.note), 'ready');
      return `${store.catalog.flags.length} flags from ${requests} requests · the view: "${viewMessage(store)}"`;
    } finally {
      await client.close();
    }
  },
  expect: /^200 flags from 200 requests · the view: "unleash\.projects names 5000 projects, more than the 200 .*only the first 200 are shown\. Name at most 200 projects/,
};
