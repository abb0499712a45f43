/**
 * `npm run demo` on a machine without Chromium: it only prints a URL for the user's own browser, so it must start,
 * print that URL (which answers), and stop on Ctrl+C. Chromium's absence is simulated with E2E_CHROMIUM pointing
 * nowhere (the host's install.mjs and browser.ts both read it).
 *
 *   node --import tsx --test test/e2e/demo.test.ts
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../../tools/vsix';

/** Resolves with the output so far once `pattern` matches it; rejects after `ms` or when the process ends first. */
function waitForOutput(out: { text: string }, child: ReturnType<typeof spawn>, pattern: RegExp, ms: number): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const match = out.text.match(pattern);
      if (match) done(() => resolve(match));
    };
    const timer = setTimeout(() => done(() => reject(new Error(`no ${pattern} in ${ms} ms; output:\n${out.text}`))), ms);
    const onExit = (code: number | null): void => done(() => reject(new Error(`the demo exited (${code}) first; output:\n${out.text}`)));
    const done = (then: () => void): void => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.off('exit', onExit);
      then();
    };
    child.stdout?.on('data', check);
    child.on('exit', onExit);
    check();
  });
}

test('npm run demo without Chromium prints its URL, which answers, and stops on Ctrl+C', { timeout: 400_000 }, async (t) => {
  const out = { text: '' };
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'demo', 'run.ts')], {
    cwd: ROOT,
    env: { ...process.env, E2E_CHROMIUM: path.join(ROOT, 'out', 'no-such-chromium') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out.text += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out.text += chunk));
  let exited = false;
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => { exited = true; resolve(code); }));
  try {
    const [, url] = await waitForOutput(out, child, /Open: +(http:\/\/127\.0\.0\.1:\d+\/\S*)\n/, 360_000);
    assert.ok(url);
    assert.doesNotMatch(out.text, /chromium/i, 'Chromium is neither required nor mentioned');
    assert.match(out.text, /expand the project default, then\s+new-checkout-flow → development → Internal and beta users → Segments/);
    const answer = await fetch(url, { signal: AbortSignal.timeout(30_000) });
    assert.equal(answer.status, 200, `${url} answers`);
    t.diagnostic(`the demo printed ${url}`);

    child.kill('SIGINT');
    const code = await Promise.race([exit, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 60_000).unref())]);
    // 130 (128 + SIGINT) when the host's own signal hook ends the process after stopping code-server by pid.
    assert.ok(code === 0 || code === 130, `stopped on Ctrl+C (exit ${String(code)}); output:\n${out.text}`);
    assert.match(out.text, /Stopping the demo \(code-server \d+\) by pid…\nStopped\./);
  } finally {
    // The demo stops code-server by pid on SIGTERM; only if it does not end is it killed.
    if (!exited) {
      child.kill('SIGTERM');
      await Promise.race([exit, new Promise((resolve) => setTimeout(resolve, 30_000).unref())]);
      if (!exited) child.kill('SIGKILL');
    }
  }
});
