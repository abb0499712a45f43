/**
 * The Cleanup view in the 'vscode' stand-in, over a real folder of source files: the flags safe to remove with why,
 * how many places use each (counted once the view is shown), and those places as rows that open them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { installFakeVscode, type FakeTreeView, type TreeItem } from '../support/fakeVscode';
import { listingSource, storeOver } from '../support/flagCatalog';

const folder = mkdtempSync(path.join(tmpdir(), 'cleanup-'));
after(() => rmSync(folder, { recursive: true, force: true }));
mkdirSync(path.join(folder, 'src'));
writeFileSync(path.join(folder, 'src', 'a.ts'), "if (unleash.isEnabled('old-banner')) {}\n// old-banner in a comment is no use\nuseFlag('old-banner-v2');\n");
writeFileSync(
  path.join(folder, 'src', 'b.py'),
  "client.is_enabled('old-banner')\nclient.is_enabled('busy')\nif unleash_client.is_enabled(\"new-checkout-page\") and client.is_enabled('old-banner') and not client.is_enabled(\"maintenance-mode\"):\n",
);
const fake = installFakeVscode(folder);

let CodeFlags: typeof import('../../src/services/codeFlags').CodeFlags;
let HoverSettingsByFolder: typeof import('../../src/services/hoverSettingsByFolder').HoverSettingsByFolder;
let registerCleanupView: typeof import('../../src/views/cleanupView').registerCleanupView;
// Loaded once the stand-in answers `require('vscode')`.
before(async () => {
  CodeFlags = (await import('../../src/services/codeFlags')).CodeFlags;
  HoverSettingsByFolder = (await import('../../src/services/hoverSettingsByFolder')).HoverSettingsByFolder;
  registerCleanupView = (await import('../../src/views/cleanupView')).registerCleanupView;
});

const logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, child: () => logger };
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

/** The server's flags: one busy, one stale and unseen for 60 days, one seen yesterday, one never enabled. */
const source = listingSource(
  [
    { name: 'busy', project: 'default', createdAt: daysAgo(400), environments: [{ name: 'production', enabled: true, lastSeenAt: daysAgo(0) }] },
    { name: 'old-banner', project: 'default', stale: true, createdAt: daysAgo(400), environments: [{ name: 'production', enabled: true, lastSeenAt: daysAgo(60) }] },
    { name: 'old-banner-v2', project: 'default', createdAt: daysAgo(400), environments: [{ name: 'production', enabled: true, lastSeenAt: daysAgo(1) }] },
    { name: 'unused', project: 'default', createdAt: daysAgo(400), environments: [{ name: 'production', enabled: false }] },
  ],
  { environments: ['production'] },
);

describe('Cleanup view', () => {
  it('lists the flags safe to remove once shown, with why and their uses; each use opens its place', async () => {
    const store = await storeOver(source);
    const codeFlags = new CodeFlags(store, logger, new HoverSettingsByFolder());
    const view = registerCleanupView({ store, codeFlags, logger });
    try {
      assert.deepEqual(view.provider.getChildren(), [], 'hidden: nothing listed or counted');
      (fake.treeViews.at(-1) as FakeTreeView).setVisible(true);
      await view.provider.settled();
      const rows = view.provider.getChildren();
      const items = rows.map((row) => view.provider.getTreeItem(row) as unknown as TreeItem);
      assert.deepEqual(
        items.map((item) => [item.label, item.description, item.contextValue]),
        [
          ['old-banner', 'stale · last evaluated 2 months ago · 3 uses in 2 files', 'cleanupFlag'],
          ['unused', 'never evaluated · no use in the workspace', 'cleanupFlag'],
        ],
      );
      const uses = view.provider.getChildren(rows[0]).map((row) => view.provider.getTreeItem(row) as unknown as TreeItem);
      assert.deepEqual(
        uses.map((use) => [use.label, use.description, use.command?.command]),
        [
          ["if (unleash.isEnabled('old-banner')) {}", 'src/a.ts, line 1', 'vscode.open'],
          ["client.is_enabled('old-banner')", 'src/b.py, line 1', 'vscode.open'],
          // A long line: cut between words, never inside a name, and marked where it was cut.
          ["…and client.is_enabled('old-banner') and not…", 'src/b.py, line 3', 'vscode.open'],
        ],
      );
    } finally {
      view.disposable.dispose();
      codeFlags.dispose();
      store.dispose();
    }
  });

  it('lists a flag completed in the instant it was created once its stages are read in the background (no details read)', async () => {
    const at = daysAgo(3);
    const listed = { name: 'same-instant', project: 'default', createdAt: at, lifecycle: { stage: 'initial', enteredStageAt: at }, environments: [{ name: 'production', enabled: true, lastSeenAt: daysAgo(0) }] };
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const staged = {
      ...listingSource([listed], { environments: ['production'] }),
      flagStages: async () => {
        await answered; // the server answers once the view shows the listing
        return [{ stage: 'completed', status: 'kept', enteredStageAt: at }, { stage: 'initial', enteredStageAt: at }];
      },
    };
    const store = await storeOver(staged);
    const codeFlags = new CodeFlags(store, logger, new HoverSettingsByFolder());
    const view = registerCleanupView({ store, codeFlags, logger });
    try {
      (fake.treeViews.at(-1) as FakeTreeView).setVisible(true);
      await view.provider.settled();
      assert.deepEqual(view.provider.getChildren(), [], 'the listing says initial');
      answer();
      await store.stagesSettled();
      await view.provider.settled();
      const items = view.provider.getChildren().map((row) => view.provider.getTreeItem(row) as unknown as TreeItem);
      assert.deepEqual(items.map((item) => [item.label, item.description]), [['same-instant', 'completed · no use in the workspace']]);
    } finally {
      view.disposable.dispose();
      codeFlags.dispose();
      store.dispose();
    }
  });
});
