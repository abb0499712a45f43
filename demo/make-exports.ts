/**
 * Regenerates the demo's export files, demo/workspace/.unleash/development.json and production.json, from a real
 * Unleash 7.5.1 holding the contract seed (tools/unleash), through the extension's own export code
 * (src/model/export/exportToFile.ts: the same request, canonical layout and atomic write as "Unleash: Export Environment…").
 *
 *   npx tsx demo/make-exports.ts                 starts its own seeded server, exports, stops it
 *   npx tsx demo/make-exports.ts --check         exports into a temp folder and says whether the committed files
 *                                                hold the same flags (ids and dates differ between servers)
 *
 * With UNLEASH_CONTRACT_URL and UNLEASH_CONTRACT_TOKEN set (a server you started, e.g. `npm run unleash:local`), that
 * server is used instead and left running.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { UnleashClient } from '../src/api/client';
import { formatSize } from '../src/model/export/exportBudget';
import { exportToFile } from '../src/model/export/exportToFile';
import { startRealUnleash, type RealUnleash } from '../tools/unleash';

export const DEMO_WORKSPACE = path.join(__dirname, 'workspace');
export const DEMO_ENVIRONMENTS = ['development', 'production'] as const;

export interface MadeExport {
  environment: string;
  path: string;
  bytes: number;
  flags: number;
  strategies: number;
  changed: boolean;
}

/** Exports every demo environment of the server at `url` into `folder` (default template `.unleash/${environment}.json`). */
export async function makeExports(url: string, token: string, folder: string = DEMO_WORKSPACE): Promise<MadeExport[]> {
  const client = new UnleashClient({ baseUrl: url, getToken: () => token });
  try {
    const made: MadeExport[] = [];
    for (const environment of DEMO_ENVIRONMENTS) {
      const result = await exportToFile({ client, environment, scope: { kind: 'all' }, folder });
      made.push({ environment, path: result.path, bytes: result.bytes, flags: result.flags, strategies: result.strategies, changed: result.changed });
    }
    return made;
  } finally {
    await client.close();
  }
}

/** Flag names per environment file, with their enabled state: what must not drift between regenerations. */
function flagStates(file: string): string[] {
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    features: { name: string }[];
    featureEnvironments?: { featureName?: string; name?: string; enabled?: boolean }[];
  };
  const enabled = new Map((data.featureEnvironments ?? []).map((e) => [e.featureName ?? e.name, e.enabled]));
  return data.features.map((f) => `${f.name}:${enabled.get(f.name) ? 'on' : 'off'}`).sort();
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const t0 = Date.now();
  let own: RealUnleash | undefined;
  let url = process.env.UNLEASH_CONTRACT_URL;
  let token = process.env.UNLEASH_CONTRACT_TOKEN;
  try {
    if (!url || !token) {
      console.log('Starting a real Unleash 7.5.1 with the seed (PostgreSQL + unleash-server on 127.0.0.1)…');
      own = await startRealUnleash({ seed: true });
      url = own.url;
      token = own.adminToken;
      console.log(`Unleash ready at ${url} in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
    }
    const folder = check ? fs.mkdtempSync(path.join(os.tmpdir(), 'demo-exports-')) : DEMO_WORKSPACE;
    try {
      const made = await makeExports(url, token, folder);
      for (const m of made) {
        const shown = path.relative(process.cwd(), m.path);
        console.log(`${m.environment}: ${m.flags} flags, ${m.strategies} strategies, ${formatSize(m.bytes)} → ${shown}${m.changed ? '' : ' (unchanged)'}`);
      }
      if (check) {
        let same = true;
        for (const m of made) {
          const committed = path.join(DEMO_WORKSPACE, path.relative(folder, m.path));
          const equal = fs.existsSync(committed) && JSON.stringify(flagStates(committed)) === JSON.stringify(flagStates(m.path));
          console.log(`${path.relative(process.cwd(), committed)}: ${equal ? 'same flags and states as the seed' : 'DIFFERS from the seed: run npx tsx demo/make-exports.ts'}`);
          same &&= equal;
        }
        process.exitCode = same ? 0 : 1;
      }
    } finally {
      if (check) fs.rmSync(folder, { recursive: true, force: true });
    }
  } finally {
    await own?.stop();
  }
  console.log(`Done in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  });
}
