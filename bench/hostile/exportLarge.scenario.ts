/**
 * Issue 33: an export answer far larger than the heap could hold twice: 50,000 flags (about 73 MB as the server sends
 * it, the file laid out about 110 MB), exported with the default budget under a 256 MB heap. The answer streams to a
 * temporary file beside the target and is laid out from there; what stays in memory is each row's place and sort
 * keys. The user sees the result message of "Export Environment…".
 */
import * as path from 'node:path';
import { UnleashClient } from '../../src/api/client';
import { exportMessage } from '../../src/model/export/exportMessage';
import { exportToFile } from '../../src/model/export/exportToFile';
import { startFaultServer } from '../../test/support/faultServer';
import { generateDataset } from '../data';
import type { HostileScenario } from './scenario';

const FLAGS = 50_000;
const TOKEN = '*:*.hostile0123456789abcdef0123456789';

export const scenario: HostileScenario = {
  finding: 33,
  input: `an export of ${FLAGS.toLocaleString('en-US')} flags (bench/data.ts, about 73 MB as the server sends it), exported with the default budget`,
  async prepare() {
    const exported = generateDataset(FLAGS, 1).exportFor('development');
    const answer = Buffer.from(JSON.stringify(exported), 'utf8');
    const segments = { segments: exported.segments.map((segment) => ({ ...segment, constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] })) };
    const server = await startFaultServer({
      handler: (request, res) => {
        if (request.path === '/api/admin/segments') return { body: segments };
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(answer.length) });
        let at = 0;
        const next = (): void => {
          while (at < answer.length) {
            const more = res.write(answer.subarray(at, (at += 1 << 20)));
            if (!more) return void res.once('drain', next);
          }
          res.end();
        };
        res.on('error', () => undefined);
        next();
        return undefined;
      },
    });
    return { context: { url: server.url }, stop: () => server.close() };
  },
  async run(dir, context) {
    const { url } = context as { url: string };
    const client = new UnleashClient({ baseUrl: url, getToken: () => TOKEN, timeoutMs: 60_000 });
    try {
      const result = await exportToFile({ client, environment: 'development', scope: { kind: 'all' }, folder: dir });
      return exportMessage(result, 'development', { kind: 'all' }, path.relative(dir, result.path));
    } finally {
      await client.close();
    }
  },
  expect: /^Exported 50,?000 flags \(1\d\d\.\d MB\) from development to \.unleash\/development\.json\.$/,
};
