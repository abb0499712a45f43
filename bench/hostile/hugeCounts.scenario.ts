/**
 * Issue 39: a server answering a flag's usage with counts of 1e308 (yes, no and a variant, in two hours) and its
 * history with a total of 1e308 changes. The hover's usage line and the details document's sections, through the real
 * client and FlagActivity: counts stop at the largest exact one and say so, never `∞` or 308 digits.
 */
import { activityMarkdown, activitySections } from '../../src/model/activity/activityText';
import { USAGE_HOURS } from '../../src/model/activity/flagActivity';
import { routes, startFaultServer } from '../../test/support/faultServer';
import type { HostileScenario } from './scenario';
import { serverActivity } from './serverStore';

const json = { 'content-type': 'application/json' };

export const scenario: HostileScenario = {
  finding: '39: counts of 1e308',
  input: 'a server answering usage counts of 1e308 (yes, no, a variant) and a history total of 1e308',
  async prepare() {
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const row = (at: number) => ({ timestamp: new Date(at).toISOString(), environment: 'production', appName: 'web', yes: 1e308, no: 1e308, variants: { blue: 1e308 } });
    const event = { id: 1, type: 'feature-created', createdAt: '2026-11-26T06:00:00Z', createdBy: 'admin' };
    const server = await startFaultServer({
      handler: routes({
        'GET /api/admin/search/events': { body: { events: [event], total: 1e308 }, headers: json },
        'GET /api/admin/client-metrics/features/f/raw': { body: { data: [row(hour), row(hour - 3_600_000)] }, headers: json },
      }),
    });
    return { context: { url: server.url }, stop: () => server.close() };
  },
  async run(_dir, context) {
    return serverActivity((context as { url: string }).url, async (activity) => {
      const [latest, usage, history] = await Promise.all([activity.latest('default', 'f'), activity.usage('f'), activity.history('default', 'f')]);
      const hover = activityMarkdown({ latest, usage, now: new Date(), hours: USAGE_HOURS }).split('  \n')[1];
      const lines = activitySections(history, usage, new Date(), USAGE_HOURS).split('\n');
      const table = lines[lines.indexOf('Usage, last 24 hours') + 3] ?? '';
      return `hover: ${hover} · table: ${table.replace(/\s+/g, ' ')} · ${lines.find((line) => line.startsWith('The newest'))}`;
    });
  },
  expect:
    /^hover: \*\*Usage, last 24 h:\*\* production 9\\,007\\,199\\,254\\,740\\,991\\\+ \\\(9\\,007\\,199\\,254\\,740\\,991\\\+ yes · 9\\,007\\,199\\,254\\,740\\,991\\\+ no\\\) · table: production 9,007,199,254,740,991\+ 9,007,199,254,740,991\+ 9,007,199,254,740,991\+ [·█]+ · The newest 1 of 9,007,199,254,740,991\+ changes; see the event log in Unleash for the rest\.$/,
};
