/**
 * Flags where code is written, as the user sees them: the completion items offered inside SDK calls, the
 * diagnostics in the Problems panel (message, range, severity, code) and their quick fixes, for TypeScript,
 * JavaScript, Python, Go and Java snippets, hostile names included; the status bar's text; Find Usages' spellings.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeatureSummary } from '../../src/api/schemas';
import { Catalog } from '../../src/model/store/catalog';
import { completionDetail, completionSpotAt, FlagCompletions } from '../../src/model/code/flagCompletion';
import { DEFAULT_SEVERITIES, FlagAnalyzer, severitiesFrom, type AnalysisOptions } from '../../src/model/code/flagDiagnostics';
import { sdkCallLiterals } from '../../src/model/code/sdkCalls';
import { flagQuickFixes } from '../../src/model/code/flagQuickFixes';
import { flagSpellings } from '../../src/model/code/flagSpellings';
import { findFlagUsages } from '../../src/model/code/flagUsages';
import { FlagNameIndex } from '../../src/model/code/flagNameIndex';
import { TimeSlices } from '../../src/base/timeSlices';
import { FlagSuggester, MAX_SUGGESTED_PER_DOCUMENT } from '../../src/model/code/flagSuggestions';
import { statusContent } from '../../src/model/content/statusBarContent';

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
  // Hostile names (an export file may hold anything): all but `it's` break Unleash's naming rule.
  { name: 'a"b', project: 'default' },
  { name: "it's", project: 'default' },
  { name: '$(alert)', project: 'default' },
  { name: 'back\\slash', project: 'default' },
  { name: 'new-check\u202eout', project: 'default' },
  { name: `new-checkout-${'x'.repeat(1_000_000)}`, project: 'default' },
];
const catalog = new Catalog(flags);
const analyzer = new FlagAnalyzer(catalog);
const server: AnalysisOptions = { sourceLabel: 'unleash.example.com', sourceKind: 'server' };
const lines = (...text: string[]) => text.join('\n');

/** The diagnostics as the Problems panel lists them: [line:start-end] severity code message. */
async function problems(text: string, options: AnalysisOptions = server): Promise<string[]> {
  return (await analyzer.analyse(text, options)).map((d) => `[${d.line}:${d.start}-${d.end}] ${d.severity} ${d.code} ${d.message}`);
}

describe('flag diagnostics', () => {
  it('TypeScript: a typo, a stale flag, an archived flag; nothing for known live flags or template strings', async () => {
    const text = lines(
      `if (unleash.isEnabled('new-checkout-flw')) {`,
      `  const variant = unleash.getVariant("old-banner");`,
      '  const on = useFlag(`legacy-search`) || isEnabled(`${prefix}-x`) || isEnabled("pay-v2");',
      `}`,
    );
    assert.deepEqual(await problems(text), [
      '[0:23-39] warning unknown-flag No flag named "new-checkout-flw" on unleash.example.com. Did you mean "new-checkout-flow"?',
      '[1:38-48] information stale-flag Flag "old-banner" (project default) is marked stale: ready to remove.',
      '[2:22-35] warning archived-flag Flag "legacy-search" (project default) is archived: code reading it always gets the default.',
    ]);
  });

  it('JavaScript: optional calls, extra arguments, a name close to a stale flag', async () => {
    const text = lines(`const on = unleash.isEnabled?.('old-baner', context);`, `// isEnabled('commented-out-typo') is still a call`);
    assert.deepEqual(await problems(text), [
      '[0:32-41] warning unknown-flag No flag named "old-baner" on unleash.example.com. Did you mean "old-banner"?',
      '[1:14-32] warning unknown-flag No flag named "commented-out-typo" on unleash.example.com. Check the spelling; the flag may also be archived or in a project this workspace does not read.',
    ]);
  });

  it('Python: is_enabled/get_variant; f-strings are not checked; offline wording', async () => {
    const text = lines(
      `if client.is_enabled("pay-v3"):`,
      `    variant = client.get_variant('sunset-page')`,
      `if client.is_enabled(f"new-{name}"):`,
    );
    assert.deepEqual(await problems(text, { sourceLabel: '.unleash/production.json', sourceKind: 'files' }), [
      '[0:22-28] warning unknown-flag No flag named "pay-v3" in .unleash/production.json. Did you mean "pay-v2"?',
      '[1:34-45] information completed-flag Flag "sunset-page" (project web) is completed: ready to remove.',
    ]);
  });

  it('Go: IsEnabled and OpenFeature calls after a context argument', async () => {
    const text = lines(`if unleash.IsEnabled("dark-mode") {`, `	v, _ := client.BooleanValue(ctx, "sunset-page", false)`);
    assert.deepEqual(await problems(text), [
      '[0:22-31] hint disabled-flag Flag "dark-mode" (project web) is disabled in every environment.',
      '[1:35-46] information completed-flag Flag "sunset-page" (project web) is completed: ready to remove.',
    ]);
  });

  it('Java: case matters, and the suggestion says which spelling exists', async () => {
    const text = lines(`if (unleash.isEnabled("legacy-search")) {`, `    Variant v = unleash.getVariant("New-Checkout-Flow");`);
    assert.deepEqual(await problems(text), [
      '[0:23-36] warning archived-flag Flag "legacy-search" (project default) is archived: code reading it always gets the default.',
      '[1:36-53] warning unknown-flag No flag named "New-Checkout-Flow" on unleash.example.com. Did you mean "new-checkout-flow"?',
    ]);
  });

  it('hostile text in code and in flag names stays plain, one bounded line', async () => {
    const long = 'x'.repeat(150);
    const text = lines(`isEnabled("$(alert) [x](command:evil)")`, `isEnabled('${long}')`, `isEnabled('a"c')`);
    const found = await problems(text);
    const check = 'Check the spelling; the flag may also be archived or in a project this workspace does not read.';
    assert.equal(found[0], `[0:11-37] warning unknown-flag No flag named "$(alert) [x](command:evil)" (not a valid Unleash name) on unleash.example.com. ${check}`);
    assert.equal(found[1], `[1:11-161] warning unknown-flag No flag named "${'x'.repeat(99)}…" (not a valid Unleash name) on unleash.example.com. ${check}`);
    // `a"b` is one edit away, but breaks the naming rule: never suggested.
    assert.equal(found[2], `[2:11-14] warning unknown-flag No flag named "a"c" (not a valid Unleash name) on unleash.example.com. ${check}`);
    assert.equal(found.length, 3);
  });

  it('a known flag whose name breaks the naming rule is named cleaned and marked', async () => {
    const bidi = new FlagAnalyzer(new Catalog([{ name: 'new check\u202eout', project: 'default', stale: true }]));
    assert.deepEqual((await bidi.analyse('isEnabled("new check\u202eout")', server)).map((d) => d.message), [
      'Flag "new check out" (not a valid Unleash name) (project default) is marked stale: ready to remove.',
    ]);
  });

  it('severities come from the settings; off hides a kind and the next kind that applies is used', async () => {
    const text = lines(`isEnabled("old-banner")`, `isEnabled("dark-mode")`, `isEnabled("nope")`);
    const severities = severitiesFrom({ stale: 'off', unknown: 'error', disabled: 'information' });
    assert.deepEqual(await problems(text, { ...server, severities }), [
      '[1:11-20] information disabled-flag Flag "dark-mode" (project web) is disabled in every environment.',
      '[2:11-15] error unknown-flag No flag named "nope" on unleash.example.com. Check the spelling; the flag may also be archived or in a project this workspace does not read.',
    ]);
    const allOff = severitiesFrom({ unknown: 'off', archived: 'off', completed: 'off', stale: 'off', disabled: 'off' });
    assert.deepEqual(await problems(text, { ...server, severities: allOff }), []);
  });

  it('reports bad severity settings and keeps the defaults for them', async () => {
    const reported: string[] = [];
    assert.deepEqual(severitiesFrom({ stale: 'loud', typo: 'off', archived: 'error' }, reported), { ...DEFAULT_SEVERITIES, archived: 'error' });
    assert.deepEqual(reported, [
      'stale: "loud" is not one of error, warning, information, hint, off',
      'unknown kind "typo" (use unknown, archived, completed, stale, disabled)',
    ]);
    assert.deepEqual(severitiesFrom('warning', reported), DEFAULT_SEVERITIES);
    assert.equal(reported[2], 'expected an object such as {"stale": "off"}');
  });

  it('name transforms resolve code spellings to flags', async () => {
    const text = `if (isEnabled("NEW_CHECKOUT_FLOW") || isEnabled("OLD_BANNER")) {}`;
    assert.deepEqual(await problems(text, { ...server, transforms: [{ kind: 'screamingSnakeToKebab' }] }), [
      '[0:49-59] information stale-flag Flag "old-banner" (project default) is marked stale: ready to remove.',
    ]);
  });

  it('a name in several projects: archived only when archived in all of them', async () => {
    const two = new FlagAnalyzer(new Catalog([
      { name: 'shared', project: 'a', archived: true },
      { name: 'shared', project: 'b' },
    ]));
    assert.deepEqual(await two.analyse(`isEnabled('shared')`, server), []);
  });

  it('a file of 300 near-typos: "Did you mean" for the first 20 names, the others reported without (issue 39)', async () => {
    const names = Array.from({ length: 10_000 }, (_, i) => `checkout-variant-${String(i).padStart(5, '0')}`);
    const similar = new FlagAnalyzer(new Catalog(names.map((name) => ({ name, project: 'default' }))));
    const text = Array.from({ length: 300 }, (_, i) => `isEnabled('checkout-variamt-${String(i * 7).padStart(5, '0')}');`).join('\n');
    const found = await similar.analyse(text, server);
    assert.equal(found.length, 300);
    assert.deepEqual(found.map((d) => d.suggestions.length > 0).lastIndexOf(true), MAX_SUGGESTED_PER_DOCUMENT - 1);
    assert.equal(found[0]?.message, 'No flag named "checkout-variamt-00000" on unleash.example.com. Did you mean "checkout-variant-00000", "checkout-variant-00010", or "checkout-variant-00020"?');
    assert.equal(found[19]?.message, 'No flag named "checkout-variamt-00133" on unleash.example.com. Did you mean "checkout-variant-00133", "checkout-variant-00033", or "checkout-variant-00103"?');
    assert.equal(found[20]?.message, 'No flag named "checkout-variamt-00140" on unleash.example.com. Check the spelling; the flag may also be archived or in a project this workspace does not read.');
    // The same name again, later in the file, keeps the suggestions it got.
    const again = await similar.analyse(`${text}\nisEnabled('checkout-variamt-00000');`, server);
    assert.match(again.at(-1)?.message ?? '', /Did you mean "checkout-variant-00000"/);
  });

  it('a name held by 3,000 projects and read 3,000 times: each use gets its own place, the message its projects', async () => {
    const many = new FlagAnalyzer(new Catalog(Array.from({ length: 3_000 }, (_, i) => ({ name: 'shared', project: `p${i}`, stale: i === 1 }))));
    const text = Array.from({ length: 3_000 }, (_, i) => `${' '.repeat(i % 7)}isEnabled('shared'); isEnabled('old-banner')`).join('\n');
    const found = await many.analyse(text, server);
    assert.equal(found.length, 6_000);
    assert.deepEqual(
      found.slice(0, 3).map((d) => `[${d.line}:${d.start}-${d.end}] ${d.code} ${d.text} ${d.message}`),
      [
        '[0:11-17] stale-flag shared Flag "shared" (projects p0, p1, p10 … and 2997 more) is marked stale: ready to remove.',
        '[0:32-42] unknown-flag old-banner No flag named "old-banner" on unleash.example.com. Check the spelling; the flag may also be archived or in a project this workspace does not read.',
        '[1:12-18] stale-flag shared Flag "shared" (projects p0, p1, p10 … and 2997 more) is marked stale: ready to remove.',
      ],
    );
  });
});

describe('quick fixes', () => {
  const fixesOf = async (text: string, quote: string, webUrl?: (p: string, n: string) => string | undefined) =>
    (await analyzer.analyse(text, server)).map((d) => flagQuickFixes(d, { quote, webUrl }));

  it('a typo: change to each suggestion, the closest preferred', async () => {
    assert.deepEqual(await fixesOf(`isEnabled('new-checkout-flw')`, "'"), [
      [{ title: 'Change to "new-checkout-flow"', kind: 'replace', replacement: 'new-checkout-flow', preferred: true }],
    ]);
    const suggester = await FlagSuggester.build(['pay-v1', 'pay-v2', 'pay-v22', 'xyz'], new TimeSlices());
    assert.deepEqual(suggester.suggest('pay-v3'), ['pay-v1', 'pay-v2', 'pay-v22']);
  });

  it("never suggests a name that breaks Unleash's naming rule, or holds the literal's quote", async () => {
    assert.deepEqual((await fixesOf(`isEnabled('a"c')`, "'"))[0], []);
    assert.deepEqual((await fixesOf(`isEnabled('back\\\\slas')`, "'"))[0], []);
    assert.deepEqual((await fixesOf(`isEnabled("it'z")`, '"'))[0], [{ title: 'Change to "it\'s"', kind: 'replace', replacement: "it's", preferred: true }]);
    assert.deepEqual((await fixesOf(`isEnabled('it\\'z')`, "'"))[0], []);
    // One edit away is `new-check\u202eout`, which breaks the rule (and would display as `new-checktuo`): nothing.
    assert.deepEqual((await fixesOf(`isEnabled('new-checkout')`, "'"))[0], []);
  });

  it('a known flag: reveal, show details, open in Unleash (http and https only), copy the name', async () => {
    const args = [{ project: 'default', name: 'old-banner' }];
    assert.deepEqual((await fixesOf(`isEnabled("old-banner")`, '"', (p, n) => `https://u.example/projects/${p}/features/${n}`))[0], [
      { title: 'Reveal "old-banner" in the Flags tree', kind: 'command', command: 'unleash.revealFlag', args },
      { title: 'Show details of "old-banner"', kind: 'command', command: 'unleash.showFlagDetails', args },
      { title: 'Open "old-banner" in Unleash', kind: 'command', command: 'unleash.openInWebUi', args },
      { title: 'Copy flag name "old-banner"', kind: 'command', command: 'unleash.copyFlagName', args },
    ]);
    const titles = async (webUrl?: () => string) => (await fixesOf(`isEnabled("old-banner")`, '"', webUrl))[0]?.map((fix) => fix.title);
    const always = ['Reveal "old-banner" in the Flags tree', 'Show details of "old-banner"', 'Copy flag name "old-banner"'];
    assert.deepEqual(await titles(() => 'javascript:alert(1)'), always);
    assert.deepEqual(await titles(undefined), always);
  });

  it('titles show hostile names as written, without icons or links', async () => {
    const fixes = flagQuickFixes({ kind: 'stale', suggestions: [], flag: { project: 'p', name: '$(alert) [x](command:evil)' } }, { quote: '"' });
    assert.deepEqual(fixes.map((fix) => fix.title), [
      'Reveal "\\$(alert) [x] (command:evil)" (not a valid Unleash name) in the Flags tree',
      'Show details of "\\$(alert) [x] (command:evil)" (not a valid Unleash name)',
    ]);
  });

  it('a known flag whose name breaks the naming rule: cleaned, cut and marked; never opened or copied', async () => {
    const name = `checkout\u202e\u200b${'x'.repeat(1_000_000)}`;
    const fixes = flagQuickFixes({ kind: 'stale', suggestions: [], flag: { project: 'p', name } }, { quote: '"', webUrl: () => 'https://u.example/x' });
    assert.deepEqual(fixes.map((fix) => fix.title), [
      `Reveal "checkout ${'x'.repeat(70)}…" (not a valid Unleash name) in the Flags tree`,
      `Show details of "checkout ${'x'.repeat(70)}…" (not a valid Unleash name)`,
    ]);
  });
});

describe('flag completion', () => {
  const completions = new FlagCompletions(catalog);
  const list = (line: string, character = line.length, ranking = {}) => {
    const spot = completionSpotAt(line, character);
    return spot && completions.items(spot, ranking);
  };

  it('finds the spot inside SDK calls, every quote kind, terminated or being typed', async () => {
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

  it('offers every name that keeps the naming rule with type, project and state per environment, ranked prefix, project, recent', async () => {
    const items = list('if (isEnabled("ne', undefined, { preferredProjects: new Set(['web']), recent: ['pay-v2', 'sunset-page'] });
    assert.deepEqual(items, [
      { label: 'dark-mode', detail: 'experiment · web · development ○ production ○', sortText: '1099dark-mode', insertText: 'dark-mode' },
      { label: "it's", detail: 'default', sortText: "1199it's", insertText: "it's" },
      { label: 'legacy-search', detail: 'kill-switch · default · archived · development ● production ●', sortText: '1199legacy-search', insertText: 'legacy-search' },
      { label: 'new-checkout-flow', detail: 'release · default · development ● production ○', sortText: '0199new-checkout-flow', insertText: 'new-checkout-flow' },
      { label: 'old-banner', detail: 'release · default · stale · development ● production ●', sortText: '1199old-banner', insertText: 'old-banner' },
      { label: 'pay-v2', detail: 'release · payments · development ● production ●', sortText: '1100pay-v2', insertText: 'pay-v2' },
      { label: 'sunset-page', detail: 'release · web · completed · development ● production ●', sortText: '1001sunset-page', insertText: 'sunset-page' },
    ]);
    const order = [...(items ?? [])].sort((a, b) => (a.sortText < b.sortText ? -1 : 1)).map((item) => item.label);
    assert.deepEqual(order, ['new-checkout-flow', 'sunset-page', 'dark-mode', 'pay-v2', "it's", 'legacy-search', 'old-banner']);
  });

  it('past its limit, offers the best-ranked names that hold what is typed in order, and says the list is incomplete', async () => {
    const spot = completionSpotAt('if (isEnabled("ne', 17)!;
    const ranking = { preferredProjects: new Set(['web']), recent: ['pay-v2', 'sunset-page'] };
    const labels = (limit: number) => {
      const { items, incomplete } = completions.list(spot, ranking, limit);
      return { labels: items.map((item) => item.label), incomplete };
    };
    // Of the seven names, three hold n then e: new-checkout-flow (starts with it), sunset-page (web, used lately), old-banner.
    assert.deepEqual(labels(2), { labels: ['new-checkout-flow', 'sunset-page'], incomplete: true });
    assert.deepEqual(labels(3), { labels: ['new-checkout-flow', 'old-banner', 'sunset-page'], incomplete: true });
    assert.deepEqual(labels(7), { labels: completions.items(spot, ranking).map((item) => item.label), incomplete: false }, 'within the limit: every name');
  });

  it("leaves out names that break Unleash's naming rule (any quote), and names holding the literal's quote", async () => {
    const labels = (line: string) => list(line)?.map((item) => item.label);
    const valid = ['dark-mode', "it's", 'legacy-search', 'new-checkout-flow', 'old-banner', 'pay-v2', 'sunset-page'];
    assert.deepEqual(labels('isEnabled("'), valid);
    assert.deepEqual(labels('isEnabled(`'), valid);
    assert.deepEqual(labels("isEnabled('"), valid.filter((name) => name !== "it's"));
    const template = new FlagCompletions(new Catalog([{ name: 'a${b}' }, { name: 'ok' }, { name: '' }, { name: 'x'.repeat(101) }, { name: 'x'.repeat(100) }]));
    assert.deepEqual(template.items({ typed: '', quote: '"' }).map((item) => item.label), ['ok', 'x'.repeat(100)]);
  });

  it('six 10 MB names with bidi and zero-width characters cost nothing per request', async () => {
    const huge = ['\u202e', '\u200b', '\u00ad', '\u2066', '\u{E0041}', '\u0085'].map((ch, i) => ({ name: `huge-${i}${ch}${'x'.repeat(10_000_000)}` }));
    const items = new FlagCompletions(new Catalog([...huge, { name: 'ok' }])).items({ typed: '', quote: '"' });
    assert.deepEqual(items.map((item) => [item.label, item.insertText]), [['ok', 'ok']]);
  });

  it('documentation is inert markdown: no emphasis, link or command from flag data', async () => {
    assert.equal(
      completions.documentation('new-checkout-flow'),
      [
        '**new\\-checkout\\-flow** · release · project default',
        'New \\*\\*checkout\\*\\* \\[x\\]\\(command\\:evil\\)',
        '- development: enabled\n- production: disabled',
      ].join('\n\n'),
    );
    assert.equal(completions.documentation('$(alert)'), '**\\$\\(alert\\) \\(not a valid Unleash name\\)** · project default');
    assert.equal(
      completions.documentation('sunset-page'),
      '**sunset\\-page** · release · project web\n\nLifecycle: completed since 2026\\-01\\-02\n\n- development: enabled\n- production: enabled',
    );
  });

  it('a name in several projects says so in its detail', async () => {
    assert.equal(
      completionDetail([{ name: 'x', project: 'a', type: 'release' }, { name: 'x', project: 'b' }, { name: 'x', project: 'c' }]),
      'release · a · +2 more projects',
    );
  });
});

describe('SDK-call literals of a line', () => {
  it('finds each flag argument once, with its quote; unterminated only when asked', async () => {
    const line = `isEnabled('a') && getVariant("b", ctx) && log('c') && useFlag(\`d`;
    assert.deepEqual(sdkCallLiterals(line).map((l) => [l.text, l.quote, l.call]), [['a', "'", 'isEnabled'], ['b', '"', 'getVariant']]);
    assert.deepEqual(sdkCallLiterals(line, { unterminated: true }).map((l) => [l.text, l.unterminated ?? false]), [['a', false], ['b', false], ['d', true]]);
    assert.deepEqual(sdkCallLiterals(`isEnabled('a')`, { sdkCalls: ['check'] }), []);
  });
});

describe('status bar', () => {
  const base = { flagCount: 0, configured: true };
  it('server: loading, ready with the count and last refresh, error with the reason', async () => {
    const source = { kind: 'server' as const, label: 'unleash.example.com' };
    assert.deepEqual(statusContent({ ...base, state: 'loading', source }), {
      visible: true,
      text: '$(sync~spin) Unleash: unleash.example.com',
      tooltip: 'Loading flags from unleash.example.com…\nClick for Refresh, Test Connection, Connect and Show Log.',
      tone: 'normal',
      accessibleLabel: 'Unleash flags: Loading flags from unleash.example.com…',
    });
    assert.deepEqual(statusContent({ ...base, state: 'ready', source, flagCount: 1234, lastRefreshed: new Date('2026-11-23T10:31:05Z') }), {
      visible: true,
      text: '$(check) Unleash: unleash.example.com · 1234 flags',
      tooltip: '1234 flags from unleash.example.com.\nLast refreshed 2026-11-23 10:31 UTC.\nClick for Refresh, Test Connection, Connect and Show Log.',
      tone: 'normal',
      accessibleLabel: 'Unleash flags: 1234 flags from unleash.example.com.',
    });
    assert.deepEqual(statusContent({ ...base, state: 'error', source, reason: 'The server refused the token (401). Set a new token.' }), {
      visible: true,
      text: '$(error) Unleash: unleash.example.com',
      tooltip: 'Loading flags from unleash.example.com failed: The server refused the token (401). Set a new token.\nClick for Refresh, Test Connection, Connect and Show Log.',
      tone: 'error',
      accessibleLabel: 'Unleash flags: Loading flags from unleash.example.com failed: The server refused the token (401). Set a new token.',
    });
  });

  it('offline: the number of export files, and the files in the tooltip', async () => {
    const source = { kind: 'files' as const, label: '.unleash/development.json, .unleash/production.json', fileCount: 2 };
    const content = statusContent({ ...base, configured: false, state: 'ready', source, flagCount: 1 });
    assert.equal(content.text, '$(check) Unleash: offline: 2 export files · 1 flag');
    assert.equal(content.tooltip, '1 flag from .unleash/development.json, .unleash/production.json.\nClick for Refresh, Test Connection, Connect and Show Log.');
  });

  it('hidden with no flag source and nothing configured; warnings for a missing token or bad settings', async () => {
    assert.equal(statusContent({ ...base, configured: false, state: 'noServer' }).visible, false);
    assert.deepEqual(statusContent({ ...base, configured: false, state: 'loading' }), {
      visible: false,
      text: '$(sync~spin) Unleash',
      tooltip: 'Starting…\nClick for Refresh, Test Connection, Connect and Show Log.',
      tone: 'normal',
      accessibleLabel: 'Unleash flags: Starting…',
    });
    assert.equal(statusContent({ ...base, state: 'loading' }).visible, true, 'a server is set: shown while starting');
    assert.equal(statusContent({ ...base, state: 'noServer' }).visible, true);
    assert.deepEqual(
      [statusContent({ ...base, state: 'noToken' }), statusContent({ ...base, state: 'invalidSettings', reason: 'unleash.serverUrl is not a URL.' })].map((c) => [c.text, c.tone]),
      [['$(key) Unleash: no token', 'warning'], ['$(warning) Unleash: check settings', 'warning']],
    );
  });

  it('a hostile server label cannot add icons', async () => {
    const content = statusContent({ ...base, state: 'loading', source: { kind: 'server', label: '$(alert)evil' } });
    assert.equal(content.text, '$(sync~spin) Unleash: \\$(alert)evil');
  });
});

describe('Find Usages: the uses of one flag in a text', () => {
  const transforms = [
    { kind: 'chain' as const, transforms: [{ kind: 'prefix' as const, value: 'FLAG_' }, { kind: 'screamingSnakeToKebab' as const }] },
    { kind: 'camelToKebab' as const },
    { kind: 'snakeToKebab' as const },
  ];
  const index = new FlagNameIndex(['pay', 'pay-later', 'apple-pay', 'checkout-express-pay', 'q', 'new-checkout']);
  const uses = (text: string, name: string, options = {}) =>
    findFlagUsages(text, name, index, options).map((use) => `${use.line}:${use.start}-${use.end} ${use.lineText.slice(use.start, use.end)}`);

  it('every spelling a transform maps back to the name', async () => {
    assert.deepEqual(flagSpellings('new-checkout', transforms), ['new-checkout', 'FLAG_NEW_CHECKOUT', 'newCheckout', 'NewCheckout', 'new_checkout']);
    assert.deepEqual(flagSpellings('Mixed_Case', [{ kind: 'camelToKebab' }]), ['Mixed_Case']);
  });

  it('a short name that prefixes others: only its exact uses, never inside a longer name or a comment word', async () => {
    const text = [
      "if (unleash.isEnabled('pay')) {}",
      "if (unleash.isEnabled('pay-later')) {}",
      'const a = "apple-pay"; const b = `checkout-express-pay`;',
      '// pay with the pay flag, q is a variable',
      "const flags = ['pay', \"q\"]; const pay = 1;",
      "useFlag('q') // q",
    ].join('\n');
    assert.deepEqual(uses(text, 'pay'), ['0:23-26 pay', '4:16-19 pay']);
    assert.deepEqual(uses(text, 'q'), ['4:23-24 q', '5:9-10 q']);
  });

  it('identifiers through the name transforms, as the hovers read them; with matchAnywhere, comment words too', async () => {
    const text = 'if (flags[FLAG_NEW_CHECKOUT] || newCheckout) {}\r\n// new-checkout is on';
    assert.deepEqual(uses(text, 'new-checkout', { transforms }), ['0:10-27 FLAG_NEW_CHECKOUT', '0:32-43 newCheckout']);
    assert.deepEqual(uses(text, 'new-checkout', { transforms, matchAnywhere: true }), ['0:10-27 FLAG_NEW_CHECKOUT', '0:32-43 newCheckout', '1:3-15 new-checkout']);
  });

  it('plain values in configuration files only when read as such', async () => {
    const text = 'features:\n  - pay\n  checkout: pay-later\n';
    assert.deepEqual(uses(text, 'pay', { plainScalars: true }), ['1:4-7 pay']);
    assert.deepEqual(uses(text, 'pay'), []);
  });

  it('a chain of 60 transforms (within the settings budget) costs its length: the uses are found', async () => {
    // Each camelToKebab step has two spellings to undo: 2^60 candidates, were they all kept.
    const chain = { kind: 'chain' as const, transforms: Array.from({ length: 60 }, () => ({ kind: 'camelToKebab' as const })) };
    assert.deepEqual(flagSpellings('new-checkout', [chain]), ['new-checkout']);
    assert.deepEqual(uses("if (unleash.isEnabled('new-checkout')) {}", 'new-checkout', { transforms: [chain] }), ['0:23-35 new-checkout']);
  });

  it('a line of one name repeated stays linear: at most 1,000 occurrences a line are looked at', async () => {
    const line = "'q', ".repeat(3_000);
    assert.equal(findFlagUsages(line, 'q', index).length, 1_000);
  });
});
