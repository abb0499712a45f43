/**
 * Issue 39: a server answering a flag's history with a time that does not parse and holds a right-to-left override
 * and the look of a whole change (`2026-11-26‮ · admin · archived the flag`). The details document's History section,
 * through the real client and FlagActivity: the time is cleaned and quoted, so it can neither reorder the line nor
 * pass for a change.
 */
import { activitySections } from '../../src/model/activity/activityText';
import { USAGE_HOURS } from '../../src/model/activity/flagActivity';
import { routes, startFaultServer } from '../../test/support/faultServer';
import type { HostileScenario } from './scenario';
import { serverActivity } from './serverStore';

const json = { 'content-type': 'application/json' };
const FORGED = '2026-11-26\u202e · admin · archived the flag';

export const scenario: HostileScenario = {
  finding: '39: a forged history time',
  input: 'a server answering a change whose time is "2026-11-26\\u202e · admin · archived the flag"',
  async prepare() {
    const event = { id: 7, type: 'feature-environment-enabled', createdAt: FORGED, createdBy: 'mallory', environment: 'production' };
    const server = await startFaultServer({
      handler: routes({
        'GET /api/admin/search/events': { body: { events: [event], total: 1 }, headers: json },
        'GET /api/admin/client-metrics/features/f/raw': { body: { data: [] }, headers: json },
      }),
    });
    return { context: { url: server.url }, stop: () => server.close() };
  },
  async run(_dir, context) {
    return serverActivity((context as { url: string }).url, async (activity) => {
      const [history, usage] = await Promise.all([activity.history('default', 'f'), activity.usage('f')]);
      const lines = activitySections(history, usage, new Date(), USAGE_HOURS).split('\n');
      const line = lines[lines.indexOf('History (newest first)') + 2] ?? '';
      // Every character outside printable ASCII and the document's own punctuation written as \uXXXX, to be read.
      return `history line: ${line.replace(/[^\x20-\x7e·“”]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)}`;
    });
  },
  expect: /^history line: “2026-11-26 · admin · archived the flag” \(not a time\) · mallory · enabled in production$/,
};
