/**
 * Phase `server`: the extension connected to the real, seeded Unleash (`unleash.serverUrl` set, the admin token in
 * UNLEASH_API_TOKEN). What a user gets: the Flags tree down to a segment's constraint, hovers on flag names in
 * several languages, Check Tag for an existing and a missing tag, an export written into the workspace.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { SEED, seedFlag, seedFlagsTagged, seedStrategy, type EnvironmentName } from '../../../tools/unleash/seed-data';
import { codeChecks } from './codePhase';
import { driftChecks } from './driftChecks';
import { exportWatchChecks } from './exportWatchChecks';
import { navigationChecks } from './navigationChecks';
import { hoverOn, loadedBundles, row, rows, shown, waitFor, waitForState, workspaceUri, type Row, type Steps } from './util';

const LIVE = SEED.flags.filter((flag) => !flag.archived);

function plural(count: number, word: string, words = `${word}s`): string {
  return `${count} ${count === 1 ? word : words}`;
}

export async function serverPhase(api: ExtensionApi, steps: Steps): Promise<void> {
  const serverUrl = vscode.workspace.getConfiguration('unleash').get<string>('serverUrl') ?? '';
  const host = new URL(serverUrl).host;

  await steps.step('the store loads the seeded server', async () => {
    await waitFor('the server source', () => api.store.currentSource?.kind === 'server');
    await waitForState(api, 'ready');
    assert.equal(api.flagsView.treeView.description, host, 'the view names the server');
    assert.equal(api.flagsView.treeView.message, undefined, 'no message above the tree');
    assert.deepEqual(loadedBundles(), ['core.js', 'extension.js'], 'the Flags view needed the flags: the core bundle is loaded');
  });

  await treeWalk(api, steps);
  await hovers(api, steps, host);
  await codeChecks(api, steps, 'server', host);
  await navigationChecks(api, steps, 'server');
  await checkTag(steps, host);
  await exportEnvironment(steps);
  await codeHovers(steps);
  // Last: they change a flag on the server.
  await flagDetails(api, steps, serverUrl);
  await exportWatchChecks(api, steps);
  await driftChecks(api, steps, (method, path) => adminCall(serverUrl, method, path, undefined));
}

/** A flag name in a comment is prose; the same name in a string literal is code. */
async function codeHovers(steps: Steps): Promise<void> {
  await steps.step('a flag name in a comment gets no hover by default; in a string literal it does', async () => {
    const document = await vscode.workspace.openTextDocument({
      language: 'typescript',
      content: ['// new-checkout-flow ships next week', "const flag = 'new-checkout-flow';", ''].join('\n'),
    });
    const hoverText = async (line: number, character: number) => {
      const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, new vscode.Position(line, character))) ?? [];
      return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    };
    assert.doesNotMatch(await hoverText(0, 8), /new\\-checkout\\-flow/);
    assert.match(await hoverText(1, 20), /\*\*new\\-checkout\\-flow\*\* · release · project default/);
  });
}

/** Admin API calls of the test itself (the extension only reads). */
async function adminCall(serverUrl: string, method: string, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${serverUrl.replace(/\/+$/, '')}${path}`, {
    method,
    headers: { authorization: process.env.UNLEASH_API_TOKEN ?? '', 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${await response.text()}`);
}

async function flagDetails(api: ExtensionApi, steps: Steps, serverUrl: string): Promise<void> {
  const description = `${'A long description, read in full. '.repeat(160).slice(0, 4997)}END`;
  const payload = JSON.stringify({ items: Array.from({ length: 60 }, (_, i) => ({ id: i, label: `item-${i}`, enabled: i % 2 === 0 })) });
  await steps.step('Show Flag Details: a 5,000-character description and a long JSON payload, in full', async () => {
    assert.equal(description.length, 5000);
    const feature = '/api/admin/projects/default/features/admin-panel';
    await adminCall(serverUrl, 'PATCH', feature, [{ op: 'replace', path: '/description', value: description }]);
    await adminCall(serverUrl, 'PUT', `${feature}/environments/development/variants`, [
      { name: 'long', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'json', value: payload } },
    ]);
    await api.store.refresh();
    const uri = await vscode.commands.executeCommand<string>('unleash.showFlagDetails', { project: 'default', name: 'admin-panel' });
    assert.ok(uri?.startsWith('unleash-flag:'), String(uri));
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
    const text = document.getText();
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uri, 'the details are open in the active editor');
    assert.ok(text.startsWith('admin-panel\n'), text.slice(0, 200));
    assert.ok(text.includes(`\nDescription\n-----------\n${description}\n`), 'the whole description');
    const pretty = JSON.stringify(JSON.parse(payload), null, 2).split('\n').join(`\n${' '.repeat(8)}`);
    assert.ok(text.includes(`    - long: 100% · variable · stickiness default\n      Payload (json):\n        ${pretty}\n`), 'the whole payload, indented');
  });
}

async function treeWalk(api: ExtensionApi, steps: Steps): Promise<void> {
  const flag = seedFlag('new-checkout-flow');
  const strategySeed = seedStrategy('new-checkout-flow/development/internal-and-beta').strategy;
  let projects: Row[] = [];
  let flagRow: Row | undefined;
  let development: Row | undefined;
  let inside: Row[] = [];
  let segments: Row[] = [];

  await steps.step('tree root: one row per project with its count of live flags', async () => {
    projects = await rows(api);
    const names = [...new Set(LIVE.map((f) => f.project))].sort();
    assert.deepEqual(
      shown(projects),
      names.map((project) => `${project} — ${plural(LIVE.filter((f) => f.project === project).length, 'flag')}`),
    );
  });

  await steps.step('tree: project default lists its flags by name, archived old-banner left out', async () => {
    const flags = await rows(api, row(projects, 'default'));
    assert.deepEqual(
      flags.map((r) => r.label),
      LIVE.filter((f) => f.project === 'default').map((f) => f.name).sort(),
    );
    flagRow = row(flags, 'new-checkout-flow');
    assert.match(flagRow.description, /^d● p○ · \w+/);
    assert.equal(flagRow.collapsible, vscode.TreeItemCollapsibleState.Collapsed);
  });

  await steps.step('tree: new-checkout-flow shows environments, tags, its child, lifecycle and link', async () => {
    assert.ok(flagRow, 'the flag row');
    const children = await rows(api, flagRow);
    const link = flag.links[0];
    assert.ok(link);
    const expected = [
      `development — enabled · ${plural(flag.environments.development.strategies.length, 'strategy', 'strategies')} · never seen`,
      `production — disabled · ${plural(flag.environments.production.strategies.length, 'strategy', 'strategies')} · never seen`,
      `Tags — ${plural(flag.tags.length, 'tag')}`,
      `${flag.children[0]} — depends on this flag`,
    ];
    assert.deepEqual(shown(children).slice(0, 4), expected);
    assert.match(shown(children)[4] ?? '', /^Lifecycle — \w+ since \d{4}-\d{2}-\d{2}$/);
    assert.equal(shown(children)[5], `${link.title} — ${link.url}`);
    const tags = await rows(api, row(children, 'Tags'));
    assert.deepEqual(shown(tags).sort(), flag.tags.map((t) => `${t.type}:${t.value}`).sort());
    development = row(children, 'development');
  });

  await steps.step('tree: development lists its strategies, the titled gradual rollout first', async () => {
    assert.ok(development, 'the development row');
    const strategies = await rows(api, development);
    assert.deepEqual(shown(strategies), [
      `${strategySeed.title} — Gradual rollout: 50% of userId · 2 constraints · 2 segments · 2 variants`,
      'Standard: on for everyone',
    ]);
    inside = await rows(api, row(strategies, strategySeed.title ?? ''));
  });

  await steps.step('tree: the strategy shows its constraints worded, then variants and segments (its label says every parameter)', async () => {
    assert.deepEqual(shown(inside), [
      'tenantId is one of acme, globex',
      'userId is not one of blocked-user-1, blocked-user-2',
      'Variants — 2 variants',
      'Segments — 2 segments',
    ]);
    const variants = await rows(api, row(inside, 'Variants'));
    assert.deepEqual(shown(variants), [
      'blue — 50% — variable · stickiness: userId · json: {"color":"blue","rounded":true}',
      'green — 50% — variable · stickiness: userId · csv: green,#00ff00,1',
    ]);
  });

  await steps.step('tree: segments internal-users and beta-testers, read from the server', async () => {
    segments = await rows(api, row(inside, 'Segments'));
    const expected = strategySeed.segments.map((name) => {
      const segment = SEED.segments.find((s) => s.name === name);
      assert.ok(segment);
      return `${name} — global · ${plural(segment.constraints.length, 'constraint')} · ${segment.description}`;
    });
    assert.deepEqual(shown(segments), expected);
  });

  await steps.step("tree: a segment's constraints (internal-users → userId ends with @example.com)", async () => {
    const internal = await rows(api, row(segments, 'internal-users'));
    assert.deepEqual(shown(internal), ['userId ends with @example.com (case-insensitive)']);
    const beta = await rows(api, row(segments, 'beta-testers'));
    assert.deepEqual(shown(beta), ['tenantId is one of acme, initech', 'appVersion is a SemVer greater than 2.0.0']);
  });
}

/** The environment rows of a flag's hover, `| development | ● enabled | … |`, from SEED. */
function environmentRows(name: string): RegExp[] {
  const flag = seedFlag(name);
  return (['development', 'production'] as EnvironmentName[]).map(
    (env) => new RegExp(`\\| ${env} \\| ${flag.enabledIn.includes(env) ? '●\u00a0enabled' : '○\u00a0disabled'} \\|`),
  );
}

async function hovers(api: ExtensionApi, steps: Steps, host: string): Promise<void> {
  await steps.step('hover on new-checkout-flow (checkout.ts): name, type, project, a row per environment', async () => {
    const { plain } = await hoverOn('src/checkout.ts', "'new-checkout-flow'");
    assert.match(plain, /\*\*new-checkout-flow\*\* · release · project default/);
    assert.match(plain, /\| Environment \| State \| Last\u00a0seen \|/);
    for (const line of environmentRows('new-checkout-flow')) assert.match(plain, line);
    assert.match(plain, new RegExp(`_Source: ${host.replace(/\./g, '\\.')}_`));
  });

  await steps.step('hover again once the details are read: strategies, variants, tags', async () => {
    await api.store.feature('default', 'new-checkout-flow');
    const { plain } = await hoverOn('src/checkout.ts', "'new-checkout-flow'");
    assert.match(plain, /\*\*development\*\* · 2 strategies: Gradual rollout: 50% of userId \(“Internal and beta users”/);
    assert.match(plain, /\*\*production\*\* · 1 strategy: .*“Staff e-mail addresses”/);
    assert.match(plain, /\*\*Tags:\*\* .*team:payments/);
    assert.doesNotMatch(plain, /Loading strategies/);
  });

  await steps.step('hover on the typo new-chekout-flow says no such flag on the server', async () => {
    const { plain } = await hoverOn('src/checkout.ts', "'new-chekout-flow'");
    assert.match(plain, new RegExp(`No flag named \`new-chekout-flow\` on ${host.replace(/\./g, '\\.')}`));
    assert.match(plain, /`isEnabled` reads a flag by this name/);
  });

  await steps.step('an archived name (old-banner in src/banner.ts): archived in the first hover and in the Problems panel, never unknown; its quick fix opens it', async () => {
    const uri = workspaceUri('src/banner.ts');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    // The first hover: the lookup among archived flags may still be out; the hover waits for it.
    const { plain } = await hoverOn('src/banner.ts', "'old-banner'");
    assert.match(plain, /^\*\*old-banner\*\* is archived · project default · archived \d{4}-\d{2}-\d{2}\n/);
    assert.match(plain, /`isEnabled` reads a flag by this name\. SDKs no longer receive archived flags/);
    assert.doesNotMatch(plain, /No flag named/);
    const diagnostic = await waitFor('the archived diagnostic', () => vscode.languages.getDiagnostics(uri).find((d) => d.code === 'archived-flag'));
    assert.equal(diagnostic.message, 'Flag "old-banner" (project default) is archived: code reading it always gets the default.');
    assert.deepEqual(vscode.languages.getDiagnostics(uri).map((d) => d.code), ['archived-flag'], 'no unknown-name warning beside it');
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, diagnostic.range);
    const titles = actions.map((action) => action.title);
    assert.deepEqual(titles.filter((title) => title.includes('"old-banner"')), ['Show details of "old-banner"', 'Open "old-banner" in Unleash', 'Copy flag name "old-banner"']);
    const show = actions.find((action) => action.title === 'Show details of "old-banner"');
    assert.ok(show?.command);
    await vscode.commands.executeCommand(show.command.command, ...(show.command.arguments ?? []));
    const details = await waitFor('the details document', () => {
      const text = vscode.window.activeTextEditor?.document.getText() ?? '';
      return text.startsWith('old-banner\n') && !text.includes('Loading') && text;
    });
    assert.match(details, /\nArchived: yes\n/);
    assert.match(details, /Unleash does not serve the strategies and variants of an archived flag/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  for (const [file, needle, name] of [
    ['src/checkout.ts', "useFlag('pricing-experiment')", 'pricing-experiment'],
    ['app.py', '"maintenance-mode"', 'maintenance-mode'],
    ['main.go', '"ops-log-level"', 'ops-log-level'],
    ['config.yaml', 'checkout-fraud-check', 'checkout-fraud-check'],
  ] as const) {
    await steps.step(`hover on ${name} in ${file}`, async () => {
      const offset = needle.indexOf(name);
      const uri = workspaceUri(file);
      const document = await vscode.workspace.openTextDocument(uri);
      const at = document.getText().indexOf(needle);
      assert.ok(at >= 0, `${needle} in ${file}`);
      const position = document.positionAt(at + offset + 2);
      const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position)) ?? [];
      const plain = hovers
        .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)))
        .join('\n')
        .replace(/\\([!-/:-@[-`{-~])/g, '$1');
      const flag = seedFlag(name);
      assert.match(plain, new RegExp(`\\*\\*${name}\\*\\* · ${flag.type} · project ${flag.project}`));
      for (const line of environmentRows(name)) assert.match(plain, line);
    });
  }
}

interface CheckTagAnswer {
  exists?: boolean;
  tag?: string;
  message?: string;
  flags?: string[];
  source?: string;
  suggestion?: string;
  error?: string;
}

async function checkTag(steps: Steps, host: string): Promise<void> {
  await steps.step('Check Tag team:payments: exists, with the flags that carry it', async () => {
    const answer = await vscode.commands.executeCommand<CheckTagAnswer>('unleash.checkTag', { type: 'team', value: 'payments' });
    const carriers = seedFlagsTagged('team', 'payments').map((f) => f.name).sort();
    assert.deepEqual(answer, {
      exists: true,
      tag: 'team:payments',
      message: `Tag team:payments exists (${carriers.length} flags in the Flags view carry it).`,
      flags: carriers,
      source: 'server',
    });
  });

  await steps.step('Check Tag team:paymnts: missing, suggests team:payments', async () => {
    const answer = await vscode.commands.executeCommand<CheckTagAnswer>('unleash.checkTag', 'team:paymnts');
    assert.deepEqual(answer, {
      exists: false,
      tag: 'team:paymnts',
      message: `No tag team:paymnts on ${host}. Did you mean team:payments?`,
      flags: [],
      source: 'server',
      suggestion: 'team:payments',
    });
  });

  const spacedNote = 'Its value starts and ends with spaces, which are part of the tag.';
  const spacedCarriers = seedFlagsTagged('simple', ' legacy ').map((f) => f.name).sort();

  await steps.step('Check Tag "simple: legacy " typed with the spaces at its ends: exists, and the answer says they are part of it', async () => {
    assert.deepEqual(spacedCarriers, ['ops-log-level']);
    const answer = await vscode.commands.executeCommand<CheckTagAnswer>('unleash.checkTag', 'simple: legacy ');
    assert.deepEqual(answer, {
      exists: true,
      tag: 'simple: legacy ',
      message: `Tag simple:" legacy " exists (1 flag in the Flags view carries it). ${spacedNote}`,
      flags: spacedCarriers,
      source: 'server',
    });
  });

  await steps.step('Check Tag simple:legacy: missing; "Did you mean" offers the real value, and checking it finds it', async () => {
    const answer = await vscode.commands.executeCommand<CheckTagAnswer>('unleash.checkTag', 'simple:legacy');
    assert.deepEqual(answer, {
      exists: false,
      tag: 'simple:legacy',
      message: `No tag simple:legacy on ${host}. Did you mean simple:" legacy "?`,
      flags: [],
      source: 'server',
      suggestion: 'simple: legacy ',
    });
    // What the suggestion's button runs: Check Tag on the tag it names.
    const suggested = await vscode.commands.executeCommand<CheckTagAnswer>('unleash.checkTag', { type: 'simple', value: ' legacy ' });
    assert.equal(suggested.exists, true, suggested.message);
    assert.equal(suggested.message, `Tag simple:" legacy " exists (1 flag in the Flags view carries it). ${spacedNote}`);
  });
}

interface ExportResultLike {
  path?: string;
  bytes?: number;
  flags?: number;
  strategies?: number;
  changed?: boolean;
  existed?: boolean;
  message?: string;
  error?: string;
}

interface ExportFile {
  features: { name: string; project: string }[];
  featureStrategies: { featureName: string; title?: string | null }[];
  featureEnvironments: { featureName: string; enabled: boolean; environment?: string }[];
  featureTags?: { featureName: string; tagType?: string; tagValue: string }[];
}

async function exportEnvironment(steps: Steps): Promise<void> {
  const file = workspaceUri('.unleash/development.json');
  let first: Uint8Array | undefined;

  await steps.step('Export Environment development (all flags) writes .unleash/development.json with the seed', async () => {
    const result = await vscode.commands.executeCommand<ExportResultLike>('unleash.exportEnvironment', {
      environment: 'development',
      scope: { kind: 'all' },
    });
    assert.equal(result.error, undefined, result.error);
    assert.equal(result.path, file.fsPath);
    first = await vscode.workspace.fs.readFile(file);
    assert.equal(first.byteLength, result.bytes, 'the file holds the bytes the command reports');
    const text = new TextDecoder().decode(first);
    const data = JSON.parse(text) as ExportFile;
    assert.deepEqual(data.features.map((f) => f.name).sort(), LIVE.map((f) => f.name).sort());
    assert.equal(result.flags, LIVE.length);
    const strategies = LIVE.reduce((n, f) => n + f.environments.development.strategies.length, 0);
    assert.equal(data.featureStrategies.length, strategies);
    assert.equal(result.strategies, strategies);
    for (const flag of LIVE) {
      const state = data.featureEnvironments.find((e) => e.featureName === flag.name);
      assert.equal(state?.enabled, flag.enabledIn.includes('development'), `${flag.name} enabled in development`);
    }
    const payments = (data.featureTags ?? []).filter((t) => t.tagType === 'team' && t.tagValue === 'payments').map((t) => t.featureName);
    assert.deepEqual(payments.sort(), seedFlagsTagged('team', 'payments').map((f) => f.name).sort());
    assert.match(result.message ?? '', /^Exported 8 flags \([\d.]+ KB\) from development to \.unleash\/development\.json/);
    const token = process.env.UNLEASH_API_TOKEN ?? '';
    assert.ok(token && !text.includes(token), 'the token is not in the file');
  });

  await steps.step('a second export is byte-identical and leaves the file alone', async () => {
    assert.ok(first, 'the first export');
    const before = (await vscode.workspace.fs.stat(file)).mtime;
    const result = await vscode.commands.executeCommand<ExportResultLike>('unleash.exportEnvironment', {
      environment: 'development',
      scope: 'all',
    });
    assert.equal(result.changed, false);
    assert.match(result.message ?? '', /unchanged since the last export\.$/);
    const second = await vscode.workspace.fs.readFile(file);
    assert.ok(Buffer.from(second).equals(Buffer.from(first)), 'byte-identical');
    assert.equal((await vscode.workspace.fs.stat(file)).mtime, before, 'not rewritten');
  });

  await steps.step('Export with a tag scope (team:payments, production) into another file', async () => {
    const result = await vscode.commands.executeCommand<ExportResultLike>('unleash.exportEnvironment', {
      environment: 'production',
      scope: { kind: 'tag', type: 'team', value: 'payments' },
      template: 'exports/${environment}-payments.json',
    });
    assert.equal(result.error, undefined, result.error);
    assert.equal(result.path, workspaceUri('exports/production-payments.json').fsPath);
    const data = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(workspaceUri('exports/production-payments.json')))) as ExportFile;
    assert.deepEqual(data.features.map((f) => f.name).sort(), seedFlagsTagged('team', 'payments').map((f) => f.name).sort());
  });

  await steps.step('the message names the file written as it is called: exports/notes](draft).json, no space added', async () => {
    const result = await vscode.commands.executeCommand<ExportResultLike>('unleash.exportEnvironment', {
      environment: 'production',
      scope: { kind: 'project', project: 'checkout' },
      template: 'exports/notes](draft).json',
    });
    assert.equal(result.error, undefined, result.error);
    assert.equal(result.path, workspaceUri('exports/notes](draft).json').fsPath);
    assert.match(result.message ?? '', /^Exported 2 flags of project checkout \([\d.]+ (B|KB)\) from production to exports\/notes\]\(draft\)\.json\.$/);
  });
}
