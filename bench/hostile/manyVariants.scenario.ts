/**
 * Issue 39: a server answering a flag's usage with one row that counts 200,000 variants (2.6 MB, within the usage
 * answer's budget). The hover's usage line and the details document's Usage section, through the real client and
 * FlagActivity: the row's first 10,000 counts are read, the ten most evaluated of the first 1,000 names named, and
 * the others given as a least count.
 */
import { activityMarkdown, activitySections } from '../../src/model/activity/activityText';
import { USAGE_HOURS } from '../../src/model/activity/flagActivity';
import { routes, startFaultServer } from '../../test/support/faultServer';
import type { HostileScenario } from './scenario';
import { serverActivity } from './serverStore';

const json = { 'content-type': 'application/json' };
const VARIANTS = 200_000;

export const scenario: HostileScenario = {
  finding: '39: 200,000 variants in one usage row',
  input: `a server answering a flag's usage with one row counting ${VARIANTS.toLocaleString('en-US')} variants (2.6 MB)`,
  async prepare() {
    const timestamp = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();
    const variants = Array.from({ length: VARIANTS }, (_, i) => `"v${i}":${(i % 13) + 1}`).join(',');
    const body = Buffer.from(`{"version":1,"data":[{"timestamp":"${timestamp}","environment":"production","appName":"web","yes":5,"no":1,"variants":{${variants}}}]}`);
    const server = await startFaultServer({
      handler: routes({
        'GET /api/admin/client-metrics/features/f/raw': { body, headers: json },
        'GET /api/admin/search/events': { body: { events: [], total: 0 }, headers: json },
      }),
    });
    return { context: { url: server.url }, stop: () => server.close() };
  },
  async run(_dir, context) {
    return serverActivity((context as { url: string }).url, async (activity) => {
      const [latest, usage] = await Promise.all([activity.latest('default', 'f'), activity.usage('f')]);
      const hover = activityMarkdown({ latest, usage, now: new Date(), hours: USAGE_HOURS }).split('  \n')[1];
      const lines = activitySections({ value: { events: [] } }, usage, new Date(), USAGE_HOURS).split('\n');
      return `hover: ${hover} · ${lines.find((line) => line.startsWith('  Variants:'))?.trim()}`;
    });
  },
  expect: /^hover: \*\*Usage, last 24 h:\*\* production 6 \\\(5 yes · 1 no\\\) · Variants: v103 13, v116 13, v12 13, v129 13, v142 13, v155 13, v168 13, v181 13, v194 13, v207 13, others at least 69,855 \(a row of 10,000 variant counts or more: 10,000 are read\)$/,
};
