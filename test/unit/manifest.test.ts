/**
 * The manifest and the code agree: every command declared in package.json is registered in src/, every id in
 * constants.ts is declared. (Which folder may import what: layers.test.ts.)
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { Commands, Views } from '../../src/constants';
import { SETTING_LIMITS } from '../../src/model/settingRules';

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
      assert.equal(welcome.view, Views.flags);
      // Welcome contents are %keys% of package.nls.json (l10n.test.ts): the links are in the English text.
      const contents: string = nls[/^%(.+)%$/.exec(welcome.contents)?.[1] ?? ''] ?? welcome.contents;
      for (const link of contents.matchAll(/\(command:([\w.]+)\)/g)) {
        assert.ok(declared.includes(link[1] as string), link[1]);
        links += 1;
      }
    }
    assert.ok(links >= 10, `command links in the welcome contents: ${links}`);
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

  it('lets only the user or the machine decide how TLS is checked', () => {
    assert.equal(properties['unleash.network.caCertificates']?.scope, 'machine');
    assert.equal(properties['unleash.network.rejectUnauthorized']?.scope, 'machine');
  });

  it('declares the limits the code clamps numeric settings to', () => {
    for (const [key, limits] of Object.entries(SETTING_LIMITS)) {
      const declared = properties[`unleash.${key}`];
      assert.deepEqual([declared?.minimum, declared?.maximum, declared?.default], [limits.minimum, limits.maximum, limits.default], key);
    }
  });
});

describe('logging', () => {
  it('never logs through console (one log channel: src/util/logger.ts)', () => {
    const offenders = sources.filter(({ text }) => /\bconsole\.(log|info|warn|error|debug)\(/.test(text)).map(({ file }) => path.relative(root, file));
    assert.deepEqual(offenders, []);
  });
});
