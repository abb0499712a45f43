// Debian's Chromium, driven through playwright-core, on a code-server workbench. Chromium's HOME, profile, TMPDIR
// and playwright's artifacts dir live in the run's temp folder; Chromium is stopped by pid with its process tree.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { workbenchUrl, type CodeServer, type LogFn } from './codeServer';
import { HOST_DIR, INSTALL_HINT } from './hostDir';
import { killTree, spawnTracked } from './processes';

const CHROMIUM_PATH = process.env.E2E_CHROMIUM || '/usr/bin/chromium';

const hostRequire = createRequire(path.join(HOST_DIR, 'package.json'));
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

function assertChromium(): void {
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install chromium (or set E2E_CHROMIUM)`);
}

interface OpenWorkbenchOptions {
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

/** Flags for Debian's Chromium on this closed network (see test/e2e/README.md). */
const CHROMIUM_ARGS = [
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

/** Waits until the workbench is drawn (status bar and activity bar laid out). */
async function waitForWorkbench(page: Page, timeoutMs = 60_000): Promise<void> {
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
