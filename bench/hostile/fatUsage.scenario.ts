/**
 * Issue 30: a server answering a flag's usage with 40,000 rows (4 MB, within the budget), each of another environment with a
 * 60-character name and 50 variants. The hover's line and the details document's table are built through the real
 * client, FlagActivity and the usage text: the environments and variants shown are bounded, the rest counted.
 */
import { UnleashClient } from '../../src/api/client';
import { Catalog } from '../../src/model/store/catalog';
import { FlagActivity, USAGE_HOURS } from '../../src/model/activity/flagActivity';
import { usageMarkdown, usageSection } from '../../src/model/activity/usageText';
import { ServerSource } from '../../src/services/serverSource';
import { routes, startFaultServer } from '../../test/support/faultServer';
import type { HostileScenario } from './scenario';

const ROWS = 24_000;
const TOKEN = '*:*.hostile0123456789abcdef0123456789';
const json = { 'content-type': 'application/json' };

export const scenario: HostileScenario = {
  finding: 30,
  input: `a server answering a flag's usage with ${ROWS.toLocaleString('en-US')} rows of distinct environments (4 MB, within the budget)`,
  async prepare() {
    const timestamp = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString();
    const variants = JSON.stringify(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`v${i}`, i])));
    const rows = Array.from(
      { length: ROWS },
      (_, i) => `{"timestamp":"${timestamp}","environment":"env-${String(i).padStart(50, '0')}","appName":"app-${i}","yes":${i},"no":1,"variants":${i % 100 === 0 ? variants : '{}'}}`,
    );
    const body = Buffer.from(`{"version":1,"data":[${rows.join(',')}]}`);
    const server = await startFaultServer({ handler: routes({ 'GET /api/admin/client-metrics/features/f/raw': { body, headers: json } }) });
    return { context: { url: server.url }, stop: () => server.close() };
  },
  async run(_dir, context) {
    const { url } = context as { url: string };
    const client = new UnleashClient({ baseUrl: url, getToken: () => TOKEN });
    const store = { currentSource: new ServerSource(client, [], ''), catalog: Catalog.empty, onDidChange: () => ({ dispose() {} }) };
    const activity = new FlagActivity(store, { warn() {} });
    try {
      const usage = await activity.usage('f');
      const now = new Date();
      const line = usageMarkdown(usage, now, USAGE_HOURS) ?? '';
      const section = usageSection(usage, now, USAGE_HOURS);
      return `hover ${line.length} chars, "${line.slice(-40)}" · document ${section.length} lines, ${section.join('\n').length} chars, "${section.at(-3)}"`;
    } finally {
      await client.close();
    }
  },
  expect: /^hover \d{3} chars, ".*23\\,996 more environments" · document 2[0-9] lines, \d{4} chars, "… and 23,980 more environments \([\d,]+ evaluations\)"$/,
};
