/**
 * The manifest and the code agree: every command declared in package.json is registered in src/, every id in
 * constants.ts is declared. (Which folder may import what: layers.test.ts.)
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { Commands, ContextKeys, Views } from '../../src/base/constants';
import { INTAKE_BUDGET } from '../../src/base/intakeBudget';
import { SETTING_LIMITS } from '../../src/model/settings/settingRules';
import { MAX_PROJECTS } from '../../src/model/settings/settingLists';

const root = path.join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const nls = JSON.parse(readFileSync(path.join(root, 'package.nls.json'), 'utf8'));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

const sources = sourceFiles(path.join(root, 'src')).map((file) => ({ file, text: readFileSync(file, 'utf8') }));

describe('manifest', () => {
  const declared: string[] = manifest.contributes.commands.map((command: { command: string }) => command.command);

  it('declares exactly the commands of constants.ts', () => {
    assert.deepEqual([...declared].sort(), Object.values(Commands).sort());
  });

  it('registers every declared command in src/', () => {
    const registered = new Set<string>();
    for (const { text } of sources) {
      for (const match of text.matchAll(/registerCommand\(\s*Commands\.(\w+)/g)) {
        const id = (Commands as Record<string, string>)[match[1] as string];
        if (id) registered.add(id);
      }
    }
    assert.deepEqual(declared.filter((id) => !registered.has(id)), [], 'declared but never registered');
  });

  it('gives every command a category and a title in package.nls.json', () => {
    for (const command of manifest.contributes.commands) {
      assert.equal(command.category, 'Unleash', command.command);
      const key = /^%(.+)%$/.exec(command.title)?.[1];
      assert.ok(key && nls[key], `${command.command} has no localized title`);
    }
  });

  it('names only declared commands and views in menus and welcome content', () => {
    const menuCommands = Object.values(manifest.contributes.menus as Record<string, Array<{ command: string }>>).flat();
    for (const item of menuCommands) assert.ok(declared.includes(item.command), item.command);
    let links = 0;
    for (const welcome of manifest.contributes.viewsWelcome) {
      assert.ok((Object.values(Views) as string[]).includes(welcome.view), welcome.view);
      // Welcome contents are %keys% of package.nls.json (l10n.test.ts): the links are in the English text.
      const contents: string = nls[/^%(.+)%$/.exec(welcome.contents)?.[1] ?? ''] ?? welcome.contents;
      for (const link of contents.matchAll(/\(command:([\w.]+)\)/g)) {
        assert.ok(declared.includes(link[1] as string), link[1]);
        links += 1;
      }
    }
    assert.ok(links >= 10, `command links in the welcome contents: ${links}`);
  });

  it('writes welcome content without backticks: VS Code renders links there but no code spans, so they would show as typed', () => {
    const quoted = (manifest.contributes.viewsWelcome as Array<{ view: string; when: string; contents: string }>).flatMap((welcome) => {
      const key = /^%(.+)%$/.exec(welcome.contents)?.[1];
      const contents: string = (key && nls[key]) ?? welcome.contents;
      return contents.includes('`') ? [`${welcome.view} (${welcome.when}): ${key ?? contents}`] : [];
    });
    assert.deepEqual(quoted, []);
  });

  it('asks for no newer VS Code than the one the e2e tests run (1.100)', () => {
    assert.equal(manifest.engines.vscode, '^1.100.0');
    assert.equal(manifest.devDependencies['@types/vscode'], '1.100.0');
  });
});

describe('manifest: trust and limits', () => {
  const properties = manifest.contributes.configuration.properties as Record<string, { scope?: string; minimum?: number; maximum?: number; default?: unknown }>;

  it('declares limited support in Restricted Mode, restricting every setting that sends to or checks a server', () => {
    const untrusted = manifest.capabilities.untrustedWorkspaces;
    assert.equal(untrusted.supported, 'limited');
    for (const id of ['unleash.serverUrl', 'unleash.webUrl', 'unleash.network.caCertificates', 'unleash.network.rejectUnauthorized', 'unleash.export.path', 'unleash.refreshIntervalMinutes', 'unleash.requestTimeoutSeconds']) {
      assert.ok(untrusted.restrictedConfigurations.includes(id), `${id} is not restricted`);
      assert.ok(properties[id], `${id} is not a setting`);
    }
    assert.equal(manifest.capabilities.virtualWorkspaces.supported, 'limited');
  });

  it('restricts the list settings that cost work in every document, and declares the intake budget of every list a workspace can write', () => {
    const untrusted = manifest.capabilities.untrustedWorkspaces;
    for (const id of ['unleash.hover.sdkCalls', 'unleash.hover.nameTransforms']) {
      assert.ok(untrusted.restrictedConfigurations.includes(id), `${id} is not restricted`);
    }
    const all = manifest.contributes.configuration.properties as Record<string, { type?: string; scope?: string; maxItems?: number; items?: { type?: string; maxLength?: number } }>;
    // Every list a workspace can write (machine and application settings are the user's own).
    const lists = Object.entries(all).filter(([, p]) => p.type === 'array' && p.scope !== 'machine' && p.scope !== 'application');
    assert.deepEqual(lists.map(([id]) => id).sort(), ['unleash.environments', 'unleash.hover.languages', 'unleash.hover.nameTransforms', 'unleash.hover.sdkCalls', 'unleash.projects']);
    for (const [id, property] of lists) {
      assert.equal(property.maxItems, id === 'unleash.projects' ? INTAKE_BUDGET.settingProjects : INTAKE_BUDGET.settingItems, id);
      if (property.items?.type === 'string') assert.equal(property.items.maxLength, INTAKE_BUDGET.settingItemChars, id);
    }
  });

  it('lets only the user or the machine decide how TLS is checked', () => {
    assert.equal(properties['unleash.network.caCertificates']?.scope, 'machine');
    assert.equal(properties['unleash.network.rejectUnauthorized']?.scope, 'machine');
  });

  it('declares the limits the code clamps numeric settings to', () => {
    for (const [key, limits] of Object.entries(SETTING_LIMITS)) {
      const declared = properties[`unleash.${key}`];
      assert.deepEqual([declared?.minimum, declared?.maximum, declared?.default], [limits.minimum, limits.maximum, limits.default], key);
    }
    assert.equal((properties['unleash.projects'] as { maxItems?: number } | undefined)?.maxItems, MAX_PROJECTS, 'unleash.projects');
  });
});

describe('logging', () => {
  it('never logs through console (one log channel: src/services/logger.ts)', () => {
    const offenders = sources.filter(({ text }) => /\bconsole\.(log|info|warn|error|debug)\(/.test(text)).map(({ file }) => path.relative(root, file));
    assert.deepEqual(offenders, []);
  });
});

describe('manifest: commands appear only where they work', () => {
  type Command = { command: string; enablement?: string };
  type MenuItem = { command: string; when?: string; group?: string };
  const commands = manifest.contributes.commands as Command[];
  const menus = manifest.contributes.menus as Record<string, MenuItem[]>;
  const palette = (id: string) => menus.commandPalette!.find((item) => item.command === id)?.when;
  const enablement = (id: string) => commands.find((command) => command.command === id)?.enablement;
  const SERVER = 'unleash.mode == server';
  const SOURCE = 'unleash.mode == server || unleash.mode == offline';

  it('commands that need a server are enabled, and in the palette, only with a server set', () => {
    for (const id of [Commands.testConnection, Commands.setToken, Commands.forgetToken, Commands.exportEnvironment, Commands.approveServer]) {
      assert.equal(enablement(id), SERVER, id);
      assert.equal(palette(id), SERVER, id);
    }
  });

  it('commands that need flags (a server or export files) are enabled, and in the palette, only then', () => {
    for (const id of [Commands.refresh, Commands.findFlag, Commands.showFlagDetails, Commands.checkWorkspaceFlags, Commands.checkTag]) {
      assert.equal(enablement(id), SOURCE, id);
      assert.equal(palette(id), SOURCE, id);
    }
  });

  it('the commands that work with nothing configured stay in the palette unconditionally (Connect… but in the browser build)', () => {
    for (const id of [Commands.connect, Commands.showLog, Commands.openSettings]) assert.equal(enablement(id), undefined, id);
    for (const id of [Commands.showLog, Commands.openSettings]) assert.equal(palette(id), undefined, id);
    assert.equal(palette(Commands.connect), `!${ContextKeys.browser}`);
  });

  it('every command is either always on offer, conditioned, or hidden from the palette (tree, hover and editor only)', () => {
    const hidden = [Commands.revealFlag, Commands.copyFlagName, Commands.openInWebUi, Commands.findUsages, Commands.copyValue, Commands.statusActions, Commands.recordFlagUse];
    for (const id of hidden) assert.equal(palette(id), 'false', id);
  });

  it('menu buttons of server commands show only with a server', () => {
    for (const [menu, items] of Object.entries(menus)) {
      if (menu === 'commandPalette') continue;
      for (const item of items) {
        if (enablement(item.command) === SERVER) assert.match(item.when ?? '', /unleash\.mode == server/, `${menu}: ${item.command}`);
      }
    }
  });

  it("the editor's context menu offers Copy Name, Open in Unleash (with a server: a web address) and Find Usages on a flag name", () => {
    const editor = menus['editor/context']!;
    assert.deepEqual(
      editor.map((item) => [item.command, item.when]),
      [
        [Commands.copyFlagName, ContextKeys.flagAtCursor],
        [Commands.openInWebUi, `${ContextKeys.flagAtCursor} && ${SERVER}`],
        [Commands.findUsages, ContextKeys.flagAtCursor],
      ],
    );
  });

  it('when clauses read only context keys of constants.ts among unleash.*', () => {
    const known = new Set<string>(Object.values(ContextKeys));
    const clauses = [
      ...Object.values(menus).flat().map((item) => item.when ?? ''),
      ...commands.map((command) => command.enablement ?? ''),
      ...(manifest.contributes.viewsWelcome as Array<{ when: string }>).map((welcome) => welcome.when),
    ];
    for (const clause of clauses) {
      for (const key of clause.match(/\bunleash\.\w+\b/g) ?? []) {
        if ((Object.values(Views) as string[]).includes(key)) continue;
        assert.ok(known.has(key), `${key} in "${clause}"`);
      }
    }
  });

  it('binds no keys: the chords VS Code leaves free clash with other extensions, and every command is in the palette or a menu', () => {
    assert.equal(manifest.contributes.keybindings, undefined);
  });

  it('activates after start-up, and reads nothing then (README: "When it sends requests")', () => {
    assert.deepEqual(manifest.activationEvents, ['onStartupFinished']);
  });
});

describe('manifest: settings', () => {
  const properties = manifest.contributes.configuration.properties as Record<string, Record<string, unknown> & { scope?: string; type?: string }>;

  it('gives every setting a scope: resource for what each folder may set, machine for TLS and the export budget, window for the rest', () => {
    const resource = ['unleash.projects', 'unleash.export.path', 'unleash.environments', ...Object.keys(properties).filter((id) => id.startsWith('unleash.hover.'))];
    const machine = (id: string) => id.startsWith('unleash.network.') || id === 'unleash.export.maxMegabytes';
    for (const [id, setting] of Object.entries(properties)) {
      assert.ok(setting.scope, `${id} has no scope`);
      const expected = resource.includes(id) ? 'resource' : machine(id) ? 'machine' : 'window';
      assert.equal(setting.scope, expected, id);
    }
  });

  it('declares whole-number settings as integers', () => {
    for (const id of ['unleash.requestTimeoutSeconds', 'unleash.refreshIntervalMinutes', 'unleash.export.maxMegabytes']) assert.equal(properties[id]?.type, 'integer', id);
    for (const [id, setting] of Object.entries(properties)) assert.notEqual(setting.type, 'number', `${id}: number, not integer`);
  });

  it('describes each name transform kind', () => {
    const kind = (properties['unleash.hover.nameTransforms']!.items as { properties: { kind: { enum: string[]; markdownEnumDescriptions?: string[] } } }).properties.kind;
    assert.equal(kind.markdownEnumDescriptions?.length, kind.enum.length);
  });

  it('describes every setting (markdownDescription, or description for plain text)', () => {
    for (const [id, setting] of Object.entries(properties)) {
      assert.ok(setting.markdownDescription || setting.description, id);
    }
  });
});
