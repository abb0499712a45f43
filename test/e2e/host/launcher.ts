// Runs a real VS Code (code-server 4.100.3 = VS Code 1.100.3 in the browser) driven by Debian's
// Chromium through playwright-core. See test/e2e/README.md.
//
// Everything a run starts lives under one temp folder (`tmp`): code-server's user-data, extensions,
// XDG dirs and TMPDIR, Chromium's HOME, profile, TMPDIR and playwright's artifacts dir. Processes are
// started in their own process groups and stopped by pid/pgid (plus a sweep for any process that still
// carries the run's marker env var), even when a step fails; stop() then removes `tmp`.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** test/e2e/host: where package.json and node_modules (code-server, playwright-core) live. */
export const HOST_DIR = __dirname;
const hostRequire = createRequire(path.join(HOST_DIR, 'package.json'));

export const CODE_SERVER_ENTRY = path.join(HOST_DIR, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
export const CHROMIUM_PATH = process.env.E2E_CHROMIUM || '/usr/bin/chromium';
/** Env var set on every process a run starts; its value is the run's temp folder. */
export const RUN_MARKER_ENV = 'UNLEASH_E2E_HOST_RUN';

const INSTALL_HINT = 'run `node test/e2e/host/install.mjs` first';

type Playwright = typeof import('playwright-core');
let playwright: Playwright | undefined;
function loadPlaywright(): Playwright {
  if (!playwright) {
    try {
      playwright = hostRequire('playwright-core') as Playwright;
    } catch (err) {
      throw new Error(`playwright-core is not installed in ${HOST_DIR}: ${INSTALL_HINT} (${String(err)})`);
    }
  }
  return playwright;
}

/** code-server alone (what the demo needs); Chromium is checked when a browser is opened (openWorkbench). */
function assertInstalled(): void {
  if (!fs.existsSync(CODE_SERVER_ENTRY)) throw new Error(`code-server is not installed in ${HOST_DIR}: ${INSTALL_HINT}`);
}

function assertChromium(): void {
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install chromium (or set E2E_CHROMIUM)`);
}

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

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

export interface OpenWorkbenchOptions {
  /** Overrides the server's extensionDevelopmentPath. */
  extensionDevelopmentPath?: string;
  /** Module exporting run(); makes the page run it in the extension host (see runSuiteInEditor). */
  extensionTestsPath?: string;
  /** Called with the page before navigation, e.g. to expose functions. */
  beforeNavigate?: (page: Page, context: BrowserContext) => Promise<void>;
  /** Wait until the workbench is drawn and the extension host launched (default true). */
  waitForWorkbench?: boolean;
  /** Default 60 s. */
  timeoutMs?: number;
  viewport?: { width: number; height: number };
  log?: LogFn;
}

export interface EditorSession {
  url: string;
  port: number;
  /** code-server's pid. */
  pid: number;
  /** Chromium's pid. */
  browserPid: number;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  tmp: string;
  server: CodeServer;
  /** Page console + code-server output seen so far. */
  logs: string[];
  /** ms from navigation to the workbench being drawn (0 if not awaited). */
  workbenchMs: number;
  /** ms from navigation to code-server reporting the extension host launched (0 if not awaited). */
  extensionHostMs: number;
  /** Stops Chromium and code-server (all by pid), then removes `tmp`. Idempotent. */
  stop(): Promise<void>;
}

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

export interface RunSuiteResult {
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

// ---------------------------------------------------------------------------------------------
// Process bookkeeping: everything we start is killed by pid, even on failure or process exit.
// ---------------------------------------------------------------------------------------------

interface Tracked {
  pid: number;
  marker: string;
}
const live = new Set<Tracked>();
const liveTmps = new Set<string>();
let hooksInstalled = false;

function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', () => {
    for (const t of live) killTreeSync(t, 'SIGKILL');
    for (const dir of liveTmps) fs.rmSync(dir, { recursive: true, force: true });
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const handler = (): void => {
      // Only intervene while something is running; otherwise keep Node's default behaviour.
      if (live.size === 0 && liveTmps.size === 0) {
        process.removeListener(sig, handler);
        process.kill(process.pid, sig);
        return;
      }
      process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1));
    };
    process.on(sig, handler);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Pids of processes whose environment carries RUN_MARKER_ENV=<marker> (children that left the group). */
function pidsWithMarker(marker: string): number[] {
  const needle = Buffer.from(`${RUN_MARKER_ENV}=${marker}\0`);
  const out: number[] = [];
  let entries: string[] = [];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return out;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    try {
      const env = fs.readFileSync(`/proc/${name}/environ`);
      if (env.includes(needle)) out.push(pid);
    } catch {
      // gone or not ours
    }
  }
  return out;
}

/** Live processes started for the run whose temp folder is `tmp` (empty after stop()). */
export function processesOfRun(tmp: string): number[] {
  return pidsWithMarker(tmp).filter((pid) => {
    try {
      // field 3 of /proc/<pid>/stat is the state; Z = zombie waiting for init to reap it
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
    } catch {
      return false;
    }
  });
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

function killTreeSync(t: Tracked, sig: NodeJS.Signals): void {
  signal(-t.pid, sig); // the process group (spawned detached => pgid == pid)
  signal(t.pid, sig);
  for (const pid of pidsWithMarker(t.marker)) signal(pid, sig);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function killTree(t: Tracked, graceMs = 3000): Promise<void> {
  killTreeSync(t, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!alive(t.pid) && pidsWithMarker(t.marker).length === 0) break;
    await sleep(50);
  }
  killTreeSync(t, 'SIGKILL');
  const hard = Date.now() + 2000;
  while (Date.now() < hard && pidsWithMarker(t.marker).length > 0) await sleep(50);
  live.delete(t);
}

function spawnTracked(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  marker: string,
  onLine: (line: string) => void,
): { child: ChildProcess; tracked: Tracked } {
  installExitHooks();
  const child = spawn(cmd, args, {
    env: { ...env, [RUN_MARKER_ENV]: marker },
    detached: true, // own process group, so the whole tree can be signalled by pgid
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`failed to start ${cmd}`);
  const tracked: Tracked = { pid: child.pid, marker };
  live.add(tracked);
  for (const stream of [child.stdout, child.stderr]) {
    let buf = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      buf += chunk;
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        onLine(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    });
    stream?.on('end', () => {
      if (buf) onLine(buf);
      buf = '';
    });
  }
  return { child, tracked };
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

// ---------------------------------------------------------------------------------------------
// code-server
// ---------------------------------------------------------------------------------------------

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
  liveTmps.add(dirs.tmp);
  installExitHooks();
  const logs: string[] = [];
  let tracked: Tracked | undefined;
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    if (tracked) await killTree(tracked);
    if (!process.env.E2E_KEEP_TMP) fs.rmSync(dirs.tmp, { recursive: true, force: true });
    liveTmps.delete(dirs.tmp);
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

// ---------------------------------------------------------------------------------------------
// Chromium + workbench
// ---------------------------------------------------------------------------------------------

/** Flags for Debian's Chromium on this closed network (see test/e2e/README.md). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--disable-extensions',
  '--disable-default-apps',
  '--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication',
  '--disable-breakpad',
  '--metrics-recording-only',
  '--password-store=basic',
  '--use-mock-keychain',
  '--mute-audio',
];

interface ChromiumProcess {
  pid: number;
  browser: Browser;
  stop(): Promise<void>;
}

async function launchChromium(tmp: string, log: LogFn | undefined, timeoutMs: number): Promise<ChromiumProcess> {
  assertChromium();
  const { chromium } = loadPlaywright();
  const root = path.join(tmp, 'chromium');
  const home = path.join(root, 'home');
  const profile = path.join(root, 'profile');
  const chromeTmp = path.join(root, 'tmp');
  const artifacts = path.join(root, 'playwright-artifacts');
  for (const d of [home, profile, chromeTmp, artifacts]) fs.mkdirSync(d, { recursive: true });

  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TMPDIR: chromeTmp,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    LANG: process.env.LANG ?? 'C.UTF-8',
  };
  let onEndpoint: (ws: string) => void = () => {};
  const endpoint = new Promise<string>((resolve) => (onEndpoint = resolve));
  const lines: string[] = [];
  const { child, tracked } = spawnTracked(
    CHROMIUM_PATH,
    [...CHROMIUM_ARGS, `--user-data-dir=${profile}`, '--remote-debugging-port=0', '--window-size=1400,900', 'about:blank'],
    env,
    tmp,
    (line) => {
      lines.push(line);
      if (process.env.E2E_DEBUG) log?.(`[chromium] ${line}`);
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(line);
      if (m?.[1]) onEndpoint(m[1]);
    },
  );
  let browser: Browser | undefined;
  const stop = async (): Promise<void> => {
    if (browser) await browser.close().catch(() => undefined);
    await killTree(tracked, 2000);
  };
  try {
    const ws = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Chromium did not start in ${timeoutMs} ms:\n${lines.join('\n')}`)), timeoutMs);
      child.once('exit', (code, sig) => {
        clearTimeout(timer);
        reject(new Error(`Chromium exited early (${code ?? sig}):\n${lines.join('\n')}`));
      });
      void endpoint.then((e) => {
        clearTimeout(timer);
        resolve(e);
      });
    });
    browser = await chromium.connectOverCDP(ws, { artifactsDir: artifacts, timeout: timeoutMs });
    return { pid: tracked.pid, browser, stop };
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

/** Waits until the workbench is drawn (status bar and activity bar laid out). */
export async function waitForWorkbench(page: Page, timeoutMs = 60_000): Promise<void> {
  await page.waitForSelector('.monaco-workbench .part.statusbar', { state: 'visible', timeout: timeoutMs });
  await page.waitForSelector('.monaco-workbench .part.activitybar, .monaco-workbench .part.sidebar', {
    state: 'visible',
    timeout: timeoutMs,
  });
}

async function waitForLogLine(logs: string[], from: number, re: RegExp, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (let i = from; i < logs.length; i++) if (re.test(logs[i] ?? '')) return;
    if (Date.now() > deadline) throw new Error(`no log line matching ${re} within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** Opens Chromium on the server's workbench. The returned session's stop() stops both. */
export async function openWorkbench(server: CodeServer, options: OpenWorkbenchOptions = {}): Promise<EditorSession> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const logs: string[] = server.logs;
  const log = (line: string): void => {
    logs.push(line);
    options.log?.(line);
  };
  let chrome: ChromiumProcess | undefined;
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    try {
      if (chrome) await chrome.stop();
    } finally {
      await server.stop();
    }
  };
  try {
    chrome = await launchChromium(server.tmp, options.log, timeoutMs);
    const context = await chrome.browser.newContext({ viewport: options.viewport ?? { width: 1400, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(timeoutMs);
    page.on('console', (msg) => log(`[page:${msg.type()}] ${msg.text()}`));
    page.on('pageerror', (err) => log(`[page:error] ${err.message}`));
    page.on('requestfailed', (req) => log(`[page:requestfailed] ${req.url()} ${req.failure()?.errorText ?? ''}`));
    if (options.beforeNavigate) await options.beforeNavigate(page, context);

    const url = workbenchUrl(server, {
      extensionDevelopmentPath: options.extensionDevelopmentPath ?? server.extensionDevelopmentPath,
      extensionTestsPath: options.extensionTestsPath,
    });
    const logsBefore = server.logs.length;
    const t0 = Date.now();
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
    let workbenchMs = 0;
    let extensionHostMs = 0;
    if (options.waitForWorkbench !== false) {
      await waitForWorkbench(page, timeoutMs);
      workbenchMs = Date.now() - t0;
      await waitForLogLine(server.logs, logsBefore, /Launched Extension Host Process/, timeoutMs);
      extensionHostMs = Date.now() - t0;
    }
    return {
      url,
      port: server.port,
      pid: server.pid,
      browserPid: chrome.pid,
      browser: chrome.browser,
      context,
      page,
      tmp: server.tmp,
      server,
      logs,
      workbenchMs,
      extensionHostMs,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// The run() contract inside the editor
// ---------------------------------------------------------------------------------------------

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
