/**
 * Every text a user reads can be translated:
 *   - the manifest: every user-visible string of package.json is a `%key%` of package.nls.json, and every key there is
 *     used;
 *   - the code: l10n/bundle.l10n.json is exactly what @vscode/l10n-dev extracts from src/ now (a new `l10n.t` string
 *     without `npm run l10n` fails here), and the files of ENFORCED pass no raw text to the editor's messages, progress
 *     titles, pickers, input boxes and tree/status items, and src/model/ and src/api/ write no phrase outside
 *     `l10n.t` (both read with the TypeScript compiler);
 *   - plurals, lists and relative times go through `Intl` (src/model/text/intl.ts), English unchanged.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import * as l10n from '@vscode/l10n';
import { getL10nJson } from '@vscode/l10n-dev';
import * as ts from 'typescript';
import { currentLocale, joinAlternatives, joinValues, pluralForm, setLocale, timeAgo } from '../../src/model/text/intl';

const root = path.join(__dirname, '..', '..');
const src = path.join(root, 'src');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const nls: Record<string, string> = JSON.parse(readFileSync(path.join(root, 'package.nls.json'), 'utf8'));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

const relative = (file: string) => path.relative(src, file).split(path.sep).join('/');

// ---------------------------------------------------------------------------------------------------------------
// The manifest
// ---------------------------------------------------------------------------------------------------------------

/** Where a manifest string is user-visible, as `[json path, value]`. `category: "Unleash"` is the product's name. */
function visibleManifestStrings(): Array<[string, unknown]> {
  const found: Array<[string, unknown]> = [];
  const add = (where: string, value: unknown) => {
    if (value !== undefined) found.push([where, value]);
  };
  add('displayName', manifest.displayName);
  add('description', manifest.description);
  for (const [name, capability] of Object.entries(manifest.capabilities ?? {})) add(`capabilities.${name}.description`, (capability as { description?: string }).description);
  const c = manifest.contributes;
  for (const command of c.commands ?? []) {
    add(`command ${command.command} title`, command.title);
    add(`command ${command.command} shortTitle`, command.shortTitle);
  }
  for (const [where, containers] of Object.entries(c.viewsContainers ?? {})) {
    for (const container of containers as Array<{ id: string; title: string }>) add(`viewsContainers.${where} ${container.id}`, container.title);
  }
  for (const views of Object.values(c.views ?? {})) {
    for (const view of views as Array<{ id: string; name: string; contextualTitle?: string }>) {
      add(`view ${view.id} name`, view.name);
      add(`view ${view.id} contextualTitle`, view.contextualTitle);
    }
  }
  for (const welcome of c.viewsWelcome ?? []) add(`viewsWelcome ${welcome.when}`, welcome.contents);
  for (const configuration of [c.configuration].flat()) {
    add('configuration.title', configuration.title);
    const walk = (properties: Record<string, Record<string, unknown>>, prefix: string) => {
      for (const [id, setting] of Object.entries(properties)) {
        for (const field of ['description', 'markdownDescription', 'deprecationMessage', 'markdownDeprecationMessage']) add(`${prefix}${id} ${field}`, setting[field]);
        for (const field of ['enumDescriptions', 'markdownEnumDescriptions']) {
          for (const [i, text] of ((setting[field] as unknown[]) ?? []).entries()) add(`${prefix}${id} ${field}[${i}]`, text);
        }
        if (setting.properties) walk(setting.properties as Record<string, Record<string, unknown>>, `${prefix}${id}.`);
        if (setting.items && typeof setting.items === 'object') walk({ items: setting.items as Record<string, unknown> }, `${prefix}${id}.`);
      }
    };
    walk(configuration.properties ?? {}, '');
  }
  return found;
}

describe('l10n: the manifest', () => {
  const used = new Set<string>();
  for (const match of readFileSync(path.join(root, 'package.json'), 'utf8').matchAll(/"%([^"%]+)%"/g)) used.add(match[1] as string);

  it('has every %key% of package.json in package.nls.json', () => {
    assert.deepEqual([...used].filter((key) => typeof nls[key] !== 'string' || nls[key] === ''), []);
  });

  it('uses every key of package.nls.json', () => {
    assert.deepEqual(Object.keys(nls).filter((key) => !used.has(key)), []);
  });

  it('has no literal text where the user reads it: titles, names, welcome contents, setting and capability descriptions', () => {
    const strings = visibleManifestStrings();
    assert.ok(strings.length > 50, `the walk sees the manifest's strings (${strings.length})`);
    assert.ok(strings.some(([where]) => where.includes('viewsWelcome')) && strings.some(([where]) => where.includes('severity.unknown')));
    assert.deepEqual(strings.filter(([, value]) => typeof value !== 'string' || !/^%[^%]+%$/.test(value)), []);
  });

  it('names the folder of the code bundle, and the package ships it', () => {
    assert.equal(manifest.l10n, './l10n');
    const ignore = readFileSync(path.join(root, '.vscodeignore'), 'utf8').split('\n');
    assert.ok(ignore.includes('!l10n/bundle.l10n*.json'), '.vscodeignore keeps l10n/bundle.l10n*.json in the package');
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The code's bundle
// ---------------------------------------------------------------------------------------------------------------

describe('l10n: the bundle of the code', () => {
  it('is what @vscode/l10n-dev extracts from src/ now (run `npm run l10n` after adding or changing a message)', async () => {
    const files = sourceFiles(src).map((file) => ({ extension: path.extname(file), contents: readFileSync(file, 'utf8') }));
    const extracted = await getL10nJson(files);
    const committed = JSON.parse(readFileSync(path.join(root, 'l10n', 'bundle.l10n.json'), 'utf8'));
    assert.ok(Object.keys(extracted).length > 100, `messages found: ${Object.keys(extracted).length}`);
    const missing = Object.keys(extracted).filter((key) => !(key in committed));
    const stale = Object.keys(committed).filter((key) => !(key in extracted));
    assert.deepEqual({ missing, stale }, { missing: [], stale: [] });
    assert.deepEqual(committed, extracted);
  });

  it('translates the vscode-free layers through @vscode/l10n once it is given a bundle (as activate() does)', () => {
    const message = 'Load the flags first: connect to a server or add export files in .unleash/.';
    try {
      l10n.config({ contents: { '{0} file': '{0} Datei', 'Checked {0}: {1} in {2}.': 'Geprüft: {0}, {1} in {2}.' } });
      assert.equal(l10n.t('{0} file', 1), '1 Datei');
      assert.equal(l10n.t('Checked {0}: {1} in {2}.', 'a', 'b', 'c'), 'Geprüft: a, b in c.');
      assert.equal(l10n.t(message), message, 'a message the bundle lacks stays English');
    } finally {
      l10n.config({ contents: {} });
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// No raw text handed to the editor
// ---------------------------------------------------------------------------------------------------------------

/**
 * The files whose every user-visible string goes through `l10n.t`: the editor layer. (The model layer is held to a
 * stricter rule below: no phrase outside `l10n.t` at all.)
 */
const ENFORCED = [
  ...['commands', 'views', 'code', 'hovers', 'services'].flatMap((dir) => sourceFiles(path.join(src, dir)).map(relative)),
  'extension.ts',
].sort();

/** Calls whose arguments the user reads. */
const MESSAGE_CALLS = new Set(['showInformationMessage', 'showWarningMessage', 'showErrorMessage', 'setStatusBarMessage', 'withCancellableProgress']);
/** Properties (in object literals, or assigned) whose value the user reads. */
const TEXT_PROPERTIES = new Set(['title', 'placeHolder', 'placeholder', 'prompt', 'label', 'detail', 'description', 'tooltip', 'message', 'text', 'name']);
/** `name` is visible on a status bar item only; elsewhere (a flag's name, an environment's) it is data. */
const NAME_RECEIVERS = /\bitem$/;

/** Raw text: a string or template literal with a letter outside its `${…}` parts and `$(icon)`s; an address is data. */
function rawText(node: ts.Expression): ts.Node[] {
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) return rawText(node.expression);
  if (ts.isConditionalExpression(node)) return [...rawText(node.whenTrue), ...rawText(node.whenFalse)];
  if (ts.isBinaryExpression(node) && [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(node.operatorToken.kind)) {
    return [...rawText(node.left), ...rawText(node.right)];
  }
  let text: string | undefined;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
  else if (ts.isTemplateExpression(node)) text = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ');
  if (text === undefined) return [];
  if (/^[a-z]+:\/\/\S*$/.test(text)) return [];
  return /\p{L}/u.test(text.replace(/\$\([\w-~]+\)/g, '')) ? [node] : [];
}

function calledName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

/** `file:line: code` for every raw text in `text` that reaches the user. */
function rawUserText(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const report = (nodes: ts.Node[]) => {
    for (const node of nodes) {
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      found.push(`${file}:${line}: ${node.getText().slice(0, 100)}`);
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && MESSAGE_CALLS.has(calledName(node) ?? '')) {
      for (const arg of node.arguments) report(rawText(arg));
    }
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && TEXT_PROPERTIES.has(node.name.text) && node.name.text !== 'name') {
      report(rawText(node.initializer));
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(node.left)) {
      const property = node.left.name.text;
      if (TEXT_PROPERTIES.has(property) && (property !== 'name' || NAME_RECEIVERS.test(node.left.expression.getText()))) report(rawText(node.right));
    }
    if (ts.isNewExpression(node) && /TreeItem$/.test(node.expression.getText())) {
      for (const arg of node.arguments ?? []) report(rawText(arg));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('l10n: no raw text handed to the editor', () => {
  it(`in the editor layer (${ENFORCED.length} files): messages, progress, pickers, input boxes, tree and status items`, () => {
    assert.ok(ENFORCED.includes('commands/connection.ts') && ENFORCED.includes('views/statusBar.ts'));
    const found = ENFORCED.flatMap((file) => rawUserText(file, readFileSync(path.join(src, file), 'utf8')));
    assert.deepEqual(found, []);
  });

  it('sees raw text in every place it looks, and lets translated text, data and icons pass', () => {
    const code = [
      "vscode.window.showInformationMessage('Done.');",
      'vscode.window.showWarningMessage(`Copied ${name}`, "Open");',
      "withCancellableProgress(ok ? 'Saving' : vscode.l10n.t('Loading'), task);",
      "const options = { title: 'Find Flag', placeHolder: vscode.l10n.t('Type'), label: `$(project) ${name}`, detail: pickText(x) };",
      "quickPick.placeholder = 'Project to export';",
      "item.name = 'Unleash';",
      "flag.name = 'data';",
      "new vscode.TreeItem('Loading…');",
      "vscode.window.showErrorMessage(vscode.l10n.t('Failed: {0}', reason), ...labels);",
    ].join('\n');
    assert.deepEqual(rawUserText('sample.ts', code), [
      "sample.ts:1: 'Done.'",
      'sample.ts:2: `Copied ${name}`',
      'sample.ts:2: "Open"',
      "sample.ts:3: 'Saving'",
      "sample.ts:4: 'Find Flag'",
      "sample.ts:5: 'Project to export'",
      "sample.ts:6: 'Unleash'",
      "sample.ts:8: 'Loading…'",
    ]);
  });
});

/**
 * The model layer builds the sentences the editor shows, and the api layer's errors carry sentences it shows: no
 * phrase (two words or more) may be written there outside an `l10n.t` call, except in log lines, request names
 * (`GET feature`, which only the log shows) and PHRASES_ALLOWED.
 */
const PHRASES_ALLOWED = new Set([
  // The cause inside an ExportWriteError (code ESCAPE); the user reads reasonFor()'s translated sentence instead.
  'model/export/exportFolder.ts: `${dir} leads to ${real}`',
  // The name of the listing request, as TimeoutError.request (the message does not include it).
  "api/listing.ts: 'list the flags'",
  // What an open-source server's ui-config says it is (`environment`), compared, never shown.
  "api/client.ts: 'Open Source'",
  // Why no system certificate was added (and the runner's reasons inside it): only logged (services/connection.ts).
  "api/certificateBundles.ts: `${file.path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`",
  "api/certificateBundles.ts: 'no system certificate bundle found'",
  "api/certificateStores.ts: 'node:tls system store'",
  "api/certificateStores.ts: `security find-certificate failed (${failures.join('; ')})`",
  "api/certificateStores.ts: 'no certificate in the macOS keychains'",
  'api/certificateStores.ts: `powershell.exe failed (${reasonOf(error)})`',
  "api/certificateStores.ts: 'no certificate in the Windows certificate store'",
  'api/commandRunner.ts: `${name} printed more than ${maxBytes} bytes`',
  'api/commandRunner.ts: `${file} not found`',
  'api/commandRunner.ts: `${name} did not finish within ${timeoutMs} ms (killed)`',
  'api/commandRunner.ts: `${name} was ended by ${failure.signal}`',
  "api/commandRunner.ts: `${name} exited with code ${failure.code}${detail ? `: ${detail}` : ''}`",
  // Not sentences: the PowerShell script that lists the Windows stores, and a PEM block's frame.
  "api/certificateStores.ts: `foreach ($store in @(${stores})) { '${STORE_MARK}' + $store; Get-ChildItem -Path $store | ForEach-Object { [Convert]::ToBase64String($_.RawData) } }`",
  'api/certificateStores.ts: `-----BEGIN CERTIFICATE-----\\n${body}\\n-----END CERTIFICATE-----`',
]);

function untranslatedPhrases(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const inside = (node: ts.Node, test: (call: ts.CallExpression) => boolean): boolean => {
    for (let at: ts.Node | undefined = node.parent; at; at = at.parent) if (ts.isCallExpression(at) && test(at)) return true;
    return false;
  };
  const visit = (node: ts.Node): void => {
    let value: string | undefined;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) value = node.text;
    else if (ts.isTemplateExpression(node)) value = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ');
    if (value !== undefined && /\p{L}{3,} \p{L}{2,}/u.test(value)) {
      const isMessage = ts.isCallExpression(node.parent) && /\bl10n\.t$/.test(node.parent.expression.getText()) && node.parent.arguments[0] === node;
      const isLog = inside(node, (call) => /\blogger\.(trace|debug|info|warn|error)$/.test(call.expression.getText()));
      const isModule = ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent);
      const isRequestName = /^(GET|POST|PUT|PATCH|DELETE) /.test(value);
      const where = `${file}: ${node.getText()}`;
      if (!isMessage && !isLog && !isModule && !isRequestName && !PHRASES_ALLOWED.has(where)) {
        found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText().slice(0, 100)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('l10n: the model and api layers write their sentences through l10n.t', () => {
  const files = ['model', 'api'].flatMap((dir) => sourceFiles(path.join(src, dir)).map(relative));

  it(`in every file of src/model/ and src/api/ (${files.length} files)`, () => {
    assert.ok(files.includes('model/content/formatError.ts') && files.includes('model/text/constraintText.ts') && files.includes('api/errors.ts'));
    assert.deepEqual(files.flatMap((file) => untranslatedPhrases(file, readFileSync(path.join(src, file), 'utf8'))), []);
  });

  it('sees a phrase in a string or template, and lets messages, logs and single words pass', () => {
    const code = [
      "const a = 'is one of';",
      'const b = `${n} more flags`;',
      "const c = l10n.t('is one of');",
      "this.logger.info(`Loaded ${n} flags from ${label}`);",
      "const d = 'enabled';",
      "const e = l10n.t('{0} of {1}', 'rollout not set', x);",
    ].join('\n');
    assert.deepEqual(untranslatedPhrases('sample.ts', code), [
      "sample.ts:1: 'is one of'",
      'sample.ts:2: `${n} more flags`',
      "sample.ts:6: 'rollout not set'",
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Intl
// ---------------------------------------------------------------------------------------------------------------

describe('l10n: plurals, lists and relative times (src/model/text/intl.ts)', () => {
  afterEach(() => setLocale('en'));

  it('is English until told otherwise, with the texts the extension always showed', () => {
    assert.equal(currentLocale(), 'en');
    const flags = (n: number) => pluralForm(n, { one: `${n} flag`, other: `${n} flags` });
    assert.deepEqual([0, 1, 2, 21].map(flags), ['0 flags', '1 flag', '2 flags', '21 flags']);
    assert.equal(joinValues(['a', 'b', 'c']), 'a, b, c');
    assert.equal(joinValues(['a']), 'a');
    assert.equal(joinValues([]), '');
    assert.equal(joinAlternatives(['"a"', '"b"']), '"a" or "b"');
    assert.equal(joinAlternatives(['a', 'b', 'c']), 'a, b, or c');
    assert.deepEqual(
      [timeAgo(1, 'minute'), timeAgo(5, 'minute'), timeAgo(1, 'hour'), timeAgo(3, 'day'), timeAgo(2, 'month'), timeAgo(1, 'year')],
      ['1 minute ago', '5 minutes ago', '1 hour ago', '3 days ago', '2 months ago', '1 year ago'],
    );
  });

  it("follows the editor's language: its plural forms, list words and relative times", () => {
    setLocale('pl');
    const files = (n: number) => pluralForm(n, { one: 'plik', few: 'pliki', many: 'plików', other: 'pliku' });
    assert.deepEqual([1, 2, 5, 22, 1.5].map(files), ['plik', 'pliki', 'plików', 'pliki', 'pliku']);
    setLocale('de');
    assert.equal(currentLocale(), 'de');
    assert.equal(timeAgo(3, 'day'), 'vor 3 Tagen');
    assert.equal(joinValues(['a', 'b', 'c']), 'a, b und c');
    assert.equal(joinAlternatives(['a', 'b']), 'a oder b');
    assert.equal(pluralForm(2, { one: 'eins', other: 'mehr' }), 'mehr');
  });

  it('falls back to the other form when a language needs one the caller did not give, and to English for a bad tag', () => {
    setLocale('ru');
    assert.equal(pluralForm(3, { one: 'one', other: 'other' }), 'other');
    for (const bad of ['', 'not a locale!', undefined]) {
      setLocale(bad);
      assert.equal(currentLocale(), 'en', String(bad));
      assert.equal(timeAgo(2, 'hour'), '2 hours ago');
    }
  });
});
