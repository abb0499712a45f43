/**
 * Browser-level checks: what a person sees and clicks in a real VS Code (code-server 4.100.3 in Chromium) with the
 * packaged extension installed from dist/*.vsix. Asserts on the visible text of the page and saves screenshots.
 *
 *   1. against the real, seeded Unleash: the Unleash activity bar item → the Flags view → new-checkout-flow expanded
 *      down to its segments and a segment's constraint (tree-segments.png); a hover on a flag name in
 *      src/checkout.ts (hover.png); "Unleash: Check Tag…" typed in the command palette, answered `team:payments`,
 *      and its notification (check-tag.png);
 *   2. the demo (`npm run demo`, offline mode): its Flags view shows the flags of the export files and a hover works
 *      (demo-offline.png); the status bar says `offline: 2 export files`; the typo in src/checkout.ts is squiggled
 *      and listed in the Problems panel (problems.png);
 *   3. a real Unleash of its own, where new-checkout-flow was changed and evaluated: the hover's last change and usage
 *      (hover-history-usage.png); the production export written before the change, now stale, opened from the status
 *      bar in a diff editor (export-drift-diff.png); Compare Environments from the palette (compare-environments.png);
 *   4. an untrusted folder: workspace trust on, the user answers "No, I don't trust the authors": Restricted Mode, the
 *      offline tree and hover from the export files, and a server named in the user settings (a recording stand-in,
 *      a token in the environment) gets no request at all (restricted-mode.png).
 *
 * Screenshots go to docs/screenshots/ with UPDATE_SCREENSHOTS=1 (the README shows them), else to
 * out/e2e/screenshots/ (git-ignored), so that a CI run leaves the tree clean.
 *
 *   node --import tsx --test test/e2e/browser.test.ts        (E2E_VERBOSE=1 prints the editor's log)
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { before, test } from 'node:test';
import { useRealUnleash } from '../contract/env';
import { UnleashClient } from '../../src/api/client';
import { exportToFile } from '../../src/model/export/exportToFile';
import { E2E_SERVER_VERSION, startRealUnleash, SUITE_SEARCH_RATE_LIMIT } from '../../tools/unleash';
import { backendToken, changeCheckoutFlowInProduction, sendMetrics, waitForUsage } from '../../tools/unleash/activity';
import { SEED } from '../../tools/unleash/seed-data';
import { startFaultServer } from '../support/faultServer';
import * as host from '../../tools/editor/index';
import type { CodeServer, EditorSession as Session } from '../../tools/editor/index';
import { expand, hoverFlag, logger, noTooltip, openFlagsView, paletteCommand, quickOpen, shot, treeRow, treeRows, typoProblem, visibleRows, waitUntil } from './page';
import { copyDemoWorkspace } from '../../tools/demoWorkspace';
import { ensureHost } from '../../tools/editor/ensureHost';
import { seconds } from '../../tools/log';
import { ensureVsix } from '../../tools/vsix';

type Page = Session['page'];

const unleash = useRealUnleash();
const VIEWPORT = { width: 1280, height: 800 };
/** VS Code's side bar width in that window, before anyone drags it. */
const DEFAULT_SIDE_BAR = 300;
const verbose = Boolean(process.env.E2E_VERBOSE);
let vsixPath = '';

before(async () => {
  await ensureHost();
  vsixPath = (await ensureVsix((line) => console.log(line))).path;
}, { timeout: 600_000 });

// ------------------------------------------------------------------------------------------------ page helpers

/** Drags the sash between the side bar and the editor so that the side bar is `width` pixels wide. */
async function sideBarWidth(page: Page, width: number): Promise<void> {
  const box = await page.locator('.part.sidebar').boundingBox();
  assert.ok(box, 'the side bar is visible');
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width - 1, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 8 });
  await page.mouse.up();
  await page.mouse.move(box.x + width + 200, y);
}

/**
 * Each visible flag row (a row whose description has an environment strip: `d● p○`, `3 on, 5 off`) and whether
 * that strip is drawn whole: the whole description fits, or the strip ends left of the ellipsis VS Code draws at the
 * row's right edge (its width taken as 10 px); `all`: the whole description fits.
 */
async function stripsShown(page: Page): Promise<Array<{ label: string; row: string; whole: boolean; all: boolean }>> {
  interface Box {
    right: number;
  }
  interface El {
    querySelector(selector: string): El | null;
    textContent: string | null;
    firstChild: El | null;
    nodeType: number;
    getBoundingClientRect(): Box;
  }
  return page.locator('.part.sidebar .monaco-list-row').evaluateAll((rows: El[]) => {
    const doc = (globalThis as unknown as { document: { createRange(): { setStart(n: El, o: number): void; setEnd(n: El, o: number): void; getBoundingClientRect(): Box } } }).document;
    const out: Array<{ label: string; row: string; whole: boolean; all: boolean }> = [];
    for (const row of rows) {
      const label = row.querySelector('.label-name')?.textContent?.trim() ?? '';
      const description = row.querySelector('.label-description');
      const container = row.querySelector('.monaco-icon-label-container');
      let text = description?.firstChild ?? null;
      while (text && text.nodeType !== 3) text = text.firstChild;
      const full = text?.textContent ?? '';
      const strip = full.split(' · ')[0] ?? '';
      if (!text || !container || !/[●○]|\d+ on|\d+ off/.test(strip)) continue;
      // (No named function in here: the bundler would wrap it in a helper the page does not have.)
      const [fullRight = 0, stripRight = 0] = [full.length, strip.length].map((end) => {
        const range = doc.createRange();
        range.setStart(text as El, 0);
        range.setEnd(text as El, end);
        return range.getBoundingClientRect().right;
      });
      const edge = container.getBoundingClientRect().right;
      const whole = fullRight <= edge || stripRight <= edge - 10;
      out.push({ label, row: `${label}  ${full.trim()}`, whole, all: fullRight <= edge });
    }
    return out;
  });
}

/**
 * The hover's table cells (headers included) that take more than one line: none, when the table fits the hover.
 */
async function wrappedCells(page: Page): Promise<string[]> {
  interface El {
    textContent: string | null;
  }
  return page.locator('.monaco-hover table th, .monaco-hover table td').evaluateAll((cells: El[]) => {
    const doc = (globalThis as unknown as { document: { createRange(): { selectNodeContents(n: El): void; getClientRects(): ArrayLike<{ top: number; height: number }> } } }).document;
    return cells
      .filter((cell) => {
        const range = doc.createRange();
        range.selectNodeContents(cell);
        const tops = new Set(Array.from(range.getClientRects()).filter((r) => r.height > 0).map((r) => Math.round(r.top)));
        return tops.size > 1;
      })
      .map((cell) => (cell.textContent ?? '').trim());
  });
}

// ------------------------------------------------------------------------------------------------ the checks

test('in the browser, connected to the real Unleash: tree to a segment constraint, hover, Check Tag from the palette', { timeout: 300_000 }, async (t) => {
  const t0 = Date.now();
  const workspace = copyDemoWorkspace();
  const server = await host.startCodeServer({
    vsixPath,
    workspace: workspace.dir,
    settings: { 'unleash.serverUrl': unleash.current.url, 'editor.hover.delay': 300, 'remote.autoForwardPorts': false },
    env: { UNLEASH_API_TOKEN: unleash.current.adminToken },
    log: logger(),
  });
  let session: Session | undefined;
  try {
    session = await host.openWorkbench(server, { viewport: VIEWPORT, log: logger() });
    const page = session.page;
    t.diagnostic(`.vsix installed and code-server up in ${seconds(Date.now() - t0 - session.workbenchMs)}; workbench drawn in ${seconds(session.workbenchMs)}`);

    const t1 = Date.now();
    await openFlagsView(page, new URL(unleash.current.url).host);
    await quickOpen(page, 'src/checkout.ts');
    // The default side bar (300 px in this 1280 px window): every flag row shows each environment's state.
    const sideBar = await page.locator('.part.sidebar').boundingBox();
    assert.equal(Math.round(sideBar?.width ?? 0), DEFAULT_SIDE_BAR, 'the side bar has its default width');
    await expand(page, 'checkout');
    // Expanded again when its rows do not show: with two suites on the machine, a refresh of the view (the stages read
    // after the listing) was seen to leave `default` collapsed once in six runs.
    for (let attempt = 1; ; attempt++) {
      await expand(page, 'default');
      const shown = await treeRow(page, 'pricing-experiment')
        .waitFor({ state: 'visible', timeout: 15_000 })
        .then(() => true, () => false);
      if (shown) break;
      if (attempt === 3) throw new Error(`pricing-experiment never showed under default in ${attempt} attempts; the tree shows:\n${(await visibleRows(page)).join('\n')}`);
    }
    // The mouse off the rows: a hovered row shows its inline actions (Copy, Open in Unleash) over its description.
    await noTooltip(page);
    const strips = await stripsShown(page);
    assert.equal(strips.length, SEED.flags.filter((f) => !f.archived).length, `${JSON.stringify(strips)}\n${(await visibleRows(page)).join('\n')}`);
    const treePng300 = await shot(page, 'tree-default-width.png');
    assert.deepEqual(strips.filter((strip) => !strip.whole).map((strip) => strip.row), [], 'every flag row shows all its environments at 300 px');
    // The completed flag: the listing may still say `initial` (the server records that stage in the background, and
    // its search picks the later timestamp); once its details are read (expanding it) the row says the outcome, in view.
    await expand(page, SEED.completed.flag);
    await treeRow(page, SEED.completed.flag).locator('.label-description', { hasText: `· ${SEED.completed.status}` }).waitFor({ state: 'visible', timeout: 30_000 });
    await noTooltip(page);
    const completed = (await stripsShown(page)).find((strip) => strip.label === SEED.completed.flag);
    assert.deepEqual([completed?.row, completed?.all], [`${SEED.completed.flag}  d● p○ · ${SEED.completed.status}`, true]);
    // Collapsed again: its rows would push the ones the next checks read out of the (virtual) list.
    await treeRow(page, SEED.completed.flag).click();
    await treeRows(page, SEED.completed.flag, '[aria-expanded="false"]').first().waitFor({ state: 'visible', timeout: 10_000 });
    t.diagnostic(`at ${DEFAULT_SIDE_BAR} px every row shows every state: ${strips.map((strip) => strip.row).join(' | ')} → ${treePng300}`);
    await sideBarWidth(page, 760);
    for (const label of ['default', 'new-checkout-flow', 'development', 'Internal and beta users', 'Segments', 'internal-users']) {
      await expand(page, label);
    }
    await treeRow(page, 'userId ends with @example.com (case-insensitive)').waitFor({ state: 'visible' });
    await page.mouse.move(900, 700);
    const rows = await visibleRows(page);
    for (const expected of [
      'checkout  2 flags',
      `default  ${SEED.flags.filter((f) => f.project === 'default' && !f.archived).length} flags`,
      'new-checkout-flow  d● p○ · initial',
      'development  enabled · 2 strategies · never seen',
      'Internal and beta users  Gradual rollout: 50% of userId · 2 constraints · 2 segments · 2 variants',
      'tenantId is one of acme, globex',
      'Segments  2 segments',
      'internal-users  global · 1 constraint · Employees',
      'userId ends with @example.com (case-insensitive)',
      'beta-testers  global · 2 constraints · Tenants in the beta programme',
    ]) {
      assert.ok(rows.includes(expected), `the tree shows "${expected}"; it shows:\n${rows.join('\n')}`);
    }
    const treePng = await shot(page, 'tree-segments.png');
    t.diagnostic(`tree expanded to a segment's constraint in ${seconds(Date.now() - t1)} → ${treePng}`);

    const t2 = Date.now();
    // The hover at its default size, beside the default side bar.
    await sideBarWidth(page, DEFAULT_SIDE_BAR);
    const hoverText = await hoverFlag(page, "'new-checkout-flow'", 'Internal and beta users');
    assert.deepEqual(await wrappedCells(page), [], 'no header or cell of the hover table wraps');
    for (const expected of ['new-checkout-flow', 'release · project default', 'Environment', 'Last\u00a0seen', 'development', '●\u00a0enabled', 'production', '○\u00a0disabled', 'Staff e-mail addresses', 'team:payments']) {
      assert.ok(hoverText.includes(expected), `the hover shows "${expected}"; it shows:\n${hoverText}`);
    }
    const hoverPng = await shot(page, 'hover.png');
    t.diagnostic(`hover with strategies in ${seconds(Date.now() - t2)} → ${hoverPng}`);

    const t3 = Date.now();
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
    await paletteCommand(page, 'Unleash: Check Tag…');
    const widget = page.locator('.quick-input-widget');
    await widget.locator('.quick-input-title', { hasText: 'Unleash: Check Tag' }).waitFor({ state: 'visible' });
    await page.keyboard.type('team:payments');
    await widget.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Check this tag' }).waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
    const note = await host.waitForNotification(page, 'Tag team:payments exists', { timeoutMs: 30_000 });
    assert.equal(note, 'Tag team:payments exists (3 flags in the Flags view carry it).');
    await page.locator('.notifications-toasts .notification-toast', { hasText: 'Tag team:payments exists' }).locator('.monaco-button', { hasText: 'Show Flags' }).first().waitFor({ state: 'visible' });
    // The progress notification of the request goes away, and the toast's slide-in animation ends.
    await page.locator('.notifications-toasts .notification-toast', { hasText: 'Checking tag' }).waitFor({ state: 'hidden', timeout: 15_000 });
    await page.waitForTimeout(800);
    const tagPng = await shot(page, 'check-tag.png');
    t.diagnostic(`palette → Check Tag → "${note}" in ${seconds(Date.now() - t3)} → ${tagPng}`);
  } finally {
    const t4 = Date.now();
    if (session) await session.stop();
    else await server.stop();
    workspace.remove();
    t.diagnostic(`stopped in ${seconds(Date.now() - t4)}; whole check ${seconds(Date.now() - t0)}`);
  }
});

test('history, usage and exports (a real Unleash of its own, changed and evaluated): the hover, a stale export\'s diff, Compare Environments', { timeout: 400_000 }, async (t) => {
  const t0 = Date.now();
  // Its own server: the changes and metrics would alter what the other checks read of the shared one.
  const own = await startRealUnleash({ version: E2E_SERVER_VERSION, seed: true, searchRateLimit: SUITE_SEARCH_RATE_LIMIT });
  const workspace = copyDemoWorkspace();
  let server: CodeServer | undefined;
  let session: Session | undefined;
  try {
    // The workspace's exports, written as Export Environment writes them, before anything changes on the server.
    const client = new UnleashClient({ baseUrl: own.url, getToken: () => own.adminToken });
    for (const environment of ['development', 'production']) await exportToFile({ client, environment, scope: { kind: 'all' }, folder: workspace.dir });
    await client.close();
    await changeCheckoutFlowInProduction(own.url, own.adminToken);
    const production = await backendToken(own.url, own.adminToken, 'production');
    await sendMetrics(own.url, own.backendToken, 'checkout-web', { 'new-checkout-flow': { yes: 30, no: 12 } });
    await sendMetrics(own.url, production, 'checkout-api', { 'new-checkout-flow': { yes: 1100, no: 100 } });
    await waitForUsage(own.url, own.adminToken, 'new-checkout-flow', 1242);
    t.diagnostic(`server started, changed and evaluated in ${seconds(Date.now() - t0)}`);
    server = await host.startCodeServer({
      vsixPath,
      workspace: workspace.dir,
      settings: { 'unleash.serverUrl': own.url, 'editor.hover.delay': 300, 'remote.autoForwardPorts': false },
      env: { UNLEASH_API_TOKEN: own.adminToken },
      log: logger(),
    });
    session = await host.openWorkbench(server, { viewport: VIEWPORT, log: logger() });
    const page = session.page;
    await openFlagsView(page, new URL(own.url).host);
    await quickOpen(page, 'src/checkout.ts');

    // The hover: the last change (production enabled, by admin) and the usage of the last 24 hours.
    const hoverText = await hoverFlag(page, "'new-checkout-flow'", 'Usage, last 24 h');
    for (const expected of ['Last change: enabled in production · admin', 'Usage, last 24 h: production 1,200 (1,100 yes · 100 no) · development 42 (30 yes · 12 no)']) {
      assert.ok(hoverText.includes(expected), `the hover shows "${expected}"; it shows:\n${hoverText}`);
    }
    t.diagnostic(`hover with history and usage → ${await shot(page, 'hover-history-usage.png')}`);

    // .unleash/production.json was exported before the change: it is out of date.
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
    const status = page.locator('.statusbar-item', { hasText: 'production.json out of date' }).first();
    await status.waitFor({ state: 'visible', timeout: 30_000 });
    await status.click();
    await page.locator('.monaco-diff-editor').first().waitFor({ state: 'visible', timeout: 60_000 });
    const tab = page.locator('.tabs-container .tab.active').first();
    assert.match(await tab.innerText(), /production\.json ↔/);
    await page.waitForTimeout(1_500);
    t.diagnostic(`status bar → Compare Export with Server → ${await shot(page, 'export-drift-diff.png')}`);

    // Compare Environments for new-checkout-flow: development on the left, production on the right.
    await paletteCommand(page, 'Unleash: Compare Environments…');
    const widget = page.locator('.quick-input-widget');
    await widget.locator('.quick-input-title', { hasText: 'Unleash: Compare Environments' }).waitFor({ state: 'visible' });
    await page.keyboard.type('new-checkout-flow');
    await widget.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'new-checkout-flow' }).waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
    await page.locator('.tabs-container .tab.active', { hasText: 'new-checkout-flow: development ↔ production' }).first().waitFor({ state: 'visible', timeout: 60_000 });
    await page.locator('.monaco-diff-editor').first().waitFor({ state: 'visible' });
    await page.waitForTimeout(1_500);
    t.diagnostic(`palette → Compare Environments → ${await shot(page, 'compare-environments.png')}`);
  } finally {
    if (session) await session.stop();
    else await server?.stop();
    workspace.remove();
    await own.stop();
    t.diagnostic(`whole check ${seconds(Date.now() - t0)}`);
  }
});

test('four environments (export files): every state in the flag rows at the default side bar; 250, 300 and 400 px', { timeout: 300_000 }, async (t) => {
  const t0 = Date.now();
  const workspace = copyDemoWorkspace();
  // Two more export files, `staging` and `testing`, as copies of development's and production's.
  const exports = path.join(workspace.dir, '.unleash');
  for (const [from, to] of [['development', 'staging'], ['production', 'testing']]) {
    const text = fs.readFileSync(path.join(exports, `${from}.json`), 'utf8');
    fs.writeFileSync(path.join(exports, `${to}.json`), text.replaceAll(`"environment": "${from}"`, `"environment": "${to}"`));
  }
  const server = await host.startCodeServer({ vsixPath, workspace: workspace.dir, settings: { 'remote.autoForwardPorts': false }, env: { UNLEASH_API_TOKEN: '' }, log: logger() });
  let session: Session | undefined;
  try {
    session = await host.openWorkbench(server, { viewport: VIEWPORT, log: logger() });
    const page = session.page;
    await openFlagsView(page, 'offline: .unleash/development.json, .unleash/production.json, .unleash/staging.json');
    await quickOpen(page, 'src/checkout.ts');
    await expand(page, 'checkout');
    await expand(page, 'default');
    await treeRow(page, 'pricing-experiment').waitFor({ state: 'visible', timeout: 30_000 });
    const rows = await visibleRows(page);
    assert.ok(rows.includes('new-checkout-flow  d● p○ s● t○'), rows.join('\n'));
    for (const width of [250, 300, 400]) {
      await sideBarWidth(page, width);
      await noTooltip(page);
      const strips = await stripsShown(page);
      const cut = strips.filter((strip) => !strip.whole);
      const png = await shot(page, `tree-4-environments-${width}px.png`);
      t.diagnostic(`${width} px: ${strips.length - cut.length} of ${strips.length} rows show every environment${cut.length ? ` (cut: ${cut.map((strip) => strip.row).join(' | ')})` : ''} → ${png}`);
      // From the default width on, every row shows all four: a long name is cut instead (`checkout-express-p…`,
      // src/model/tree/rowWidth.ts). Narrower than the default, the strip may be cut.
      if (width >= DEFAULT_SIDE_BAR) assert.deepEqual(cut.map((strip) => strip.row), [], `flag rows show all four environments at ${width} px`);
    }
    t.diagnostic(`checked in ${seconds(Date.now() - t0)}`);
  } finally {
    if (session) await session.stop();
    else await server.stop();
    workspace.remove();
  }
});

test('the demo (offline mode): the Flags view shows the export files\' flags and a hover works', { timeout: 300_000 }, async (t) => {
  const t0 = Date.now();
  const { startDemo } = await import('../../demo/run');
  const demo = await startDemo({ log: verbose ? (line) => console.log(line) : () => undefined });
  let session: Session | undefined;
  try {
    assert.ok(!demo.unleash, 'offline: no server');
    assert.match(demo.url, /^http:\/\/127\.0\.0\.1:\d+\/\?folder=/);
    t.diagnostic(`demo ready in ${seconds(demo.timings.totalMs)} at ${demo.url}`);
    session = await host.openWorkbench(demo.server, { viewport: VIEWPORT, log: logger() });
    const page = session.page;
    await openFlagsView(page, 'offline: .unleash/development.json, .unleash/production.json');
    await expand(page, 'default');
    await expand(page, 'new-checkout-flow');
    // The flag's children are read from the export files after the row opens: wait for them before reading rows.
    await treeRow(page, 'development').waitFor({ state: 'visible', timeout: 30_000 });
    const rows = await visibleRows(page);
    const live = SEED.flags.filter((f) => !f.archived);
    for (const flag of live.filter((f) => f.project === 'default')) {
      assert.ok(rows.some((r) => r.startsWith(`${flag.name}  `)), `the offline tree shows ${flag.name}; it shows:\n${rows.join('\n')}`);
    }
    assert.ok(rows.includes('checkout  2 flags'), rows.join('\n'));
    assert.ok(rows.includes('development  enabled · 2 strategies'), `development row; it shows:\n${rows.join('\n')}`);

    await quickOpen(page, 'src/checkout.ts');
    const hoverText = await hoverFlag(page, "'new-checkout-flow'", 'Source: .unleash/development.json');
    for (const expected of ['new-checkout-flow', 'development', '●\u00a0enabled', 'Internal and beta users', 'production', '○\u00a0disabled']) {
      assert.ok(hoverText.includes(expected), `the offline hover shows "${expected}"; it shows:\n${hoverText}`);
    }
    const png = await shot(page, 'demo-offline.png');
    t.diagnostic(`offline tree and hover checked in ${seconds(Date.now() - t0)} → ${png}`);

    // Inlay hints after the flag name, at the default font; gone with VS Code's own editor.inlayHints.enabled off.
    const tHints = Date.now();
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
    // The hint sits inside the line's text, between the name's closing quote and `, context)`.
    const callLine = page.locator('.view-line', { hasText: /isEnabled\('new-checkout-flow'.*context\)/ }).first();
    const lineText = async () => (await callLine.innerText({ timeout: 5_000 }).catch(() => '')).replace(/\s/g, ' ');
    let seen = '';
    await waitUntil('the inlay hint after the flag name', async () => /'new-checkout-flow'\s*●\s+dev\s+○\s+prod,\s+context\)/.test((seen = await lineText())), 30_000).catch((error: Error) => {
      throw new Error(`${error.message}; the line reads ${JSON.stringify(seen)}`);
    });
    const hintsPng = await shot(page, 'inlay-hints.png');
    // VS Code's own setting, in the workspace's settings (the folder's file watcher applies it at once).
    const settingsFile = path.join(demo.workspace, '.vscode', 'settings.json');
    await fsp.mkdir(path.dirname(settingsFile), { recursive: true });
    await fsp.writeFile(settingsFile, JSON.stringify({ 'editor.inlayHints.enabled': 'off' }, null, 2));
    await waitUntil('the inlay hint gone with editor.inlayHints.enabled off', async () => (seen = await lineText()).includes("'new-checkout-flow', context)"), 30_000).catch((error: Error) => {
      throw new Error(`${error.message}; the line reads ${JSON.stringify(seen)}`);
    });
    await fsp.rm(settingsFile);
    t.diagnostic(`inlay hint shown, then gone with editor.inlayHints.enabled off, in ${seconds(Date.now() - tHints)} → ${hintsPng}`);

    const t1 = Date.now();
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
    const status = page.locator('.part.statusbar .statusbar-item', { hasText: 'Unleash: offline: 2 export files' }).first();
    await status.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match((await status.innerText()).trim(), /^Unleash: offline: 2 export files · \d+ flags$/);
    const problem = await typoProblem(page);
    assert.ok(problem.includes('unknown-flag'), problem);
    // The side bar closed, so that the whole message (and its "Did you mean") shows in the panel's row. Through the
    // palette, which says when the command ran: Ctrl+B was lost now and then on a busy machine (the bar stayed).
    const sideBar = page.locator('.part.sidebar');
    await paletteCommand(page, 'View: Close Primary Side Bar', () => sideBar.waitFor({ state: 'hidden', timeout: 10_000 }).then(() => true, () => false));
    await page.waitForTimeout(600);
    const problemsPng = await shot(page, 'problems.png');
    t.diagnostic(`status bar, squiggle and Problems panel in ${seconds(Date.now() - t1)} → ${problemsPng}`);
  } finally {
    if (session) await session.stop();
    await demo.stop();
  }
});

test('an untrusted folder (Restricted Mode): the offline tree and hover, and no request to the server the settings name', { timeout: 300_000 }, async (t) => {
  const t0 = Date.now();
  // A recording stand-in for the server: the user settings name it and a token is in the environment, so only the
  // folder's trust keeps the extension from listing it.
  const stand = await startFaultServer();
  const workspace = copyDemoWorkspace();
  let session: Session | undefined;
  try {
    const server = await host.startCodeServer({
      vsixPath,
      workspace: workspace.dir,
      workspaceTrust: true,
      settings: { 'unleash.serverUrl': stand.url, 'editor.hover.delay': 300, 'remote.autoForwardPorts': false },
      env: { UNLEASH_API_TOKEN: `e2e-restricted-${process.pid}-${Date.now()}` },
      log: logger(),
    });
    session = await host.openWorkbench(server, { viewport: VIEWPORT, log: logger() }); // stops the server when it fails
    const page = session.page;

    // VS Code asks whether to trust the folder; the user answers no.
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'Do you trust the authors of the files in this folder?' });
    await dialog.waitFor({ state: 'visible', timeout: 60_000 });
    await dialog.locator('.monaco-button', { hasText: /No, I don.t trust the authors/ }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 30_000 });
    // VS Code's indicator at the left of the status bar (a shield and "Restricted Mode"), and the banner on top.
    const indicator = page.locator('.part.statusbar #status\\.workspaceTrust');
    await indicator.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal((await indicator.innerText()).trim(), 'Restricted Mode');
    await page.locator('.part.banner', { hasText: 'Restricted Mode is intended for safe code browsing' }).waitFor({ state: 'visible', timeout: 30_000 });
    t.diagnostic(`trust dialog answered "No" and Restricted Mode shown ${seconds(Date.now() - t0)} after the start`);

    // The Flags view reads the export files, as in offline mode.
    await openFlagsView(page, 'offline: .unleash/development.json, .unleash/production.json');
    await expand(page, 'default');
    await expand(page, 'new-checkout-flow');
    await treeRow(page, 'development').waitFor({ state: 'visible', timeout: 30_000 });
    const rows = await visibleRows(page);
    for (const flag of SEED.flags.filter((f) => !f.archived && f.project === 'default')) {
      assert.ok(rows.some((r) => r.startsWith(`${flag.name}  `)), `the restricted tree shows ${flag.name}; it shows:\n${rows.join('\n')}`);
    }
    assert.ok(rows.includes('checkout  2 flags'), rows.join('\n'));
    const flagRow = rows.find((r) => r.startsWith('new-checkout-flow  ')) ?? '';
    assert.match(flagRow, /^new-checkout-flow {2}d● p○/, rows.join('\n'));
    assert.ok(rows.includes('development  enabled · 2 strategies'), `development row; it shows:\n${rows.join('\n')}`);

    // A hover on a flag name in a workspace file, from the export files.
    await quickOpen(page, 'src/checkout.ts');
    const hoverText = await hoverFlag(page, "'new-checkout-flow'", 'Source: .unleash/development.json');
    for (const expected of ['new-checkout-flow', 'development', '●\u00a0enabled', 'Internal and beta users', 'production', '○\u00a0disabled']) {
      assert.ok(hoverText.includes(expected), `the restricted hover shows "${expected}"; it shows:\n${hoverText}`);
    }
    const png = await shot(page, 'restricted-mode.png');
    const status = page.locator('.part.statusbar .statusbar-item', { hasText: 'Unleash: offline: 2 export files' }).first();
    await status.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match((await status.innerText()).trim(), /^Unleash: offline: 2 export files · \d+ flags$/);

    // Nothing reached the server the user settings name (its token included).
    assert.deepEqual(stand.requests.map((r) => `${r.method} ${r.url}`), [], 'the stand-in server got no request');
    t.diagnostic(`rows: ${flagRow} | ${rows.filter((r) => r.startsWith('development  ')).join('')}; status "${(await status.innerText()).trim()}"; hover with the source; 0 requests to ${stand.url}; ${seconds(Date.now() - t0)} → ${png}`);
  } finally {
    if (session) await session.stop();
    await stand.close();
    workspace.remove();
  }
});

/** The rows the command palette lists for `text` (F1, typed), as the user reads them. */
async function paletteRows(page: Page, text: string): Promise<string[]> {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('.quick-input-box input');
  await page.locator('.monaco-workbench').first().focus().catch(() => undefined);
  await page.keyboard.press('F1');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${text}`);
  const rows = widget.locator('.quick-input-list .monaco-list-row .label-name');
  await rows.first().waitFor({ state: 'visible', timeout: 10_000 });
  await page.waitForTimeout(500); // the list settles after typing
  const labels = (await rows.allInnerTexts()).map((label) => label.trim());
  await page.keyboard.press('Escape');
  return labels;
}

test('offline with nothing to show (no server, no export files): the palette offers exactly the Unleash commands that work', { timeout: 300_000 }, async (t) => {
  const t0 = Date.now();
  const workspace = copyDemoWorkspace();
  fs.rmSync(path.join(workspace.dir, '.unleash'), { recursive: true, force: true });
  let session: Session | undefined;
  try {
    const server = await host.startCodeServer({ vsixPath, workspace: workspace.dir, settings: { 'remote.autoForwardPorts': false }, log: logger() });
    session = await host.openWorkbench(server, { viewport: VIEWPORT, log: logger() });
    const page = session.page;
    // Until the extension has evaluated its settings the mode is unknown: wait for the palette to settle on it.
    // "Focus on Flags View" is VS Code's own command for the view (it shows the welcome content): it works too.
    const expected = ['Unleash: Connect to Server…', 'Unleash: Focus on Flags View', 'Unleash: Open Settings', 'Unleash: Show Log'];
    let rows: string[] = [];
    const deadline = Date.now() + 60_000;
    do {
      rows = (await paletteRows(page, 'Unleash: ')).filter((row) => row.startsWith('Unleash: ')).sort();
      if (JSON.stringify(rows) === JSON.stringify(expected)) break;
      await page.waitForTimeout(1000);
    } while (Date.now() < deadline);
    assert.deepEqual(rows, expected, 'the palette offers only what works without a server or export files');
    t.diagnostic(`palette rows for "Unleash: ": ${rows.join(' | ')}; ${seconds(Date.now() - t0)}`);
  } finally {
    if (session) await session.stop();
    workspace.remove();
  }
});
