/** The editor host installed before use: the demo and every e2e test file call ensureHost() first. */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { withLock } from '../lock';
import type { Log } from '../log';

/**
 * `node tools/editor/install.mjs`: a no-op when the install is complete. Under a lock: the e2e test files run in
 * parallel, and two installs into the same folder at once would break each other. `browser: false` (the demo, which
 * only prints a URL) does not require Chromium. The install's output goes to `log` line by line (to this process's
 * own output without one). Answers whether it installed anything.
 */
export async function ensureHost(options: { browser?: boolean; log?: Log } = {}): Promise<{ installed: boolean }> {
  const args = [path.join(__dirname, 'install.mjs'), ...(options.browser === false ? ['--no-browser'] : [])];
  const log = options.log ?? ((line: string) => console.log(line));
  return withLock('host-install', 60 * 60_000, async () => {
    const lines: string[] = [];
    const code = await new Promise<number | string>((resolve, reject) => {
      // install.mjs bounds each of its steps (and kills what a step started); this waits for it.
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let partial = '';
      const take = (chunk: Buffer): void => {
        const text = partial + chunk.toString('utf8');
        const complete = text.split('\n');
        partial = complete.pop() ?? '';
        for (const line of complete) {
          lines.push(line);
          log(line);
        }
      };
      child.stdout.on('data', take);
      child.stderr.on('data', take);
      child.on('error', reject);
      child.on('close', (status, signal) => {
        if (partial) log(partial);
        resolve(status ?? signal ?? 'unknown');
      });
    });
    if (code !== 0) throw new Error(`node tools/editor/install.mjs failed (exit ${code}): ${lines.slice(-5).join(' | ')}`);
    return { installed: !lines.some((line) => line.includes('already complete')) };
  });
}
