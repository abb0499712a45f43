/**
 * `npm run demo`: the extension, packaged as it ships, in a real VS Code (code-server 4.100.3) on a fresh copy of
 * demo/workspace — sample code in TypeScript, Python, Go and YAML that uses the seeded flag names, and export files
 * in `.unleash/` so that the Flags view and hovers work with no server (offline mode). Prints the URL to open.
 *
 *   npm run demo                      offline mode, from demo/workspace/.unleash/*.json
 *   npm run demo -- --live            also starts a real Unleash 7.5.1 with the seed data on 127.0.0.1 (4242 when
 *                                     free) and connects the extension to it (setting + UNLEASH_API_TOKEN)
 *   npm run demo -- --package         repackage even when dist/*.vsix is current
 *
 * Ctrl+C stops everything it started, by pid (code-server and, with --live, Unleash and PostgreSQL), and removes
 * the temporary folders. The Debian packages it needs (ripgrep and libkrb5-dev for code-server's install, postgresql
 * for --live; not Chromium: the demo is opened in your own browser) are installed when missing, or named with the
 * command to run (scripts/debianPackages.mjs).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEMO_WORKSPACE, copyDemoWorkspace } from '../tools/demoWorkspace';
import { ensureHost } from '../tools/editor/ensureHost';
import { seconds, type Log } from '../tools/log';
import { ROOT, VSIX_PATH, ensureVsix, vsixStaleness } from '../tools/vsix';
import type { CodeServer } from '../tools/editor/codeServer';
import { ensurePackages } from '../scripts/debianPackages.mjs';

export interface DemoOptions {
  /** Start a real, seeded Unleash and connect to it (else offline mode on the export files). */
  live?: boolean;
  /** Repackage even when the .vsix is current. */
  forcePackage?: boolean;
  log?: Log;
}

export interface Demo {
  /** The URL to open: the workbench on the demo workspace. */
  url: string;
  server: CodeServer;
  /** The fresh copy of demo/workspace that is open. */
  workspace: string;
  /** With --live: the server the extension reads. */
  unleash?: { url: string; adminToken: string; admin: { username: string; password: string } };
  timings: { packageMs: number; unleashMs: number; codeServerMs: number; totalMs: number };
  /** Stops code-server (and Unleash with --live) by pid and removes the temporary folders. Idempotent. */
  stop(): Promise<void>;
}

export async function startDemo(options: DemoOptions = {}): Promise<Demo> {
  const log = options.log ?? ((line: string) => console.log(line));
  const t0 = Date.now();
  if (!fs.existsSync(path.join(DEMO_WORKSPACE, '.unleash', 'development.json'))) {
    throw new Error('demo/workspace/.unleash/development.json is missing: run npx tsx demo/make-exports.ts');
  }

  const problem = options.live ? ensurePackages(['live'], { log }) : undefined;
  if (problem) throw new Error(problem);
  log('Installing the e2e host if needed (code-server 4.100.3; ~1.5 min the first time)…');
  await ensureHost({ browser: false });
  const host = await import('../tools/editor/codeServer');

  if (!options.forcePackage && !vsixStaleness()) log(`The packaged extension ${path.relative(ROOT, VSIX_PATH)} is current.`);
  const vsix = await ensureVsix(log, { force: options.forcePackage });
  const packageMs = vsix.ms;

  const stops: Array<() => Promise<void>> = [];
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    for (const fn of stops.reverse()) await fn().catch((error: unknown) => log(`while stopping: ${String(error)}`));
  };

  try {
    const workspace = copyDemoWorkspace('unleash-demo-');
    // The host's and the harness's signal hooks end the process at once (after killing their processes by pid,
    // synchronously): the workspace copy goes in an exit hook too.
    const removeWorkspace = (): void => workspace.remove();
    process.on('exit', removeWorkspace);
    stops.push(async () => {
      process.off('exit', removeWorkspace);
      workspace.remove();
    });

    let unleashMs = 0;
    let unleash: Demo['unleash'];
    const settings: Record<string, unknown> = { 'editor.hover.delay': 300 };
    const env: Record<string, string> = { UNLEASH_API_TOKEN: '' };
    if (options.live) {
      log('Starting a real Unleash 7.5.1 with the seed data (PostgreSQL + unleash-server on 127.0.0.1)…');
      const t1 = Date.now();
      const { launch } = await import('../tools/unleash');
      const real = await launch({ seed: true, preferredPorts: { unleash: 4242, postgres: 55432 } });
      stops.push(() => real.stop());
      unleashMs = Date.now() - t1;
      unleash = { url: real.url, adminToken: real.adminToken, admin: real.admin };
      settings['unleash.serverUrl'] = real.url;
      env.UNLEASH_API_TOKEN = real.adminToken;
    }

    log('Starting code-server with the packaged extension installed…');
    const t2 = Date.now();
    const server = await host.startCodeServer({ vsixPath: vsix.path, workspace: workspace.dir, settings, env });
    stops.push(() => server.stop());
    const codeServerMs = Date.now() - t2;
    const url = host.workbenchUrl(server);
    return {
      url,
      server,
      workspace: workspace.dir,
      unleash,
      timings: { packageMs, unleashMs, codeServerMs, totalMs: Date.now() - t0 },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const unknown = argv.filter((arg) => !['--live', '--package'].includes(arg));
  if (unknown.length) throw new Error(`Unknown option ${unknown.join(' ')}: use --live and/or --package.`);
  const demo = await startDemo({ live: argv.includes('--live'), forcePackage: argv.includes('--package') });
  let stopping = false;
  const onSignal = (): void => {
    if (stopping) return;
    stopping = true;
    const pids = [`code-server ${demo.server.pid}`];
    if (demo.unleash) pids.push('Unleash and PostgreSQL');
    console.log(`\nStopping the demo (${pids.join(', ')}) by pid…`);
    process.on('exit', () => console.log('Stopped.'));
    void demo.stop().then(() => process.exit(0));
  };
  // First in line; the host's and the harness's own hooks then kill what they started by pid and end the process.
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.prependListener(sig, onSignal);

  const t = demo.timings;
  const lines = [
    '',
    `Unleash Feature Flags demo is running (${demo.unleash ? 'live: connected to a real Unleash' : 'offline mode: export files, no server'}).`,
    '',
    `  Open:       ${demo.url}`,
    `  Workspace:  ${demo.workspace} (a fresh copy of demo/workspace)`,
  ];
  if (demo.unleash) {
    lines.push(
      `  Unleash:    ${demo.unleash.url} (web UI login ${demo.unleash.admin.username} / ${demo.unleash.admin.password})`,
      `  Token:      ${demo.unleash.adminToken} (passed as UNLEASH_API_TOKEN)`,
    );
  }
  lines.push(
    '',
    '  Try: the Unleash icon in the activity bar opens the Flags view; expand the project default, then',
    '       new-checkout-flow → development → Internal and beta users → Segments. Open src/checkout.ts and rest',
    '       the mouse on a flag name (and on the typo new-chekout-flow);',
    `       F1 → "Unleash: Check Tag…" → team:payments${demo.unleash ? '; F1 → "Unleash: Export Environment…"' : ''}.`,
    '',
    `  Ready in ${seconds(t.totalMs)} (package ${seconds(t.packageMs)}${demo.unleash ? `, Unleash ${seconds(t.unleashMs)}` : ''}, code-server ${seconds(t.codeServerMs)}).`,
    `  code-server pid ${demo.server.pid}, listening on 127.0.0.1:${demo.server.port} only.`,
    '  From another machine: ssh -L <port>:127.0.0.1:<port> this-host, then open the URL with that port.',
    '',
    '  Press Ctrl+C to stop everything.',
  );
  console.log(lines.join('\n'));
  await new Promise<never>(() => undefined);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
