/**
 * The browser build (package.json `browser`, dist/web/extension.js) in VS Code's web worker extension host, as
 * vscode.dev and github.dev run it: code-server 4.100.3 with the packaged extension installed from dist/*.vsix and the
 * user setting `remote.extensionKind: { "unleash-flags.unleash-flags": ["web"] }`, which makes the workbench run it in
 * the browser's web worker instead of code-server's Node extension host. On a copy of the demo workspace (its
 * committed `.unleash/*.json` exports, no server), what a person sees:
 *   - the Flags view from the committed exports, saying so and how old they are; default → new-checkout-flow →
 *     development;
 *   - a hover on a flag name in src/checkout.ts (browser-hover.png);
 *   - a completion of a flag name typed in the editor, and the typo's diagnostic in the Problems panel;
 *   - the proof that it ran in the web worker: the extension's log line (Unleash: Show Log) says
 *     `typeof process: undefined`, and the activation time (printed as a diagnostic, the figure the report quotes).
 *
 *   node --import tsx --test test/e2e/web.test.ts        (E2E_VERBOSE=1 prints the editor's log)
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { SEED } from '../../tools/unleash/seed-data';
import { expand, hoverFlag, logger, openFlagsView, paletteCommand, quickOpen, shot, treeRow, typoProblem, visibleRows } from './page';
import * as host from '../../tools/editor/index';
import type { EditorSession as Session } from '../../tools/editor/index';
import { copyDemoWorkspace } from '../../tools/demoWorkspace';
import { ensureHost } from '../../tools/editor/ensureHost';
import { seconds } from '../../tools/log';
import { EXTENSION_ID, ensureVsix } from '../../tools/vsix';

const VIEWPORT = { width: 1280, height: 800 };
let vsixPath = '';

before(async () => {
  await ensureHost();
  vsixPath = (await ensureVsix((line) => console.log(line))).path;
}, { timeout: 600_000 });

test('the browser build in the web worker extension host: the committed exports\' tree, a hover, a completion, a diagnostic', { timeout: 300_000 }, async (t) => {
  const t0 = Date.now();
  const workspace = copyDemoWorkspace();
  let session: Session | undefined;
  try {
    const server = await host.startCodeServer({
      vsixPath,
      workspace: workspace.dir,
      settings: { 'remote.extensionKind': { [EXTENSION_ID]: ['web'] }, 'editor.hover.delay': 300, 'remote.autoForwardPorts': false },
      log: logger(),
    });
    session = await host.openWorkbench(server, { viewport: VIEWPORT, log: logger() });
    const page = session.page;

    // The Flags view: the committed exports, said plainly with their age, and their flags.
    await openFlagsView(page, 'offline: .unleash/development.json, .unleash/production.json');
    const note = page.locator('.part.sidebar', { hasText: 'These are the flags of the export files committed to the workspace' }).first();
    await note.waitFor({ state: 'visible', timeout: 30_000 });
    const noteText = (await note.innerText()).match(/These are the flags[^\n]*/)?.[0] ?? '';
    assert.match(noteText, /^These are the flags of the export files committed to the workspace \(\.unleash\/\*\.json\); the newest file is dated \d{4}-\d\d-\d\d \d\d:\d\d UTC \((just now|\d+ \w+ ago)\)\. Export again in desktop VS Code to update them\.$/);
    await expand(page, 'default');
    await expand(page, 'new-checkout-flow');
    await treeRow(page, 'development').waitFor({ state: 'visible', timeout: 30_000 });
    const rows = await visibleRows(page);
    for (const flag of SEED.flags.filter((f) => !f.archived && f.project === 'default')) {
      assert.ok(rows.some((r) => r.startsWith(`${flag.name}  `)), `the tree shows ${flag.name}; it shows:\n${rows.join('\n')}`);
    }
    assert.ok(rows.includes('development  enabled · 2 strategies'), `development row; it shows:\n${rows.join('\n')}`);
    t.diagnostic(`tree: ${rows.length} rows; "${noteText}"`);

    // A hover on the flag name in a workspace file (a vscode-remote: document in the web worker).
    await quickOpen(page, 'src/checkout.ts');
    const hoverText = await hoverFlag(page, "'new-checkout-flow'", 'Source: .unleash/development.json');
    for (const expected of ['new-checkout-flow', 'development', '●\u00a0enabled', 'Internal and beta users', 'production', '○\u00a0disabled']) {
      assert.ok(hoverText.includes(expected), `the hover shows "${expected}"; it shows:\n${hoverText}`);
    }
    const png = await shot(page, 'browser-hover.png');
    t.diagnostic(`hover → ${png}`);

    // The typo in src/checkout.ts, squiggled and in the Problems panel.
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
    const problem = await typoProblem(page);

    // A completion: a flag name begun in an SDK call at the end of src/checkout.ts.
    await page.locator('.editor-instance .view-lines').first().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type("unleash.isEnabled('new-checkout-f", { delay: 20 });
    // The flag's own row (the widget may first show the words of the document, new-checkout-flow-ui among them, while
    // the flags' completion index is built in slices).
    const suggestion = page.locator('.suggest-widget .monaco-list-row .label-name', { hasText: /^\s*new-checkout-flow\s*$/ }).first();
    if (!(await suggestion.waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false))) {
      await page.keyboard.press('Control+Space');
      await suggestion.waitFor({ state: 'visible', timeout: 20_000 });
    }
    const suggested = await page.locator('.suggest-widget .monaco-list-row .label-name').allInnerTexts();
    assert.ok(suggested.map((label) => label.trim()).includes('new-checkout-flow'), `completion rows: ${JSON.stringify(suggested)}`);
    await page.keyboard.press('Escape');
    t.diagnostic(`problem "${problem.slice(0, 100)}…"; completion offers ${suggested.map((label) => label.trim()).join(', ')}`);

    // Where it ran: the log line of activate() (no `process` in a web worker), and how long activation took.
    await paletteCommand(page, 'Unleash: Show Log');
    // The output editor wraps the line: its pieces are joined again.
    const output = page.locator('.part.panel .view-lines').first();
    await page.locator('.part.panel .view-line', { hasText: 'Activated in' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    const shown = (await output.locator('.view-line').allInnerTexts()).join('').replace(/\s+/g, ' ');
    assert.match(shown, /Browser build; typeof process: undefined\./);
    // The export files were read in a web worker of its own, started from the bundle's text.
    assert.match(shown, /Export files are read in a web worker\./);
    const line = /Activated in [\d.]+ ms \([\d.]+ ms of it loading the bundle\)\./.exec(shown)?.[0] ?? shown;
    const [, activationMs = '', loadMs = ''] = /in ([\d.]+) ms \(([\d.]+) ms of it loading/.exec(line) ?? [];
    assert.ok(activationMs && loadMs, `the activation line: ${line}`);
    t.diagnostic(`web worker: "${line.trim()}"; activate-ms=${activationMs} bundle-load-ms=${loadMs}; ${seconds(Date.now() - t0)} in all`);
  } finally {
    if (session) await session.stop();
    workspace.remove();
  }
});
