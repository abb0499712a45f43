/**
 * The rules that keep a workspace's settings from doing harm (src/model/settings/settingRules.ts), and the safe file reader
 * (src/base/safeRead.ts) that CA files and exports use.
 *   node --import tsx --test test/unit/settingRules.test.ts
 */
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  chooseServer, clampSetting, languageFilters, approvalQuestion, boundedObject, MAX_PROJECTS, projectsOf, serverKey, shownAddress, plainHttpWarning, SETTING_LIMITS, validSdkCalls, validTransforms, type SettingProblem,
} from '../../src/model/settings/settingRules';
import { readRegularFile } from '../../src/base/safeRead';
import { isLoopback } from '../../src/api/baseUrl';
import { acceptEncoding } from '../../src/api/http';
import { INTAKE_BUDGET } from '../../src/base/intakeBudget';

describe('chooseServer', () => {
  it('takes the user value unless a trusted workspace names another server', () => {
    assert.deepEqual(chooseServer({ globalValue: 'https://a.example' }, true), { url: 'https://a.example', fromWorkspace: false });
    assert.deepEqual(chooseServer({ globalValue: 'https://a.example', workspaceValue: 'https://evil.example' }, true), {
      url: 'https://evil.example',
      fromWorkspace: true,
    });
    assert.deepEqual(chooseServer({ workspaceValue: 'https://evil.example', workspaceFolderValue: 'https://folder.example' }, true), {
      url: 'https://folder.example',
      fromWorkspace: true,
    });
    assert.deepEqual(chooseServer({ globalValue: 'https://a.example', workspaceValue: ' https://a.example ' }, true), {
      url: 'https://a.example',
      fromWorkspace: false,
    });
  });

  it('ignores the workspace in Restricted Mode', () => {
    assert.deepEqual(chooseServer({ globalValue: '', workspaceValue: 'https://evil.example' }, false), { url: '', fromWorkspace: false });
  });
});

describe('numeric settings', () => {
  it('are clamped to the manifest limits', () => {
    const refresh = SETTING_LIMITS.refreshIntervalMinutes;
    assert.deepEqual([0, 0.0001, 0.5, 5, 1e9, -3, Number.NaN, '7'].map((value) => clampSetting(value, refresh)), [0, 1, 1, 5, 1440, 0, 0, 0]);
    const timeout = SETTING_LIMITS.requestTimeoutSeconds;
    assert.deepEqual([5e6, 0.01, 30, Infinity].map((value) => clampSetting(value, timeout)), [300, 1, 30, 15]);
  });
});

describe('addresses', () => {
  it('knows loopback hosts and warns for plain http elsewhere', () => {
    const loopback = (host: string) => isLoopback(new URL(`http://${host}:4242`));
    assert.deepEqual(['localhost', 'LOCALHOST', '127.0.0.1', '127.9.8.7', '127.1', '[::1]', '[::ffff:127.0.0.1]'].map(loopback), [true, true, true, true, true, true, true]);
    assert.deepEqual(
      ['10.0.0.1', 'unleash.example.com', '127.0.0.1.evil.example', 'evil.localhost', 'localhost.', '[::2]', '[::ffff:10.0.0.1]'].map(loopback),
      [false, false, false, false, false, false, false],
    );
    assert.equal(plainHttpWarning(new URL('http://127.0.0.1:4242')), undefined);
    assert.equal(plainHttpWarning(new URL('http://localhost:4242')), undefined);
    // A name under localhost may resolve through DNS to another machine: the token would cross the network.
    assert.equal(
      plainHttpWarning(new URL('http://evil.localhost:4242')),
      "The API token goes to evil.localhost:4242 over plain http://, unencrypted: anyone on the network between you can read it. Use the server's https:// address if it has one.",
    );
    // The client agrees: it asks such a server to compress (loopback is not asked); the proxy too (network.test.ts).
    assert.deepEqual(['http://evil.localhost', 'http://localhost', 'http://[::1]'].map((url) => acceptEncoding(new URL(url))), ['gzip, br', 'identity', 'identity']);
    assert.equal(plainHttpWarning(new URL('https://unleash.example.com')), undefined);
    assert.equal(
      plainHttpWarning(new URL('http://unleash.example.com')),
      "The API token goes to unleash.example.com over plain http://, unencrypted: anyone on the network between you can read it. Use the server's https:// address if it has one.",
    );
  });

  it('allows and keeps tokens by origin and base path: one key for both', () => {
    assert.equal(serverKey('https://Unleash.Example.com:443/prefix/'), 'https://unleash.example.com/prefix');
    assert.equal(serverKey(' https://unleash.example.com/prefix/api/admin?x=1#y '), 'https://unleash.example.com/prefix');
    // An approval stored as an origin (before the path counted) is the key of the root path, and of no other.
    assert.equal(serverKey('https://unleash.example.com/'), 'https://unleash.example.com');
    assert.notEqual(serverKey('https://unleash.example.com/other'), 'https://unleash.example.com');
    assert.equal(serverKey('not a url'), undefined);
  });

  it('asks about the address requests will use: bidi and invisible characters shown encoded, the web UI named', () => {
    const question = approvalQuestion('https://unleash.example.com/\u202etxt.exe/', ' https://flags.example.com/ui ');
    assert.deepEqual(question, {
      message: 'Send your Unleash API token to unleash.example.com?',
      detail:
        "This workspace's settings (unleash.serverUrl) name the server https://unleash.example.com/%E2%80%AEtxt.exe. A cloned repository can name any server: allow it only if you know it. Your answer is remembered for this address only. They also set unleash.webUrl to https://flags.example.com/ui: links to flags will open there.",
    });
    const host = approvalQuestion('https://ex\u200bample.com\u00ad');
    assert.equal(host.message, 'Send your Unleash API token to example.com?');
    assert.match(host.detail, /name the server https:\/\/example\.com\. /);
    // Every message naming a server (Connect, Set Token, Forget Token) shows it so.
    assert.equal(shownAddress('https://unleash.example.com/\u202etxt.exe/'), 'https://unleash.example.com/%E2%80%AEtxt.exe');
    assert.equal(shownAddress('not\u202ea url'), 'not a url');
    // What does not parse is shown cleaned and bounded, never raw.
    const raw = approvalQuestion(`x\u202e${'y'.repeat(5_000)}`);
    assert.ok(!/[\u202e]/.test(raw.message + raw.detail) && raw.message.length < 300, raw.message);
  });
});

describe('unleash.projects', () => {
  it(`lists at most ${MAX_PROJECTS} projects and says why, with the count and what to do`, () => {
    const named = Array.from({ length: 5_000 }, (_, i) => `project-${i}`);
    assert.deepEqual(projectsOf([named.slice(0, MAX_PROJECTS)]), { projects: named.slice(0, MAX_PROJECTS) });
    const capped = projectsOf([named]);
    assert.deepEqual(capped.projects, named.slice(0, MAX_PROJECTS));
    assert.equal(
      capped.note,
      'unleash.projects names 5000 projects, more than the 200 the Flags view lists (each is one request on every refresh): only the first 200 are shown. Name at most 200 projects, or leave the setting empty to list every project.',
    );
  });

  it('leaves out a name longer than the budget allows, and says so in the view', () => {
    const long = `p${'x'.repeat(INTAKE_BUDGET.settingItemChars)}`;
    assert.deepEqual(projectsOf([['a', long, `${long}2`, 'b']]), {
      projects: ['a', 'b'],
      note: 'unleash.projects: an entry of 201 characters, more than 200: "pxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…; ignored.',
    });
  });
});

describe('readRegularFile', () => {
  it('reads a regular file, refuses links when asked, and stops on abort', async () => {
    const dir = await fsp.mkdtemp(path.join(tmpdir(), 'unleash-safe-read-'));
    try {
      const file = path.join(dir, 'a.json');
      await fsp.writeFile(file, 'hello');
      await fsp.symlink(file, path.join(dir, 'link.json'));
      assert.equal((await readRegularFile(file, { maxBytes: 10, followLinks: false }))?.toString(), 'hello');
      assert.equal(await readRegularFile(path.join(dir, 'missing.json'), { maxBytes: 10, followLinks: false }), undefined);
      assert.equal(await readRegularFile(path.join(file, 'below-a-file.json'), { maxBytes: 10, followLinks: false }), undefined);
      await assert.rejects(readRegularFile(path.join(dir, 'link.json'), { maxBytes: 10, followLinks: false }), { code: 'ELOOP' });
      assert.equal((await readRegularFile(path.join(dir, 'link.json'), { maxBytes: 10, followLinks: true }))?.toString(), 'hello');
      await assert.rejects(readRegularFile(file, { maxBytes: 3, followLinks: false }), { code: 'EFBIG' });
      await assert.rejects(readRegularFile(dir, { maxBytes: 3, followLinks: false }), { code: 'EISDIR' });
      await assert.rejects(readRegularFile(file, { maxBytes: 10, followLinks: false, signal: AbortSignal.abort() }), { name: 'AbortError' });
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('how code names flags (unleash.hover.*), checked where the settings are read', () => {
  it('languages: every file and untitled document unless languages are named', () => {
    assert.deepEqual(languageFilters([]), [{ scheme: 'file' }, { scheme: 'untitled' }]);
    assert.deepEqual(languageFilters(['go', '*']), [{ scheme: 'file' }, { scheme: 'untitled' }]);
    assert.deepEqual(languageFilters('go'), [{ scheme: 'file' }, { scheme: 'untitled' }]);
    assert.deepEqual(languageFilters([' go ', 'go', 3, '']), [
      { scheme: 'file', language: 'go' },
      { scheme: 'untitled', language: 'go' },
    ]);
    // A virtual or browser workspace's documents (github.dev: vscode-vfs) are covered beside files and untitled ones.
    const schemes = ['file', 'vscode-vfs', 'untitled'];
    assert.deepEqual(languageFilters(['*'], schemes), [{ scheme: 'file' }, { scheme: 'vscode-vfs' }, { scheme: 'untitled' }]);
    assert.deepEqual(languageFilters(['go'], schemes), [
      { scheme: 'file', language: 'go' },
      { scheme: 'vscode-vfs', language: 'go' },
      { scheme: 'untitled', language: 'go' },
    ]);
  });

  it('name transforms: the well-formed ones, and what is wrong with the others', () => {
    const problems: SettingProblem[] = [];
    assert.deepEqual(
      validTransforms(
        [
          { kind: 'camelToKebab' },
          { kind: 'suffix', value: '_FLAG' },
          { kind: 'suffix', value: 3 },
          { kind: 'chain', transforms: [{ kind: 'snakeToKebab' }, 'x'] },
          null,
        ],
        problems,
      ),
      [{ kind: 'camelToKebab' }, { kind: 'suffix', value: '_FLAG' }, { kind: 'chain', transforms: [{ kind: 'snakeToKebab' }] }],
    );
    assert.deepEqual(
      problems.map((p) => `${p.setting}: ${p.problem}`),
      [
        'unleash.hover.nameTransforms: a "suffix" transform needs a non-empty "value"',
        'unleash.hover.nameTransforms: unknown transform "x"',
        'unleash.hover.nameTransforms: unknown transform null',
      ],
    );
    assert.deepEqual(validTransforms('nope'), []);
  });

  it('SDK calls: the non-empty names, or the built-in list when none is left', () => {
    assert.deepEqual(validSdkCalls(['isOn', ' ', 7, 'check?']), ['isOn', 'check?']);
    assert.equal(validSdkCalls(['', '  ']), undefined);
    assert.equal(validSdkCalls('isOn'), undefined);
    assert.equal(validSdkCalls(undefined), undefined);
  });
});

describe('list settings a workspace can write: within the intake budget, the cut said', () => {
  const shown = (problems: SettingProblem[]) => problems.map((p) => `${p.setting}: ${p.problem}`);

  it('SDK calls: a workspace naming 50,000 keeps the first 100; a name too long or that no call can have is left out', () => {
    const problems: SettingProblem[] = [];
    const calls = Array.from({ length: 50_000 }, (_, i) => `customCall${i}`);
    assert.deepEqual(validSdkCalls(calls, problems), calls.slice(0, INTAKE_BUDGET.settingItems));
    assert.deepEqual(shown(problems), ['unleash.hover.sdkCalls: the entries past the first 100 (50000 in all)']);

    const odd: SettingProblem[] = [];
    assert.deepEqual(validSdkCalls(['isOn', 'x'.repeat(201), 'client.isEnabled', 'is on', 'enabled?', 'check!'], odd), ['isOn', 'enabled?', 'check!']);
    assert.deepEqual(shown(odd), [
      'unleash.hover.sdkCalls: an entry of 201 characters, more than 200: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…',
      'unleash.hover.sdkCalls: "client.isEnabled" is not a function name (letters, digits, _ and $, and a last ? or !)',
      'unleash.hover.sdkCalls: "is on" is not a function name (letters, digits, _ and $, and a last ? or !)',
    ]);
  });

  it('name transforms: 100 in all, those inside chains counted; a value too long is left out', () => {
    const problems: SettingProblem[] = [];
    const many = Array.from({ length: 50_000 }, (_, i) => ({ kind: 'prefix', value: `P${i}_` }));
    assert.equal(validTransforms(many, problems).length, 100);
    assert.deepEqual(shown(problems), ['unleash.hover.nameTransforms: the entries past the first 100 (50000 in all)']);

    // Nested chains: 3 × 60 transforms inside two chains, read until 100 are counted (the chains count too).
    const nested: SettingProblem[] = [];
    const chain = { kind: 'chain', transforms: Array.from({ length: 60 }, () => ({ kind: 'camelToKebab' })) };
    const read = validTransforms([chain, chain, chain], nested);
    assert.deepEqual(read.map((t) => (t.kind === 'chain' ? t.transforms.length : 0)), [60, 38]);
    assert.deepEqual(shown(nested), ['unleash.hover.nameTransforms: the transforms past the first 100 (those inside a chain count too)']);

    const long: SettingProblem[] = [];
    assert.deepEqual(validTransforms([{ kind: 'suffix', value: '_'.repeat(201) }, { kind: 'suffix', value: '_FLAG' }], long), [{ kind: 'suffix', value: '_FLAG' }]);
    assert.match(shown(long).join(), /^unleash\.hover\.nameTransforms: an entry of 201 characters, more than 200: "_{10}/);
  });

  it('languages: the first 100, each at most 200 characters', () => {
    const problems: SettingProblem[] = [];
    const ids = Array.from({ length: 1_000 }, (_, i) => `lang${i}`);
    assert.equal(languageFilters(ids, ['file'], problems).length, 100);
    assert.deepEqual(shown(problems), ['unleash.hover.languages: the entries past the first 100 (1000 in all)']);
  });

  it('an object setting: its first 100 keys, the cut said', () => {
    const problems: SettingProblem[] = [];
    const raw = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`kind${i}`, 'off']));
    assert.equal(Object.keys(boundedObject(raw, 'unleash.diagnostics.severity', problems) as object).length, 100);
    assert.deepEqual(shown(problems), ['unleash.diagnostics.severity: the keys past the first 100']);
    assert.deepEqual(boundedObject({ stale: 'off' }, 'unleash.diagnostics.severity', problems), { stale: 'off' });
    assert.equal(boundedObject('x', 'unleash.diagnostics.severity', problems), 'x');
  });
});
