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
 *
 * It prints one line per step with the time it took, then the URL; what the steps themselves print (the editor's
 * install, the build, the servers) goes to out/demo.log, whose last lines are shown when a step fails.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEMO_WORKSPACE, copyDemoWorkspace } from '../tools/demoWorkspace';
import { ensureHost } from '../tools/editor/ensureHost';
import { seconds, type Log } from '../tools/log';
import { ROOT, VSIX_PATH, ensureVsix, vsixStaleness } from '../tools/vsix';
import type { CodeServer } from '../tools/editor/codeServer';
import { ensurePackages, stepRunner } from '../scripts/debianPackages.mjs';

export interface DemoOptions {
  /** Start a real, seeded Unleash and connect to it (else offline mode on the export files). */
  live?: boolean;
  /** Repackage even when the .vsix is current. */
  forcePackage?: boolean;
  /** The steps' own output: installs, builds, servers (npm run demo writes it to out/demo.log). */
  log?: Log;
  /** One line per step when it is done, with its measured time (default: into `log`). */
  step?: Log;
  /** A file descriptor for the output of programs run directly (apt-get), beside `log` (default: this process's). */
  output?: number;
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

/** A step that failed: which one, after how long. */
export class DemoStepError extends Error {}

export async function startDemo(options: DemoOptions = {}): Promise<Demo> {
  const log = options.log ?? ((line: string) => console.log(line));
  const stepLine = options.step ?? log;
  const t0 = Date.now();
  /** Runs one step, then says what it did and how long it took. */
  const step = async <T>(name: string, work: () => Promise<T>, done: (value: T) => string): Promise<T> => {
    const started = Date.now();
    log(`── ${name}`);
    try {
      const value = await work();
      stepLine(`✔ ${done(value)} (${seconds(Date.now() - started)})`);
      return value;
    } catch (error) {
      throw new DemoStepError(`${name} failed after ${seconds(Date.now() - started)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  if (!fs.existsSync(path.join(DEMO_WORKSPACE, '.unleash', 'development.json'))) {
    throw new Error('demo/workspace/.unleash/development.json is missing: run npx tsx demo/make-exports.ts');
  }

  // The editor host's install checks its own Debian packages (install.mjs); --live needs PostgreSQL.
  if (options.live) {
    await step(
      'Debian packages for a real Unleash',
      async () => {
        const problem = ensurePackages(['live'], { log, run: stepRunner(options.output ?? 'inherit') });
        if (problem) throw new Error(problem);
      },
      () => 'PostgreSQL is installed',
    );
  }
  await step(
    'The editor host (code-server 4.100.3)',
    () => ensureHost({ browser: false, log }),
    ({ installed }) => `code-server 4.100.3 ${installed ? 'installed into tools/editor/' : 'is installed'}`,
  );
  const codeServer = await import('../tools/editor/codeServer');

  const stale = options.forcePackage ? 'asked to repackage' : vsixStaleness();
  const vsix = await step(
    'The packaged extension',
    () => ensureVsix(log, { force: options.forcePackage }),
    () => `${path.relative(ROOT, VSIX_PATH)} ${stale ? `packaged (${stale})` : 'is current'}`,
  );
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
      const t1 = Date.now();
      const real = await step(
        'A real Unleash 7.5.1 with the seed data (PostgreSQL + unleash-server on 127.0.0.1)',
        async () => {
          const { launch } = await import('../tools/unleash');
          return launch({ seed: true, preferredPorts: { unleash: 4242, postgres: 55432 }, log });
        },
        (started) => `Unleash 7.5.1 seeded and listening on ${started.url}`,
      );
      stops.push(() => real.stop());
      unleashMs = Date.now() - t1;
      unleash = { url: real.url, adminToken: real.adminToken, admin: real.admin };
      settings['unleash.serverUrl'] = real.url;
      env.UNLEASH_API_TOKEN = real.adminToken;
    }

    const t2 = Date.now();
    const server = await step(
      'code-server with the packaged extension installed',
      () => codeServer.startCodeServer({ vsixPath: vsix.path, workspace: workspace.dir, settings, env, log }),
      (started) => `code-server started with the packaged extension (pid ${started.pid})`,
    );
    stops.push(() => server.stop());
    const codeServerMs = Date.now() - t2;
    const url = codeServer.workbenchUrl(server);
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

/** Where npm run demo writes what its steps print (installs, builds, servers). */
const LOG_FILE = path.join(ROOT, 'out', 'demo.log');

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const unknown = argv.filter((arg) => !['--live', '--package'].includes(arg));
  if (unknown.length) throw new Error(`Unknown option ${unknown.join(' ')}: use --live and/or --package.`);
  fs.mkdirSync(path.dirname(LOG_FILE), { recursive: true });
  const output = fs.openSync(LOG_FILE, 'w');
  const toLog = (line: string): void => void fs.writeSync(output, `${line}\n`);
  console.log(`Starting the demo; what each step prints goes to ${path.relative(process.cwd(), LOG_FILE)}.`);
  let demo: Demo;
  try {
    demo = await startDemo({ live: argv.includes('--live'), forcePackage: argv.includes('--package'), log: toLog, step: (line) => console.log(line), output });
  } catch (error) {
    const tail = fs.readFileSync(LOG_FILE, 'utf8').trimEnd().split('\n').slice(-20);
    console.log(`✖ ${error instanceof Error ? error.message : String(error)}\n\nThe last lines of ${LOG_FILE}:\n${tail.join('\n')}`);
    process.exit(1);
  }
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
    `  Ready in ${seconds(t.totalMs)}.`,
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
