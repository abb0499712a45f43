/**
 * Flags where code is written, as the user sees them: the completion items offered inside SDK calls, the
 * diagnostics in the Problems panel (message, range, severity, code) and their quick fixes, for TypeScript,
 * JavaScript, Python, Go and Java snippets, hostile names included; the status bar's text; Find Usages' spellings.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeatureSummary } from '../../src/api/schemas';
import { Catalog } from '../../src/model/catalog';
import { completionDetail, completionSpotAt, FlagCompletions } from '../../src/model/flagCompletion';
import { DEFAULT_SEVERITIES, FlagAnalyzer, severitiesFrom, type AnalysisOptions } from '../../src/model/flagDiagnostics';
import { sdkCallLiterals } from '../../src/model/sdkCalls';
import { flagQuickFixes } from '../../src/model/flagQuickFixes';
import { flagSpellings, usageSearchArgs } from '../../src/model/flagSpellings';
import { FlagSuggester } from '../../src/model/flagSuggestions';
import { statusContent } from '../../src/model/statusBarContent';

const env = (development: boolean, production: boolean) => [
  { name: 'development', enabled: development, sortOrder: 1 },
  { name: 'production', enabled: production, sortOrder: 2 },
];
const flags: FeatureSummary[] = [
  { name: 'new-checkout-flow', project: 'default', type: 'release', description: 'New **checkout** [x](command:evil)', environments: env(true, false) },
  { name: 'old-banner', project: 'default', type: 'release', stale: true, environments: env(true, true) },
  { name: 'legacy-search', project: 'default', type: 'kill-switch', archived: true, environments: env(true, true) },
  { name: 'sunset-page', project: 'web', type: 'release', lifecycle: { stage: 'completed', enteredStageAt: '2026-01-02T00:00:00.000Z' }, environments: env(true, true) },
  { name: 'dark-mode', project: 'web', type: 'experiment', environments: env(false, false) },
  { name: 'pay-v2', project: 'payments', type: 'release', environments: env(true, true) },
  // Hostile names (an export file may hold anything).
  { name: 'a"b', project: 'default' },
  { name: "it's", project: 'default' },
  { name: '$(alert)', project: 'default' },
  { name: 'back\\slash', project: 'default' },
];
const catalog = new Catalog(flags);
const analyzer = new FlagAnalyzer(catalog);
const server: AnalysisOptions = { sourceLabel: 'unleash.example.com', sourceKind: 'server' };
const lines = (...text: string[]) => text.join('\n');

/** The diagnostics as the Problems panel lists them: [line:start-end] severity code message. */
function problems(text: string, options: AnalysisOptions = server): string[] {
  return analyzer.analyse(text, options).map((d) => `[${d.line}:${d.start}-${d.end}] ${d.severity} ${d.code} ${d.message}`);
}

describe('flag diagnostics', () => {
  it('TypeScript: a typo, a stale flag, an archived flag; nothing for known live flags or template strings', () => {
    const text = lines(
      `if (unleash.isEnabled('new-checkout-flw')) {`,
      `  const variant = unleash.getVariant("old-banner");`,
      '  const on = useFlag(`legacy-search`) || isEnabled(`${prefix}-x`) || isEnabled("pay-v2");',
      `}`,
    );
    assert.deepEqual(problems(text), [
      '[0:23-39] warning unknown-flag No flag named "new-checkout-flw" on unleash.example.com. Did you mean "new-checkout-flow"?',
      '[1:38-48] information stale-flag Flag "old-banner" is marked stale (project default): ready to remove.',
      '[2:22-35] warning archived-flag Flag "legacy-search" is archived (project default): code reading it always gets the default.',
    ]);
  });

  it('JavaScript: optional calls, extra arguments, a name close to a stale flag', () => {
    const text = lines(`const on = unleash.isEnabled?.('old-baner', context);`, `// isEnabled('commented-out-typo') is still a call`);
    assert.deepEqual(problems(text), [
      '[0:32-41] warning unknown-flag No flag named "old-baner" on unleash.example.com. Did you mean "old-banner"?',
      '[1:14-32] warning unknown-flag No flag named "commented-out-typo" on unleash.example.com. Check the spelling; the flag may also be archived or in a project this workspace does not read.',
    ]);
  });

  it('Python: is_enabled/get_variant; f-strings are not checked; offline wording', () => {
    const text = lines(
      `if client.is_enabled("pay-v3"):`,
      `    variant = client.get_variant('sunset-page')`,
      `if client.is_enabled(f"new-{name}"):`,
    );
    assert.deepEqual(problems(text, { sourceLabel: '.unleash/production.json', sourceKind: 'files' }), [
      '[0:22-28] warning unknown-flag No flag named "pay-v3" in .unleash/production.json. Did you mean "pay-v2"?',
      '[1:34-45] information completed-flag Flag "sunset-page" completed its lifecycle (project web): ready to remove.',
    ]);
  });

  it('Go: IsEnabled and OpenFeature calls after a context argument', () => {
    const text = lines(`if unleash.IsEnabled("dark-mode") {`, `	v, _ := client.BooleanValue(ctx, "sunset-page", false)`);
    assert.deepEqual(problems(text), [
      '[0:22-31] hint disabled-flag Flag "dark-mode" is disabled in every environment (project web).',
      '[1:35-46] information completed-flag Flag "sunset-page" completed its lifecycle (project web): ready to remove.',
    ]);
  });

  it('Java: case matters, and the suggestion says which spelling exists', () => {
    const text = lines(`if (unleash.isEnabled("legacy-search")) {`, `    Variant v = unleash.getVariant("New-Checkout-Flow");`);
    assert.deepEqual(problems(text), [
      '[0:23-36] warning archived-flag Flag "legacy-search" is archived (project default): code reading it always gets the default.',
      '[1:36-53] warning unknown-flag No flag named "New-Checkout-Flow" on unleash.example.com. Did you mean "new-checkout-flow"?',
    ]);
  });

  it('hostile text in code and in flag names stays plain, one bounded line', () => {
    const long = 'x'.repeat(150);
    const text = lines(`isEnabled("$(alert) [x](command:evil)")`, `isEnabled('${long}')`, `isEnabled('a"c')`);
    const found = problems(text);
    assert.equal(found[0], '[0:11-37] warning unknown-flag No flag named "$(alert) [x](command:evil)" on unleash.example.com. Check the spelling; the flag may also be archived or in a project this workspace does not read.');
    assert.equal(found[1], `[1:11-161] warning unknown-flag No flag named "${'x'.repeat(99)}…" on unleash.example.com. Check the spelling; the flag may also be archived or in a project this workspace does not read.`);
    assert.equal(found[2], '[2:11-14] warning unknown-flag No flag named "a"c" on unleash.example.com. Did you mean "a"b"?');
    assert.equal(found.length, 3);
  });

  it('severities come from the settings; off hides a kind and the next kind that applies is used', () => {
    const text = lines(`isEnabled("old-banner")`, `isEnabled("dark-mode")`, `isEnabled("nope")`);
    const severities = severitiesFrom({ stale: 'off', unknown: 'error', disabled: 'information' });
    assert.deepEqual(problems(text, { ...server, severities }), [
      '[1:11-20] information disabled-flag Flag "dark-mode" is disabled in every environment (project web).',
      '[2:11-15] error unknown-flag No flag named "nope" on unleash.example.com. Check the spelling; the flag may also be archived or in a project this workspace does not read.',
    ]);
    const allOff = severitiesFrom({ unknown: 'off', archived: 'off', completed: 'off', stale: 'off', disabled: 'off' });
    assert.deepEqual(problems(text, { ...server, severities: allOff }), []);
  });

  it('reports bad severity settings and keeps the defaults for them', () => {
    const reported: string[] = [];
    assert.deepEqual(severitiesFrom({ stale: 'loud', typo: 'off', archived: 'error' }, reported), { ...DEFAULT_SEVERITIES, archived: 'error' });
    assert.deepEqual(reported, [
      'stale: "loud" is not one of error, warning, information, hint, off',
      'unknown kind "typo" (use unknown, archived, completed, stale, disabled)',
    ]);
    assert.deepEqual(severitiesFrom('warning', reported), DEFAULT_SEVERITIES);
    assert.equal(reported[2], 'expected an object such as {"stale": "off"}');
  });

  it('name transforms resolve code spellings to flags', () => {
    const text = `if (isEnabled("NEW_CHECKOUT_FLOW") || isEnabled("OLD_BANNER")) {}`;
    assert.deepEqual(problems(text, { ...server, transforms: [{ kind: 'screamingSnakeToKebab' }] }), [
      '[0:49-59] information stale-flag Flag "old-banner" is marked stale (project default): ready to remove.',
    ]);
  });

  it('a name in several projects: archived only when archived in all of them', () => {
    const two = new FlagAnalyzer(new Catalog([
      { name: 'shared', project: 'a', archived: true },
      { name: 'shared', project: 'b' },
    ]));
    assert.deepEqual(two.analyse(`isEnabled('shared')`, server), []);
  });

  it('a name held by 3,000 projects and read 3,000 times: each use gets its own place, the message its projects', () => {
    const many = new FlagAnalyzer(new Catalog(Array.from({ length: 3_000 }, (_, i) => ({ name: 'shared', project: `p${i}`, stale: i === 1 }))));
    const text = Array.from({ length: 3_000 }, (_, i) => `${' '.repeat(i % 7)}isEnabled('shared'); isEnabled('old-banner')`).join('\n');
    const found = many.analyse(text, server);
    assert.equal(found.length, 6_000);
    assert.deepEqual(
      found.slice(0, 3).map((d) => `[${d.line}:${d.start}-${d.end}] ${d.code} ${d.text} ${d.message}`),
      [
        '[0:11-17] stale-flag shared Flag "shared" is marked stale (projects p0, p1, p10 … and 2997 more): ready to remove.',
        '[0:32-42] unknown-flag old-banner No flag named "old-banner" on unleash.example.com. Check the spelling; the flag may also be archived or in a project this workspace does not read.',
        '[1:12-18] stale-flag shared Flag "shared" is marked stale (projects p0, p1, p10 … and 2997 more): ready to remove.',
      ],
    );
  });
});

describe('quick fixes', () => {
  const fixesOf = (text: string, quote: string, webUrl?: (p: string, n: string) => string | undefined) =>
    analyzer.analyse(text, server).map((d) => flagQuickFixes(d, { quote, webUrl }));

  it('a typo: change to each suggestion, the closest preferred', () => {
    assert.deepEqual(fixesOf(`isEnabled('new-checkout-flw')`, "'"), [
      [{ title: 'Change to "new-checkout-flow"', kind: 'replace', replacement: 'new-checkout-flow', preferred: true }],
    ]);
    const suggester = new FlagSuggester(['pay-v1', 'pay-v2', 'pay-v22', 'xyz']);
    assert.deepEqual(suggester.suggest('pay-v3'), ['pay-v1', 'pay-v2', 'pay-v22']);
  });

  it('never suggests a name that cannot be written between the quotes as it is', () => {
    assert.deepEqual(fixesOf(`isEnabled('a"c')`, "'")[0], [{ title: 'Change to "a"b"', kind: 'replace', replacement: 'a"b', preferred: true }]);
    assert.deepEqual(fixesOf(`isEnabled("a'c")`, '"')[0], []);
    assert.deepEqual(fixesOf(`isEnabled('back\\\\slas')`, "'")[0], []);
  });

  it('a known flag: reveal, show details, open in Unleash (http and https only), copy the name', () => {
    const args = [{ project: 'default', name: 'old-banner' }];
    assert.deepEqual(fixesOf(`isEnabled("old-banner")`, '"', (p, n) => `https://u.example/projects/${p}/features/${n}`)[0], [
      { title: 'Reveal "old-banner" in the Flags tree', kind: 'command', command: 'unleash.revealFlag', args },
      { title: 'Show details of "old-banner"', kind: 'command', command: 'unleash.showFlagDetails', args },
      { title: 'Open "old-banner" in Unleash', kind: 'command', command: 'unleash.openInWebUi', args },
      { title: 'Copy flag name "old-banner"', kind: 'command', command: 'unleash.copyFlagName', args },
    ]);
    const titles = (webUrl?: () => string) => fixesOf(`isEnabled("old-banner")`, '"', webUrl)[0]?.map((fix) => fix.title);
    const always = ['Reveal "old-banner" in the Flags tree', 'Show details of "old-banner"', 'Copy flag name "old-banner"'];
    assert.deepEqual(titles(() => 'javascript:alert(1)'), always);
    assert.deepEqual(titles(undefined), always);
  });

  it('titles show hostile names as written, without icons or links', () => {
    const fixes = flagQuickFixes({ kind: 'stale', suggestions: [], flag: { project: 'p', name: '$(alert) [x](command:evil)' } }, { quote: '"' });
    assert.deepEqual(fixes.map((fix) => fix.title), [
      'Reveal "\\$(alert) [x] (command:evil)" in the Flags tree',
      'Show details of "\\$(alert) [x] (command:evil)"',
      'Copy flag name "\\$(alert) [x] (command:evil)"',
    ]);
  });
});

describe('flag completion', () => {
  const completions = new FlagCompletions(catalog);
  const list = (line: string, character = line.length, ranking = {}) => {
    const spot = completionSpotAt(line, character);
    return spot && completions.items(spot, ranking);
  };

  it('finds the spot inside SDK calls, every quote kind, terminated or being typed', () => {
    assert.deepEqual(completionSpotAt('if (unleash.isEnabled("ne', 25), { start: 23, end: 25, typed: 'ne', quote: '"', call: 'isEnabled' });
    assert.deepEqual(completionSpotAt(`is_enabled('new-x')`, 14), { start: 12, end: 17, typed: 'ne', quote: "'", call: 'is_enabled' });
    assert.deepEqual(completionSpotAt('useFlag(``)', 9), { start: 9, end: 9, typed: '', quote: '`', call: 'useFlag' });
    assert.deepEqual(completionSpotAt('client.BooleanValue(ctx, "', 26), { start: 26, end: 26, typed: '', quote: '"', call: 'BooleanValue' });
    assert.deepEqual(completionSpotAt('isEnabled("ne) && ready', 13), { start: 11, end: 13, typed: 'ne', quote: '"', call: 'isEnabled' }, 'no closing quote: the rest of the line stays');
    assert.equal(completionSpotAt('log("ne', 7), undefined, 'not an SDK call');
    assert.equal(completionSpotAt(`isEnabled('x', '`, 16), undefined, 'not the flag argument');
    assert.equal(completionSpotAt('isEnabled(`${a', 14), undefined, 'template with interpolation');
    assert.equal(completionSpotAt(`isEnabled('ab')`, 5), undefined, 'cursor outside the literal');
  });

  it('offers every insertable name with type, project and state per environment, ranked prefix, project, recent', () => {
    const items = list('if (isEnabled("ne', undefined, { preferredProjects: new Set(['web']), recent: ['pay-v2', 'sunset-page'] });
    assert.deepEqual(items, [
      { label: '$(alert)', detail: 'default', sortText: '1199$(alert)', insertText: '$(alert)' },
      { label: 'dark-mode', detail: 'experiment · web · development ○ production ○', sortText: '1099dark-mode', insertText: 'dark-mode' },
      { label: "it's", detail: 'default', sortText: "1199it's", insertText: "it's" },
      { label: 'legacy-search', detail: 'kill-switch · default · archived · development ● production ●', sortText: '1199legacy-search', insertText: 'legacy-search' },
      { label: 'new-checkout-flow', detail: 'release · default · development ● production ○', sortText: '0199new-checkout-flow', insertText: 'new-checkout-flow' },
      { label: 'old-banner', detail: 'release · default · stale · development ● production ●', sortText: '1199old-banner', insertText: 'old-banner' },
      { label: 'pay-v2', detail: 'release · payments · development ● production ●', sortText: '1100pay-v2', insertText: 'pay-v2' },
      { label: 'sunset-page', detail: 'release · web · development ● production ●', sortText: '1001sunset-page', insertText: 'sunset-page' },
    ]);
    const order = [...(items ?? [])].sort((a, b) => (a.sortText < b.sortText ? -1 : 1)).map((item) => item.label);
    assert.deepEqual(order, ['new-checkout-flow', 'sunset-page', 'dark-mode', 'pay-v2', '$(alert)', "it's", 'legacy-search', 'old-banner']);
  });

  it('leaves out names that would break the literal: its quote, a backslash, `${` in a template', () => {
    const labels = (line: string) => list(line)?.map((item) => item.label);
    assert.ok(!labels('isEnabled("')?.includes('a"b'));
    assert.ok(labels("isEnabled('")?.includes('a"b'));
    assert.ok(!labels("isEnabled('")?.includes("it's"));
    assert.ok(!labels('isEnabled(`')?.some((label) => label.includes('\\')));
    const template = new FlagCompletions(new Catalog([{ name: 'a${b}' }, { name: 'ok' }]));
    assert.deepEqual(template.items({ typed: '', quote: '`' }).map((item) => item.label), ['ok']);
    assert.deepEqual(template.items({ typed: '', quote: '"' }).map((item) => item.label), ['a${b}', 'ok']);
  });

  it('documentation is inert markdown: no emphasis, link or command from flag data', () => {
    assert.equal(
      completions.documentation('new-checkout-flow'),
      [
        '**new\\-checkout\\-flow** · release · project default',
        'New \\*\\*checkout\\*\\* \\[x\\]\\(command\\:evil\\)',
        '- development: enabled\n- production: disabled',
      ].join('\n\n'),
    );
    assert.equal(completions.documentation('$(alert)'), '**\\$\\(alert\\)** · project default');
    assert.equal(
      completions.documentation('sunset-page'),
      '**sunset\\-page** · release · project web\n\nLifecycle: completed since 2026\\-01\\-02\n\n- development: enabled\n- production: enabled',
    );
  });

  it('a name in several projects says so in its detail', () => {
    assert.equal(
      completionDetail([{ name: 'x', project: 'a', type: 'release' }, { name: 'x', project: 'b' }, { name: 'x', project: 'c' }]),
      'release · a · +2 more projects',
    );
  });
});

describe('SDK-call literals of a line', () => {
  it('finds each flag argument once, with its quote; unterminated only when asked', () => {
    const line = `isEnabled('a') && getVariant("b", ctx) && log('c') && useFlag(\`d`;
    assert.deepEqual(sdkCallLiterals(line).map((l) => [l.text, l.quote, l.call]), [['a', "'", 'isEnabled'], ['b', '"', 'getVariant']]);
    assert.deepEqual(sdkCallLiterals(line, { unterminated: true }).map((l) => [l.text, l.unterminated ?? false]), [['a', false], ['b', false], ['d', true]]);
    assert.deepEqual(sdkCallLiterals(`isEnabled('a')`, { sdkCalls: ['check'] }), []);
  });
});

describe('status bar', () => {
  const base = { flagCount: 0, configured: true };
  it('server: loading, ready with the count and last refresh, error with the reason', () => {
    const source = { kind: 'server' as const, label: 'unleash.example.com' };
    assert.deepEqual(statusContent({ ...base, state: 'loading', source }), {
      visible: true,
      text: '$(sync~spin) Unleash: unleash.example.com',
      tooltip: 'Loading flags from unleash.example.com…\nClick for Refresh, Test Connection, Connect and Show Log.',
      tone: 'normal',
    });
    assert.deepEqual(statusContent({ ...base, state: 'ready', source, flagCount: 1234, lastRefreshed: new Date('2026-11-23T10:31:05Z') }), {
      visible: true,
      text: '$(check) Unleash: unleash.example.com · 1234 flags',
      tooltip: '1234 flags from unleash.example.com.\nLast refreshed 2026-11-23 10:31 UTC.\nClick for Refresh, Test Connection, Connect and Show Log.',
      tone: 'normal',
    });
    assert.deepEqual(statusContent({ ...base, state: 'error', source, reason: 'The server refused the token (401). Set a new token.' }), {
      visible: true,
      text: '$(error) Unleash: unleash.example.com',
      tooltip: 'Loading flags from unleash.example.com failed: The server refused the token (401). Set a new token.\nClick for Refresh, Test Connection, Connect and Show Log.',
      tone: 'error',
    });
  });

  it('offline: the number of export files, and the files in the tooltip', () => {
    const source = { kind: 'files' as const, label: '.unleash/development.json, .unleash/production.json', fileCount: 2 };
    const content = statusContent({ ...base, configured: false, state: 'ready', source, flagCount: 1 });
    assert.equal(content.text, '$(check) Unleash: offline: 2 export files · 1 flag');
    assert.equal(content.tooltip, '1 flag from .unleash/development.json, .unleash/production.json.\nClick for Refresh, Test Connection, Connect and Show Log.');
  });

  it('hidden with no flag source and nothing configured; warnings for a missing token or bad settings', () => {
    assert.equal(statusContent({ ...base, configured: false, state: 'noServer' }).visible, false);
    assert.deepEqual(statusContent({ ...base, configured: false, state: 'loading' }), {
      visible: false,
      text: '$(sync~spin) Unleash',
      tooltip: 'Starting…\nClick for Refresh, Test Connection, Connect and Show Log.',
      tone: 'normal',
    });
    assert.equal(statusContent({ ...base, state: 'loading' }).visible, true, 'a server is set: shown while starting');
    assert.equal(statusContent({ ...base, state: 'noServer' }).visible, true);
    assert.deepEqual(
      [statusContent({ ...base, state: 'noToken' }), statusContent({ ...base, state: 'invalidSettings', reason: 'unleash.serverUrl is not a URL.' })].map((c) => [c.text, c.tone]),
      [['$(key) Unleash: no token', 'warning'], ['$(warning) Unleash: check settings', 'warning']],
    );
  });

  it('a hostile server label cannot add icons', () => {
    const content = statusContent({ ...base, state: 'loading', source: { kind: 'server', label: '$(alert)evil' } });
    assert.equal(content.text, '$(sync~spin) Unleash: \\$(alert)evil');
  });
});

describe('Find Usages spellings', () => {
  const transforms = [
    { kind: 'chain' as const, transforms: [{ kind: 'prefix' as const, value: 'FLAG_' }, { kind: 'screamingSnakeToKebab' as const }] },
    { kind: 'camelToKebab' as const },
    { kind: 'snakeToKebab' as const },
  ];
  it('searches the name and every spelling that maps back to it', () => {
    assert.deepEqual(flagSpellings('new-checkout', transforms), ['new-checkout', 'FLAG_NEW_CHECKOUT', 'newCheckout', 'NewCheckout', 'new_checkout']);
    assert.deepEqual(usageSearchArgs('new-checkout', transforms), {
      query: '(?<![\\w-])(?:FLAG_NEW_CHECKOUT|new\\-checkout|new_checkout|newCheckout|NewCheckout)(?![\\w-])',
      isRegex: true,
      isCaseSensitive: true,
      matchWholeWord: false,
      triggerSearch: true,
    });
  });
  it('without transforms (or none applying): the exact name, as before', () => {
    assert.deepEqual(usageSearchArgs('a.b', []), { query: 'a.b', isRegex: false, isCaseSensitive: true, matchWholeWord: true, triggerSearch: true });
    assert.deepEqual(flagSpellings('Mixed_Case', [{ kind: 'camelToKebab' }]), ['Mixed_Case']);
  });
});
