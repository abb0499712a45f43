// code-server 4.100.3 (VS Code 1.100.3 in the browser): a run's folders, env and settings, installing a .vsix,
// starting the server. Everything a run starts lives under one temp folder (`tmp`): user-data, extensions, XDG
// dirs and TMPDIR; stop() stops the server's process tree and then removes `tmp`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HOST_DIR, INSTALL_HINT } from './hostDir';
import { forgetAtExit, killTree, removeAtExit, spawnTracked, type Tracked } from './processes';

const CODE_SERVER_ENTRY = path.join(HOST_DIR, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

/** code-server alone (what the demo needs); Chromium is checked when a browser is opened (openWorkbench). */
function assertInstalled(): void {
  if (!fs.existsSync(CODE_SERVER_ENTRY)) throw new Error(`code-server is not installed in ${HOST_DIR}: ${INSTALL_HINT}`);
}

export type LogFn = (line: string) => void;

/** Folders that code-server uses; all inside one run's temp folder. */
export interface CodeServerDirs {
  /** The run's temp folder; removed by stop(). */
  tmp: string;
  userDataDir: string;
  extensionsDir: string;
  xdgConfigHome: string;
  xdgDataHome: string;
  xdgCacheHome: string;
  /** TMPDIR of code-server and everything it starts (extension host included). */
  tmpDir: string;
}

export interface StartCodeServerOptions {
  /** .vsix installed into the run's extensions dir before the server starts. */
  vsixPath?: string;
  /** Folder of an extension loaded in development mode (used by openWorkbench as the default). */
  extensionDevelopmentPath?: string;
  /** Folder opened in the workbench. */
  workspace: string;
  /** Extra env for code-server; it is inherited by the extension host (process.env there). */
  env?: Record<string, string>;
  /** Written to <user-data-dir>/User/settings.json (merged over a few quiet defaults) before start. */
  settings?: Record<string, unknown>;
  /**
   * Keep VS Code's workspace trust on (default false: `--disable-workspace-trust`, every folder trusted). With true,
   * the folder starts untrusted and the workbench asks whether to trust its authors, as for a user.
   */
  workspaceTrust?: boolean;
  /** Ready timeout; default 30 s. */
  timeoutMs?: number;
  log?: LogFn;
}

export interface CodeServer {
  url: string;
  port: number;
  pid: number;
  tmp: string;
  dirs: CodeServerDirs;
  workspace: string;
  extensionDevelopmentPath?: string;
  /** code-server stdout/stderr lines so far (includes the extension host's output). */
  logs: string[];
  /** Stops code-server and all its children, then removes `tmp`. Idempotent. */
  stop(): Promise<void>;
}

/** Env for code-server: ours, minus things that would change its behaviour, plus the caller's. */
function codeServerEnv(dirs: CodeServerDirs, extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (/^VSCODE_/.test(k)) continue; // e.g. VSCODE_IPC_HOOK_CLI would make code-server talk to another instance
    if (['NODE_OPTIONS', 'ELECTRON_RUN_AS_NODE', 'PORT', 'PASSWORD', 'HASHED_PASSWORD', 'GITHUB_TOKEN'].includes(k)) continue;
    if (k.startsWith('npm_')) continue;
    env[k] = v;
  }
  Object.assign(env, {
    // No extension gallery (open-vsx.org is unreachable here; lookups only cost time and log errors).
    EXTENSIONS_GALLERY: '{}',
    XDG_CONFIG_HOME: dirs.xdgConfigHome,
    XDG_DATA_HOME: dirs.xdgDataHome,
    XDG_CACHE_HOME: dirs.xdgCacheHome,
    TMPDIR: dirs.tmpDir,
  });
  Object.assign(env, extra ?? {});
  return env;
}

const DEFAULT_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
};

/** Creates a run's temp folder with all code-server dirs. */
export function createRunDirs(prefix = 'e2e-vscode-'): CodeServerDirs {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const dirs: CodeServerDirs = {
    tmp,
    userDataDir: path.join(tmp, 'user-data'),
    extensionsDir: path.join(tmp, 'extensions'),
    xdgConfigHome: path.join(tmp, 'xdg-config'),
    xdgDataHome: path.join(tmp, 'xdg-data'),
    xdgCacheHome: path.join(tmp, 'xdg-cache'),
    tmpDir: path.join(tmp, 'tmp'),
  };
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  return dirs;
}

function baseArgs(dirs: CodeServerDirs): string[] {
  return [
    '--user-data-dir', dirs.userDataDir,
    '--extensions-dir', dirs.extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
  ];
}

/** Installs a .vsix into `dirs.extensionsDir` (a separate code-server invocation). */
export async function installExtension(
  vsixPath: string,
  dirs: CodeServerDirs,
  options: { env?: Record<string, string>; timeoutMs?: number; log?: LogFn } = {},
): Promise<void> {
  assertInstalled();
  const vsix = path.resolve(vsixPath);
  if (!fs.existsSync(vsix)) throw new Error(`vsix not found: ${vsix}`);
  const lines: string[] = [];
  const { child, tracked } = spawnTracked(
    process.execPath,
    [CODE_SERVER_ENTRY, ...baseArgs(dirs), '--force', '--install-extension', vsix],
    codeServerEnv(dirs, options.env),
    dirs.tmp,
    (line) => {
      lines.push(line);
      options.log?.(`[install-extension] ${line}`);
    },
  );
  const timeoutMs = options.timeoutMs ?? 60_000;
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`--install-extension timed out after ${timeoutMs} ms`)), timeoutMs);
      child.on('error', reject);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    const failed = lines.some((l) => /Failed Installing Extensions/i.test(l));
    if (code !== 0 || failed) throw new Error(`installing ${vsix} failed (exit ${code}):\n${lines.join('\n')}`);
  } finally {
    await killTree(tracked);
  }
}

/** Starts code-server on a free 127.0.0.1 port in a fresh temp folder. */
export async function startCodeServer(options: StartCodeServerOptions): Promise<CodeServer> {
  assertInstalled();
  const dirs = createRunDirs();
  removeAtExit(dirs.tmp);
  const logs: string[] = [];
  let tracked: Tracked | undefined;
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    if (tracked) await killTree(tracked);
    if (!process.env.E2E_KEEP_TMP) fs.rmSync(dirs.tmp, { recursive: true, force: true });
    forgetAtExit(dirs.tmp);
  };

  try {
    const workspace = path.resolve(options.workspace);
    if (!fs.existsSync(workspace)) throw new Error(`workspace not found: ${workspace}`);

    const settingsFile = path.join(dirs.userDataDir, 'User', 'settings.json');
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    const trust = options.workspaceTrust === true ? { 'security.workspace.trust.enabled': true } : {};
    fs.writeFileSync(settingsFile, JSON.stringify({ ...DEFAULT_SETTINGS, ...trust, ...(options.settings ?? {}) }, null, 2));

    if (options.vsixPath) {
      const installOpts: { env?: Record<string, string>; log?: LogFn } = {};
      if (options.env) installOpts.env = options.env;
      if (options.log) installOpts.log = options.log;
      await installExtension(options.vsixPath, dirs, installOpts);
    }

    const timeoutMs = options.timeoutMs ?? 30_000;
    let onReady: (port: number) => void = () => {};
    const ready = new Promise<number>((resolve) => (onReady = resolve));
    const started = spawnTracked(
      process.execPath,
      [
        CODE_SERVER_ENTRY,
        ...baseArgs(dirs),
        '--auth', 'none',
        '--bind-addr', '127.0.0.1:0',
        ...(options.workspaceTrust === true ? [] : ['--disable-workspace-trust']),
        '--disable-getting-started-override',
        '--ignore-last-opened',
        workspace,
      ],
      codeServerEnv(dirs, options.env),
      dirs.tmp,
      (line) => {
        logs.push(line);
        options.log?.(`[code-server] ${line}`);
        const m = /HTTP server listening on https?:\/\/[^\s:]+:(\d+)/.exec(line);
        if (m) onReady(Number(m[1]));
      },
    );
    tracked = started.tracked;
    const child = started.child;

    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`code-server not ready after ${timeoutMs} ms:\n${logs.join('\n')}`)),
        timeoutMs,
      );
      child.once('exit', (code, sig) => {
        clearTimeout(timer);
        reject(new Error(`code-server exited early (${code ?? sig}):\n${logs.join('\n')}`));
      });
      child.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      void ready.then((p) => {
        clearTimeout(timer);
        resolve(p);
      });
    });

    const server: CodeServer = {
      url: `http://127.0.0.1:${port}/`,
      port,
      pid: tracked.pid,
      tmp: dirs.tmp,
      dirs,
      workspace,
      logs,
      stop,
    };
    if (options.extensionDevelopmentPath) server.extensionDevelopmentPath = path.resolve(options.extensionDevelopmentPath);
    return server;
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Builds the workbench URL: folder + optional extension-development/test payload. */
export function workbenchUrl(
  server: Pick<CodeServer, 'url' | 'port' | 'workspace'>,
  opts: { extensionDevelopmentPath?: string | undefined; extensionTestsPath?: string | undefined } = {},
): string {
  const authority = `127.0.0.1:${server.port}`;
  const remote = (p: string): string => `vscode-remote://${authority}${path.resolve(p)}`;
  const payload: [string, string][] = [];
  if (opts.extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(opts.extensionDevelopmentPath)]);
  if (opts.extensionTestsPath) payload.push(['extensionTestsPath', remote(opts.extensionTestsPath)]);
  const q = new URLSearchParams({ folder: server.workspace });
  if (payload.length) q.set('payload', JSON.stringify(payload));
  return `${server.url}?${q.toString()}`;
}
