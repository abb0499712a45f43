// The run() contract inside the editor: a suite module run in code-server's extension host, as
// @vscode/test-electron runs it in desktop VS Code.
import fs from 'node:fs';
import path from 'node:path';
import { openWorkbench, type EditorSession } from './browser';
import { startCodeServer, type LogFn, type StartCodeServerOptions } from './codeServer';

export interface RunSuiteOptions {
  extensionDevelopmentPath: string;
  /** Module exporting run(): Promise<void> (the @vscode/test-electron contract). */
  suitePath: string;
  workspace: string;
  env?: Record<string, string>;
  settings?: Record<string, unknown>;
  /** Whole run (server + browser + suite); default 120 s. */
  timeoutMs?: number;
  log?: LogFn;
}

interface RunSuiteResult {
  /** 0 when run() resolved, 1 when it rejected (VS Code's own convention). */
  exitCode: number;
  logs: string[];
  /** Wall time of the whole run. */
  ms: number;
  /** Phases: server up, suite finished (both from the start). */
  timings: { serverReadyMs: number; exitMs: number };
  /** The run's temp folder (already removed). */
  tmp: string;
}

/**
 * Runs `suitePath` (a module exporting run()) in code-server's extension host with
 * `extensionDevelopmentPath` loaded, like @vscode/test-electron does in desktop VS Code.
 * Resolves with the editor's exit code (0 = run() resolved, 1 = it rejected); throws on an
 * infrastructure failure or timeout. Everything is stopped and removed before it returns.
 */
export async function runSuiteInEditor(options: RunSuiteOptions): Promise<RunSuiteResult> {
  const t0 = Date.now();
  const timeoutMs = options.timeoutMs ?? 120_000;
  const logs: string[] = [];
  const log = (line: string): void => {
    // VS Code's console logger lines ("%c INFO ...") duplicate what codeAutomationLog delivers.
    if (/^\[page:\w+\] %c/.test(line)) return;
    logs.push(line);
    options.log?.(line);
  };
  for (const [what, p] of [
    ['extensionDevelopmentPath', options.extensionDevelopmentPath],
    ['suitePath', options.suitePath],
    ['workspace', options.workspace],
  ] as const) {
    if (!fs.existsSync(p)) throw new Error(`${what} not found: ${p}`);
  }

  const serverOpts: StartCodeServerOptions = {
    workspace: options.workspace,
    extensionDevelopmentPath: options.extensionDevelopmentPath,
    timeoutMs: Math.min(timeoutMs, 30_000),
    log: (line) => log(line),
  };
  if (options.env) serverOpts.env = options.env;
  if (options.settings) serverOpts.settings = options.settings;
  const server = await startCodeServer(serverOpts);
  const serverReadyMs = Date.now() - t0;

  let session: EditorSession | undefined;
  let exitMs = 0;
  try {
    let resolveExit: (code: number) => void = () => {};
    const exited = new Promise<number>((resolve) => (resolveExit = resolve));
    const remaining = (): number => Math.max(1000, timeoutMs - (Date.now() - t0));
    session = await openWorkbench(server, {
      extensionTestsPath: path.resolve(options.suitePath),
      waitForWorkbench: false,
      timeoutMs: remaining(),
      log: (line) => log(line),
      beforeNavigate: async (page) => {
        // Must be in place before the workbench loads, or the run can never report back.
        await page.exposeFunction('codeAutomationLog', (level: unknown, message: unknown) => {
          log(`[vscode:${String(level)}] ${String(message)}`);
        });
        await page.exposeFunction('codeAutomationExit', (code: unknown) => {
          resolveExit(typeof code === 'number' ? code : Number(code));
        });
      },
    });
    const page = session.page;
    const exitCode = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`suite did not finish within ${timeoutMs} ms`)), remaining());
      page.once('crash', () => {
        clearTimeout(timer);
        reject(new Error('the workbench page crashed'));
      });
      void exited.then((code) => {
        clearTimeout(timer);
        resolve(code);
      });
    }).catch((err: unknown) => {
      const tail = logs.slice(-40).join('\n');
      throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- last log lines ---\n${tail}`);
    });
    exitMs = Date.now() - t0;
    log(`[e2e-host] suite exited with code ${exitCode} after ${exitMs} ms`);
    return { exitCode, logs, ms: Date.now() - t0, timings: { serverReadyMs, exitMs }, tmp: server.tmp };
  } finally {
    if (session) await session.stop();
    else await server.stop();
  }
}
