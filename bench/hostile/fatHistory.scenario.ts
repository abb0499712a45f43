/**
 * Issue 30: a server answering every event search (one event asked, for a hover) with 100,000 events of long
 * server-written summaries, about 40 MB. The hover's read of the last change runs through the real client and
 * FlagActivity; the answer is refused once it passes the page's byte budget (nothing of it is parsed), and the hover's
 * line says why instead of the last change.
 */
import { UnleashClient } from '../../src/api/client';
import { Catalog } from '../../src/model/store/catalog';
import { activityMarkdown } from '../../src/model/activity/activityText';
import { FlagActivity, USAGE_HOURS } from '../../src/model/activity/flagActivity';
import { ServerSource } from '../../src/services/serverSource';
import { routes, startFaultServer } from '../../test/support/faultServer';
import type { HostileScenario } from './scenario';

const EVENTS = 100_000;
const TOKEN = '*:*.hostile0123456789abcdef0123456789';
const json = { 'content-type': 'application/json' };

export const scenario: HostileScenario = {
  finding: 30,
  input: `a server answering the event search (1 event asked) with ${EVENTS.toLocaleString('en-US')} events, 40 MB`,
  async prepare() {
    const summary = `**admin** enabled **[x](http://localhost/x)** ${'y'.repeat(300)}`;
    const events = Array.from({ length: EVENTS }, (_, i) => JSON.stringify({ id: i, type: 'feature-environment-enabled', createdAt: '2026-11-26T06:00:00Z', createdBy: 'admin', environment: 'production', summary }));
    const page = Buffer.from(`{"events":[${events.join(',')}],"total":${EVENTS}}`);
    const server = await startFaultServer({
      handler: routes({
        'GET /api/admin/search/events': { body: page, headers: json },
        'GET /api/admin/client-metrics/features/f/raw': { body: { data: [] } },
      }),
    });
    return { context: { url: server.url }, stop: () => server.close() };
  },
  async run(_dir, context) {
    const { url } = context as { url: string };
    const client = new UnleashClient({ baseUrl: url, getToken: () => TOKEN });
    const store = { currentSource: new ServerSource(client, [], ''), catalog: Catalog.empty, onDidChange: () => ({ dispose() {} }) };
    const activity = new FlagActivity(store, { warn() {} });
    try {
      const [latest, usage] = await Promise.all([activity.latest('default', 'f'), activity.usage('f')]);
      return activityMarkdown({ latest, usage, now: new Date(), hours: USAGE_HOURS });
    } finally {
      await client.close();
    }
  },
  expect: /^_Last change could not be read: .*Failed request\\: GET \\\/api\\\/admin\\\/search\\\/events\\\._  \n\*\*Usage, last 24 h:\*\* not evaluated$/,
};
