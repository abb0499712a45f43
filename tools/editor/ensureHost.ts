/** The editor host installed before use: the demo and every e2e test file call ensureHost() first. */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { withLock } from '../lock';

/**
 * `node tools/editor/install.mjs`: a few ms when complete, ~1.5 min the first time. Under a lock: the e2e test files
 * run in parallel, and two installs into the same folder at once would break each other. `browser: false` (the
 * demo, which only prints a URL) does not require Chromium.
 */
export async function ensureHost(options: { browser?: boolean } = {}): Promise<void> {
  const args = [path.join(__dirname, 'install.mjs'), ...(options.browser === false ? ['--no-browser'] : [])];
  await withLock('host-install', 900_000, async () => {
    const install = spawnSync(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    if (install.status !== 0) throw new Error(`node tools/editor/install.mjs failed (exit ${install.status ?? install.signal})`);
  });
}
