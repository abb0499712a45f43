/**
 * Issue 39: a server answering a flag's history with one change nested 6,000 deep (a strategy's constraints). The
 * hover's last change and the details document's History section, through the real client and FlagActivity: either
 * the change is worded, or its read fails with a reason in words; never a RangeError, never a part silently left out.
 */
import { activityMarkdown, activitySections } from '../../src/model/activity/activityText';
import { USAGE_HOURS } from '../../src/model/activity/flagActivity';
import { routes, startFaultServer } from '../../test/support/faultServer';
import type { HostileScenario } from './scenario';
import { serverActivity } from './serverStore';

const json = { 'content-type': 'application/json' };
const DEPTH = 6_000;

export const scenario: HostileScenario = {
  finding: '39: a change nested 6,000 deep',
  input: `a server answering a flag's history with one change nested ${DEPTH.toLocaleString('en-US')} deep`,
  async prepare() {
    const deep = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
    const event = `{"id":1,"type":"feature-strategy-update","createdAt":"2026-11-26T06:00:00Z","createdBy":"mallory","environment":"production","preData":{"name":"default","constraints":[]},"data":{"name":"default","constraints":${deep}}}`;
    const server = await startFaultServer({
      handler: routes({
        'GET /api/admin/search/events': { body: Buffer.from(`{"events":[${event}],"total":1}`), headers: json },
        'GET /api/admin/client-metrics/features/f/raw': { body: { data: [] }, headers: json },
      }),
    });
    return { context: { url: server.url }, stop: () => server.close() };
  },
  async run(_dir, context) {
    return serverActivity((context as { url: string }).url, async (activity) => {
      const [latest, usage] = await Promise.all([activity.latest('default', 'f'), activity.usage('f')]);
      const hover = activityMarkdown({ latest, usage, now: new Date(), hours: USAGE_HOURS }).split('  \n')[0];
      const lines = activitySections(await activity.history('default', 'f'), usage, new Date(), USAGE_HOURS).split('\n');
      return `hover: ${hover} · details: ${lines[lines.indexOf('History (newest first)') + 2]} · ${lines.includes('Usage, last 24 hours') ? 'usage shown' : 'usage missing'}`;
    });
  },
  expect:
    /^hover: (\*\*Last change:\*\* changed the constraints of Standard in production · mallory · .+|_Last change could not be read: (?!.*Maximum call stack).+_) · details: (.+ · mallory · changed the constraints of Standard in production|Not shown: (?!.*Maximum call stack).+) · usage shown$/,
};
