import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { featureSchema, featureSearchSchema, type Feature, type FeatureSummary } from '../../src/api/schemas';
import { Commands } from '../../src/base/constants';
import { commandUri, flagCommandUri } from '../../src/model/content/flagCommandUri';
import { hoverMarkdown } from '../../src/model/content/hoverContent';
import { strategySummary } from '../../src/model/content/hoverEnvironments';
import { HOVER_LIMITS } from '../../src/model/content/hoverLimits';
import { unknownFlagMarkdown } from '../../src/model/content/unlistedFlagContent';
import { markdownCode } from '../../src/model/text/markdown';
import { CONTROL } from '../support/hostileFlags';

const fixture = (name: string): unknown => JSON.parse(readFileSync(path.join(__dirname, '..', 'fixtures', name), 'utf8'));
const details = featureSchema.parse(fixture('feature-7.5.1.json'));
const summary = featureSearchSchema.parse(fixture('search-page.json')).features[0] as FeatureSummary;
const NOW = new Date('2026-11-25T10:00:00.000Z');
const HOST = 'unleash.example.com';
const webUrl = (project: string, name: string) =>
  `https://${HOST}/projects/${encodeURIComponent(project)}/features/${encodeURIComponent(name)}`;

const REVEAL = (project: string, name: string) =>
  `command:unleash.revealFlag?${encodeURIComponent(JSON.stringify([{ project, name }]))}`;
const COPY = (project: string, name: string) =>
  `command:unleash.copyFlagName?${encodeURIComponent(JSON.stringify([{ project, name }]))}`;
const DETAILS = (project: string, name: string) =>
  `command:unleash.showFlagDetails?${encodeURIComponent(JSON.stringify([{ project, name }]))}`;


/**
 * Every link destination in `markdown`, read the way CommonMark does: a backslash escapes the next character, code
 * spans are skipped, and `](` after an unescaped `]` starts a destination (`<…>` or up to `)`). Also answers the
 * unescaped `<` that are not the start of a `<…>` destination.
 */
function scan(markdown: string): { links: string[]; rawAngles: number } {
  const links: string[] = [];
  let rawAngles = 0;
  for (let i = 0; i < markdown.length; i++) {
    const ch = markdown[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '`') {
      let run = 1;
      while (markdown[i + run] === '`') run++;
      const fence = '`'.repeat(run);
      const close = markdown.indexOf(fence, i + run);
      i = close < 0 ? i + run - 1 : close + run - 1;
      continue;
    }
    if (ch === '<') rawAngles++;
    if (ch === ']' && markdown[i + 1] === '(') {
      const start = i + 2;
      const end = markdown[start] === '<' ? markdown.indexOf('>', start) + 1 : markdown.indexOf(')', start);
      links.push(markdown.slice(start, end));
      i = end;
    }
  }
  return { links, rawAngles };
}

/** The arguments of our command links, decoded as VS Code does. */
function commandArgs(link: string): unknown {
  return JSON.parse(decodeURIComponent(link.slice(link.indexOf('?') + 1)));
}

describe('hoverMarkdown: the seeded flag', () => {
  it('shows name, type, project, lifecycle, description, environments, variants, children, tags, links and actions', () => {
    const markdown = hoverMarkdown({ matches: [{ summary, details }], sourceLabel: HOST, webUrl, now: NOW });
    assert.equal(
      markdown,
      [
        '**new\\-checkout\\-flow** · release · project default',
        '',
        'Lifecycle: pre\\-live since 2026\\-11\\-01',
        '',
        'The new checkout\\, step by step',
        '',
        '| Environment | State | Last\u00a0seen |',
        '| --- | --- | --- |',
        '| development | ●\u00a0enabled | never |',
        '| production | ○\u00a0disabled | 5\u00a0days\u00a0ago |',
        '',
        '**development** · 1 strategy\\: Gradual rollout\\: 25\\% of userId \\(“EU employees first”\\, 4 constraints\\, 2 segments\\, 2 variants\\)  ',
        '**production** · no strategies',
        '',
        '**Variants**',
        '',
        '- development › EU employees first\\: blue — 50\\% · variable · stickiness\\: userId · string\\: \\"blue\\"',
        '- development › EU employees first\\: green — 50\\% · variable · stickiness\\: userId · json\\: \\{\\"color\\"\\:\\"green\\"\\}',
        '- production\\: control — 100\\% · variable · stickiness\\: default · overrides userId\\: 1\\, 2',
        '',
        '**Children:** new\\-checkout\\-flow\\-ui',
        '',
        '**Tags:** team\\:payments',
        '',
        '**Links:** [PAY\\-123](<https://jira.example.com/PAY-123>) (jira\\.example\\.com)',
        '',
        '[Open in Unleash](<https://unleash.example.com/projects/default/features/new-checkout-flow>)' +
          ` · [Reveal in Flags tree](${REVEAL('default', 'new-checkout-flow')})` +
          ` · [Copy name](${COPY('default', 'new-checkout-flow')})` +
          ` · [Show details](${DETAILS('default', 'new-checkout-flow')})`,
        '',
        '_Source: unleash\\.example\\.com_',
      ].join('\n'),
    );
  });

  it('lists variants kept both in the deprecated top-level list and in their environment once, under the environment', () => {
    const blue = { name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' };
    const both: Feature = { ...details, variants: [blue], environments: [{ name: 'production', enabled: true, strategies: [], variants: [blue] }] };
    const lines = hoverMarkdown({ matches: [{ summary, details: both }], sourceLabel: HOST, now: NOW }).split('\n');
    assert.deepEqual(lines.filter((line) => line.startsWith('- ')), ['- production\\: blue — 100\\% · variable · stickiness\\: default']);
    // Without environments that say their own (8.x never sends the top-level list; an old server may send only it).
    const legacy: Feature = { ...details, variants: [blue], environments: [{ name: 'production', enabled: true, strategies: [] }] };
    const legacyLines = hoverMarkdown({ matches: [{ summary, details: legacy }], sourceLabel: HOST, now: NOW }).split('\n');
    assert.deepEqual(legacyLines.filter((line) => line.startsWith('- ')), ['- blue — 100\\% · variable · stickiness\\: default']);
  });

  it('summarises several strategies in one cell, in the tree wording, with an exact count', () => {
    const env = {
      strategies: [
        { name: 'flexibleRollout', parameters: { rollout: '25', stickiness: 'userId', groupId: 'g' } },
        { name: 'default' },
      ],
    };
    assert.equal(strategySummary(env), '2 strategies: Gradual rollout: 25% of userId; Standard: on for everyone');
    assert.equal(strategySummary({ strategies: [] }), 'no strategies');
    assert.equal(strategySummary({ strategies: [{ name: 'default', disabled: true }] }), '1 strategy: Standard: on for everyone (disabled)');
    const many = { strategies: Array.from({ length: 9 }, () => ({ name: 'default' })) };
    assert.equal(
      strategySummary(many),
      '9 strategies: Standard: on for everyone; Standard: on for everyone; Standard: on for everyone; Standard: on for everyone … and 5 more',
    );
  });

  it('shows parents, stale and archived for a child flag', () => {
    const child: Feature = {
      ...details,
      name: 'new-checkout-flow-ui',
      stale: true,
      archived: true,
      lifecycle: null,
      children: [],
      links: [],
      dependencies: [
        { feature: 'new-checkout-flow', enabled: true, variants: ['blue'] },
        { feature: 'legacy-banner', enabled: false },
      ],
    };
    const childSummary: FeatureSummary = { ...summary, name: 'new-checkout-flow-ui', lifecycle: null };
    const markdown = hoverMarkdown({ matches: [{ summary: childSummary, details: child }], sourceLabel: HOST, now: NOW });
    const paragraphs = markdown.split('\n\n');
    assert.equal(paragraphs[0], '**new\\-checkout\\-flow\\-ui** · release · project default');
    assert.equal(paragraphs[1], '**Stale** · **Archived**');
    assert.ok(
      paragraphs.includes(
        '**Parents:** requires new\\-checkout\\-flow enabled \\(variants\\: blue\\)\\; requires legacy\\-banner disabled',
      ),
      markdown,
    );
    assert.ok(!markdown.includes('**Children:**'));
    assert.ok(!markdown.includes('Open in Unleash'), 'no web URL given, no link');
  });
});

describe('hoverMarkdown: from the summary alone', () => {
  it('shows on/off and whether strategies exist, and says details are loading', () => {
    const markdown = hoverMarkdown({ matches: [{ summary }], sourceLabel: HOST, webUrl, now: NOW });
    const lines = markdown.split('\n');
    assert.ok(lines.includes('| development | ●\u00a0enabled | never |'), markdown);
    assert.ok(lines.includes('| production | ○\u00a0disabled | never |'), markdown);
    assert.ok(markdown.includes('\n\n**development** · has strategies  \n**production** · no strategies\\, 1 variant\n\n'), markdown);
    assert.ok(lines.includes('_Loading strategies and variants… hover again to see them._'));
    assert.ok(!markdown.includes('**Variants**'));
    assert.ok(lines.includes('**Tags:** team\\:payments'));
    assert.ok(markdown.includes(`[Reveal in Flags tree](${REVEAL('default', 'new-checkout-flow')})`));
  });

  it('says when details could not be read', () => {
    const markdown = hoverMarkdown({ matches: [{ summary, detailsState: 'unavailable' }], sourceLabel: HOST, now: NOW });
    assert.ok(markdown.includes('\n\n_Strategies and variants could not be read._\n\n'));
    assert.ok(!markdown.includes('Loading'));
  });

  it('says when a flag has no environments', () => {
    const markdown = hoverMarkdown({ matches: [{ summary: { name: 'bare' } }], sourceLabel: HOST, now: NOW });
    assert.ok(markdown.startsWith('**bare**\n\n_No environments._\n\n'), markdown);
  });
});

describe('hoverMarkdown: a name in several projects', () => {
  it('shows one section per project, separated by a rule, each with its own links', () => {
    const other: FeatureSummary = { ...summary, project: 'payments', type: 'experiment', description: 'Payments copy' };
    const markdown = hoverMarkdown({
      matches: [{ summary, details }, { summary: other }],
      sourceLabel: HOST,
      webUrl,
      now: NOW,
    });
    const sections = markdown.split('\n\n---\n\n');
    assert.equal(sections.length, 2);
    assert.ok(sections[0]!.startsWith('**new\\-checkout\\-flow** · release · project default\n\n'));
    assert.ok(sections[1]!.startsWith('**new\\-checkout\\-flow** · experiment · project payments\n\n'));
    assert.ok(sections[0]!.includes('1 strategy\\: Gradual rollout'));
    assert.ok(sections[1]!.includes('_Loading strategies and variants… hover again to see them._'));
    assert.ok(sections[1]!.includes('Payments copy'));
    assert.ok(sections[1]!.includes('(<https://unleash.example.com/projects/payments/features/new-checkout-flow>)'));
    assert.ok(sections[1]!.includes(`(${REVEAL('payments', 'new-checkout-flow')})`));
    assert.ok(sections[1]!.endsWith('\n\n_Source: unleash\\.example\\.com_'));
  });

  it('shows at most HOVER_LIMITS.projects projects, then says how many more', () => {
    const matches = Array.from({ length: HOVER_LIMITS.projects + 2 }, (_, i) => ({ summary: { ...summary, project: `p${i}` } }));
    const markdown = hoverMarkdown({ matches, sourceLabel: HOST, now: NOW });
    assert.equal(markdown.split('\n\n---\n\n').length, HOVER_LIMITS.projects + 1);
    assert.ok(markdown.includes('… and 2 more projects with this name (see the Flags tree)'));
  });
});

describe('unknownFlagMarkdown', () => {
  it('names the flag, the server and the SDK call', () => {
    assert.equal(
      unknownFlagMarkdown('new-chekout', HOST, 'isEnabled'),
      'No flag named `new-chekout` on unleash\\.example\\.com\n\n' +
        '`isEnabled` reads a flag by this name. Check the spelling; the flag may also be archived or in a project ' +
        'this workspace does not read.',
    );
  });

  it('says "in" for export files, and fences names holding backticks', () => {
    const markdown = unknownFlagMarkdown('a`b', '.unleash/development.json', 'useFlag', 'files');
    assert.ok(markdown.startsWith('No flag named ``a`b`` in \\.unleash\\/development\\.json\n\n`useFlag` reads'), markdown);
  });

  it('keeps a hostile name inert', () => {
    const markdown = unknownFlagMarkdown('[x](command:workbench.action.terminal.new)\u202e<img src=x>', HOST, 'isEnabled');
    assert.deepEqual(scan(markdown).links, []);
    assert.ok(!CONTROL.test(markdown.replace(/[\t\n]/g, '')));
  });
});

// ---------------------------------------------------------------------------

const LONG = 'A'.repeat(10_000);
const EVIL =
  '**bold** <img src=x onerror=alert(1)> [click](command:workbench.action.terminal.new) [x](javascript:alert(1)) ' +
  '<a href="command:workbench.action.terminal.new">a</a> <https://evil.example/auto> https://evil.example/bare ' +
  'www.evil.example mail@evil.example $(alert) `code` | cell | &lt; ~~strike~~ # heading\n- list\n> quote\n\n' +
  '\u0007\u001b[31m\u0085 \u202eevil\u202c \u2066iso\u2069 \ufeff\u200f ' +
  LONG;
const evil = (tag: string) => `${tag} ${EVIL}`;

function hostileFlag(): { summary: FeatureSummary; details: Feature } {
  const name = 'evil](command:workbench.action.terminal.new)"<img>';
  const project = 'p)](command:x)\u202e';
  const strategies = Array.from({ length: 6 }, (_, i) => ({
    name: i === 0 ? 'flexibleRollout' : evil('strategy'),
    title: evil('title'),
    parameters: { rollout: evil('rollout'), stickiness: evil('stickiness'), [evil('param')]: evil('value') },
    constraints: [{ contextName: evil('ctx'), operator: 'IN', values: [evil('value'), LONG] }],
    variants: [
      { name: evil('svariant'), weight: 500, weightType: 'fix', stickiness: evil('st'), payload: { type: 'json', value: EVIL } },
    ],
    segments: [1],
  }));
  const environments = Array.from({ length: 30 }, (_, i) => ({
    name: `${i} ${evil('env')}`,
    enabled: i % 2 === 0,
    lastSeenAt: evil('date'),
    strategies,
    variants: Array.from({ length: 3 }, () => ({
      name: evil('variant'),
      weight: 333,
      payload: { type: evil('type'), value: EVIL },
      overrides: [{ contextName: evil('o'), values: [EVIL] }],
    })),
  }));
  const tags = Array.from({ length: 100 }, (_, i) => ({ type: evil(`t${i}`), value: evil('v') }));
  const summary: FeatureSummary = {
    name,
    project,
    type: evil('type'),
    description: evil('description'),
    stale: true,
    lifecycle: { stage: evil('stage'), enteredStageAt: evil('at') },
    environments: environments.map((env) => ({ name: env.name, enabled: env.enabled, hasStrategies: true })),
    tags,
  };
  const details: Feature = {
    ...summary,
    environments,
    variants: [{ name: evil('legacy'), weight: 1000 }],
    dependencies: Array.from({ length: 10 }, () => ({ feature: evil('parent'), variants: [EVIL] })),
    children: Array.from({ length: 100 }, () => evil('child')),
    links: [
      { url: 'javascript:alert(1)', title: '[ok](command:workbench.action.terminal.new)' },
      { url: 'command:workbench.action.terminal.new', title: 'terminal' },
      { url: 'file:///etc/passwd', title: 'passwd' },
      { url: 'data:text/html,<script>alert(1)</script>', title: null },
      { url: 'https://trusted.example@evil.example/x', title: 'trusted.example' },
      { url: `https://good.example/a?q=(b)&r=<c>`, title: evil('good') },
      ...Array.from({ length: 10 }, () => ({ url: `https://good.example/${LONG}`, title: EVIL })),
    ],
  };
  return { summary, details };
}

/**
 * What is allowed as a link target in a flag hover: our command links (`commands` of them: three, two for a name that
 * breaks Unleash's naming rule, which is not copied) and http(s) addresses.
 */
function assertAllowedLinks(markdown: string, project: string, name: string, commandCount = 3): void {
  const { links } = scan(markdown);
  const commands = links.filter((link) => link.startsWith('command:'));
  for (const link of links) {
    if (link.startsWith('command:')) {
      assert.match(link, /^command:unleash\.(revealFlag|copyFlagName|showFlagDetails)\?[^()\s<>]*$/, link);
      assert.deepEqual(commandArgs(link), [{ project, name }]);
    } else {
      assert.match(link, /^<https?:\/\/[^\s<>]*>$/, link);
    }
  }
  assert.equal(commands.length, commandCount, 'exactly our command links');
}

describe('hoverMarkdown: hostile flag data is inert and bounded', () => {
  const { summary: hostileSummary, details: hostileDetails } = hostileFlag();
  const hostileWebUrl = (project: string, name: string) => webUrl(project, name);

  for (const [label, match] of [
    ['with details', { summary: hostileSummary, details: hostileDetails }],
    ['summary only', { summary: hostileSummary }],
  ] as const) {
    it(`renders every field as plain text (${label})`, () => {
      const markdown = hoverMarkdown({ matches: [match], sourceLabel: evil('source'), webUrl: hostileWebUrl, now: NOW });
      // The hostile name breaks the naming rule: Reveal and Show details, no Copy name.
      assertAllowedLinks(markdown, hostileSummary.project!, hostileSummary.name, 2);
      assert.ok(!markdown.includes('copyFlagName'));
      // No raw `<` other than the opening of our `<https://…>` destinations.
      assert.equal(scan(markdown).rawAngles, 0);
      assert.ok(!CONTROL.test(markdown.replace(/[\t\n]/g, '')), 'no control or bidi characters');
      assert.ok(!/A{400}/.test(markdown), 'long strings are cut');
      assert.ok(markdown.length < HOVER_LIMITS.hoverLength, `length ${markdown.length}`);
      // The hostile text is there, escaped: the user can read what the server holds.
      assert.ok(markdown.includes('\\*\\*bold\\*\\* \\<img src\\=x onerror\\=alert\\(1\\)\\>'), markdown.slice(0, 2000));
      assert.ok(markdown.includes('\\[click\\]\\(command\\:workbench\\.action\\.terminal\\.new\\)'));
    });
  }

  it('caps environments, variants, tags, children and links', () => {
    const markdown = hoverMarkdown({ matches: [{ summary: hostileSummary, details: hostileDetails }], sourceLabel: HOST, now: NOW });
    const rows = markdown.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Environment') && !line.startsWith('| ---'));
    assert.equal(rows.length, HOVER_LIMITS.environments);
    assert.ok(markdown.includes(`\n\n… and ${30 - HOVER_LIMITS.environments} more environments\n\n`));
    const variants = markdown.split('\n').filter((line) => line.startsWith('- '));
    assert.equal(variants.length, HOVER_LIMITS.variants + 1);
    assert.equal(variants.at(-1), `- … and ${30 * 3 + 30 * 6 - HOVER_LIMITS.variants} more variants`);
    assert.match(markdown, /\*\*Tags:\*\* .*… and 97 more\n/);
    assert.match(markdown, /\*\*Children:\*\* .*… and 98 more\n/);
    assert.match(markdown, /\*\*Parents:\*\* .*… and 5 more {2}\n/);
    assert.match(markdown, /\*\*Links:\*\* .* … and 11 more\n/);
    // Links that are not http/https are shown as their title only; a link shows its real host.
    assert.ok(markdown.includes('\\[ok\\]\\(command\\:workbench\\.action\\.terminal\\.new\\) · terminal · passwd · data\\:text\\/html'));
    assert.ok(markdown.includes('[trusted\\.example](<https://trusted.example@evil.example/x>) (evil\\.example)'));
  });

  it('offers no "Open in Unleash" link for a web URL that is not http/https', () => {
    for (const url of ['javascript:alert(1)', 'command:workbench.action.terminal.new', 'file:///etc/passwd', 'not a url']) {
      const markdown = hoverMarkdown({ matches: [{ summary }], sourceLabel: HOST, webUrl: () => url, now: NOW });
      assert.ok(!markdown.includes('Open in Unleash'), url);
      assertAllowedLinks(markdown, 'default', 'new-checkout-flow');
    }
    const throwing = hoverMarkdown({ matches: [{ summary }], sourceLabel: HOST, webUrl: () => { throw new Error('x'); }, now: NOW });
    assert.ok(!throwing.includes('Open in Unleash'));
    // A name that breaks the naming rule (a lone surrogate would make encodeURIComponent throw): marked, not opened.
    const invalid = { ...summary, name: 'new check\ud800out' };
    const marked = hoverMarkdown({ matches: [{ summary: invalid }], sourceLabel: HOST, webUrl: () => 'https://unleash.example.com/x', now: NOW });
    assert.ok(marked.startsWith('**new check\ufffdout \\(not a valid Unleash name\\)** · '), marked.slice(0, 80));
    assert.ok(!marked.includes('Open in Unleash'));
    assertAllowedLinks(marked, 'default', invalid.name, 2);
  });

  it('renders to HTML with no element or link the data asked for (CommonMark renderer, HTML allowed)', () => {
    const renderer = new MarkdownIt({ html: true, linkify: true });
    const markdown = hoverMarkdown({ matches: [{ summary: hostileSummary, details: hostileDetails }], sourceLabel: evil('source'), webUrl: hostileWebUrl, now: NOW });
    const html = renderer.render(markdown);
    const tags = new Set([...html.matchAll(/<([a-z0-9]+)[\s>]/g)].map((m) => m[1]));
    for (const tag of tags) {
      assert.ok(['p', 'strong', 'em', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'ul', 'li', 'a', 'hr', 'br'].includes(tag!), `<${tag}>`);
    }
    const hrefs = [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]!);
    for (const href of hrefs) assert.match(href, /^(https?:\/\/|command:unleash\.(revealFlag|copyFlagName|showFlagDetails)\?)/, href);
    assert.equal(hrefs.filter((href) => href.startsWith('command:')).length, 2);
    // Our own bold labels only: the name, `Stale`, Tags, Parents, Children, Links, Variants, and the environments
    // shown, each above its strategies.
    assert.equal((html.match(/<strong>/g) ?? []).length, 7 + HOVER_LIMITS.environments);
    assert.ok(html.includes('**bold** &lt;img src=x onerror=alert(1)&gt;'));
  });
});

// ---------------------------------------------------------------------------

describe('escaping helpers', () => {
  it('markdownCode(): a fence longer than any backtick run inside', () => {
    assert.equal(markdownCode('flag', 100), '`flag`');
    assert.equal(markdownCode('a`b', 100), '``a`b``');
    assert.equal(markdownCode('`a', 100), '`` `a ``');
    assert.equal(markdownCode('a\u202e\nb', 100), '`a b`');
    assert.equal(markdownCode('x'.repeat(50), 10), '`xxxxxxxxx…`');
  });

  it('commandUri(): JSON arguments that no character can break out of', () => {
    assert.equal(commandUri('unleash.revealFlag', [{ project: 'p', name: 'n' }]), REVEAL('p', 'n'));
    const uri = flagCommandUri(Commands.revealFlag, { project: 'a)b', name: "(x)!'*" });
    assert.ok(!/[()\s<>'!*]/.test(uri.slice('command:'.length)), uri);
    assert.deepEqual(commandArgs(uri), [{ project: 'a)b', name: "(x)!'*" }]);
    assert.ok(flagCommandUri(Commands.copyFlagName, { project: 'p', name: 'n' }).startsWith('command:unleash.copyFlagName?'));
  });
});
