/**
 * Keeps a filled real Unleash up for hand experiments (curl, one-off scripts), until Ctrl-C or SIGTERM:
 *
 *   npx tsx bench/real/serve.ts [--flags 10000] [--one-project]   # UNLEASH_CONTRACT_SERVER=8.2.0: the other generation
 *
 * Writes `{url, token, version, flags}` to bench/results/real-serve-<version>.json (git-ignored; the token is a
 * throw-away admin token of a loopback server) and stops the server by its pid on exit.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startFilled } from './server';

async function main(): Promise<void> {
  const at = process.argv.indexOf('--flags');
  const flags = at > 0 ? Number(process.argv[at + 1]) : 10_000;
  const filled = await startFilled(flags, (line) => console.log(line), process.argv.includes('--one-project') ? 'one-project' : 'six-projects');
  const file = path.resolve(__dirname, '..', 'results', `real-serve-${filled.version}.json`);
  fs.writeFileSync(file, JSON.stringify({ url: filled.unleash.url, token: filled.unleash.adminToken, version: filled.version, flags }, null, 2));
  console.log(`serving ${flags} flags on ${filled.unleash.url} (unleash-server ${filled.version}); details in ${path.relative(process.cwd(), file)}`);
  const stop = async (): Promise<void> => {
    await filled.unleash.stop();
    fs.rmSync(file, { force: true });
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  setInterval(() => undefined, 1 << 30);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
