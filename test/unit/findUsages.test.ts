/**
 * Find Usages in the 'vscode' stand-in on a real folder: what the References view shows for a short name that
 * prefixes others (only its exact uses, by the hovers' rule), the message when there is none, and the editor's peek
 * where the References view is missing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FeatureSummary } from '../../src/api/schemas';
import { installFakeVscode, type TreeItem } from '../support/fakeVscode';
import { listingSource } from '../support/flagCatalog';
import { recordingLogger } from '../support/recordingLogger';
import { FlagStore } from '../../src/model/store/flagStore';
import { Commands } from '../../src/base/constants';

const folder = mkdtempSync(path.join(os.tmpdir(), 'unleash-usages-'));
const fake = installFakeVscode(folder);

let registerFlagsView: typeof import('../../src/views/flagsTree').registerFlagsView;
let registerFlagCommands: typeof import('../../src/commands/flags').registerFlagCommands;
let CodeFlags: typeof import('../../src/services/codeFlags').CodeFlags;
let HoverSettingsByFolder: typeof import('../../src/services/hoverSettingsByFolder').HoverSettingsByFolder;
// Loaded once the stand-in answers `require('vscode')`.
before(async () => {
  registerFlagsView = (await import('../../src/views/flagsTree')).registerFlagsView;
  registerFlagCommands = (await import('../../src/commands/flags')).registerFlagCommands;
  CodeFlags = (await import('../../src/services/codeFlags')).CodeFlags;
  HoverSettingsByFolder = (await import('../../src/services/hoverSettingsByFolder')).HoverSettingsByFolder;
});

const files: Record<string, string> = {
  'src/checkout.ts': [
    "if (unleash.isEnabled('pay')) pay();",
    "if (unleash.isEnabled('pay-later')) {}",
    "const wallets = ['apple-pay', `checkout-express-pay`];",
    '// pay only when the pay flag is on',
  ].join('\n'),
  'app/flags.py': 'if client.is_enabled("pay"):\n    pass\n',
  'config.yaml': 'checkout:\n  flag: pay\n  later: pay-later\n',
  '.unleash/production.json': '{ "features": [{ "name": "pay" }] }\n',
  'node_modules/sdk/index.ts': "isEnabled('pay')\n",
  'README.md': 'The pay flag.\n',
};
for (const [name, text] of Object.entries(files)) {
  mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
  writeFileSync(path.join(folder, name), text);
}
after(() => rmSync(folder, { recursive: true, force: true }));

const flag = (name: string): FeatureSummary => ({ name, project: 'default', type: 'release', environments: [] });

interface Input {
  title: string;
  resolve(): Promise<{ message: string; provider: { getChildren(node?: unknown): unknown[]; getTreeItem(node: unknown): TreeItem } }>;
}

/** The References view as a user reads it: its title, message, and each row's label (the name in [brackets]) and description. */
async function referencesView(input: Input): Promise<string[]> {
  const model = await input.resolve();
  const lines = [input.title, model.message];
  for (const file of model.provider.getChildren()) {
    const item = model.provider.getTreeItem(file);
    lines.push(`${path.relative(folder, item.resourceUri?.fsPath ?? '')} (${item.description})`);
    for (const use of model.provider.getChildren(file)) {
      const row = model.provider.getTreeItem(use);
      const { label, highlights } = row.label as unknown as { label: string; highlights: Array<[number, number]> };
      const [start, end] = highlights[0] ?? [0, 0];
      lines.push(`  ${label.slice(0, start)}[${label.slice(start, end)}]${label.slice(end)} · ${row.description}`);
    }
  }
  return lines;
}

async function setUp(options: { loaded?: boolean } = {}) {
  const { logger } = recordingLogger();
  const store = new FlagStore(logger);
  if (options.loaded !== false) void store.load();
  await store.setSource(listingSource(['pay', 'pay-later', 'apple-pay', 'checkout-express-pay', 'unused'].map(flag)), 'ready');
  const hoverSettings = new HoverSettingsByFolder();
  const codeFlags = new CodeFlags(store, logger, hoverSettings);
  const view = registerFlagsView({ store, logger });
  const commands = registerFlagCommands({ store, view, logger, codeFlags });
  return {
    run: (...args: unknown[]) => fake.commands.get(Commands.findUsages)?.(...args),
    dispose: () => {
      commands.dispose();
      view.disposable.dispose();
      codeFlags.dispose();
      hoverSettings.dispose();
    },
  };
}

describe('Find Usages', () => {
  it('a short name that prefixes others: the References view lists only its exact uses', async () => {
    const t = await setUp();
    try {
      await t.run({ project: 'default', name: 'pay' });
      assert.deepEqual(await referencesView(fake.referencesView?.inputs.at(-1) as Input), [
        'Uses of the flag pay',
        '3 uses in 3 files',
        'app/flags.py (1)',
        '  if client.is_enabled("[pay]"): · line 1',
        'config.yaml (1)',
        '  flag: [pay] · line 2',
        'src/checkout.ts (1)',
        "  if (unleash.isEnabled('[pay]')) pay(); · line 1",
      ]);
    } finally {
      t.dispose();
    }
  });

  it('run before anything needed the flags: it loads them first, then finds the uses', async () => {
    const t = await setUp({ loaded: false });
    try {
      const search = (await t.run({ project: 'default', name: 'pay' })) as { files: unknown[] } | undefined;
      assert.equal(search?.files.length, 3);
    } finally {
      t.dispose();
    }
  });

  it('no use: a message that says how many files were searched', async () => {
    const t = await setUp();
    try {
      const inputs = fake.referencesView?.inputs.length;
      await t.run({ project: 'default', name: 'unused' });
      assert.equal(fake.messages.at(-1)?.message, 'No use of the flag "unused" in 3 files of the workspace.');
      assert.equal(fake.referencesView?.inputs.length, inputs);
    } finally {
      t.dispose();
    }
  });

  it('without the References view: the editor peeks at the same places', async () => {
    const t = await setUp();
    const view = fake.referencesView;
    fake.referencesView = undefined;
    try {
      await t.run({ project: 'default', name: 'pay-later' });
      const peek = fake.executed.at(-1);
      assert.equal(peek?.id, 'editor.action.showReferences');
      const locations = peek?.args[2] as Array<{ uri: { fsPath: string }; range: { start: { line: number; character: number } } }>;
      assert.deepEqual(
        locations.map((location) => `${path.relative(folder, location.uri.fsPath)}:${location.range.start.line + 1}:${location.range.start.character}`),
        ['config.yaml:3:9', 'src/checkout.ts:2:23'],
      );
    } finally {
      fake.referencesView = view;
      t.dispose();
    }
  });
});
