/**
 * Hostile text on every surface a user reads: control characters, C1 controls, every bidi control, lone surrogates
 * and emoji ZWJ sequences go through one function (`clean`), and each surface shows exactly the text asserted here.
 *   node --import tsx --test test/unit/cleanText.test.ts
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UnleashClient } from '../../src/api/client';
import { InvalidTokenError, NotFoundError } from '../../src/api/errors';
import { FlagAnalyzer } from '../../src/model/code/flagDiagnostics';
import { Catalog } from '../../src/model/store/catalog';
import type { Feature, FeatureSummary } from '../../src/api/schemas';
import { flagDocument } from '../../src/model/content/flagDocument';
import { FlagStore } from '../../src/model/store/flagStore';
import { hoverMarkdown } from '../../src/model/content/hoverContent';
import { inertText, pickText } from '../../src/model/text/markdown';
import { tagForMessage, validateTagValue } from '../../src/model/tags/tagInput';
import { tagPickState } from '../../src/model/tags/tagPickItems';
import { childrenOf } from '../../src/model/tree/children';
import { flagPickItems, viewMessage } from '../../src/model/tree/commandData';
import type { TreeNode } from '../../src/model/tree/node';
import { clean, truncate, visibleText } from '../../src/model/text/plainText';
import { formatError } from '../../src/model/content/formatError';
import { logLine } from '../../src/services/logger';
import { listingSource, storeOver } from '../support/flagCatalog';
import { CONTROL, LONE_SURROGATE } from '../support/hostileFlags';

/** Every bidi formatting character Unicode has. */
const BIDI = ['\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
const C0 = '\u0000\u0007\u001b\t\n\r';
const C1 = '\u0080\u0085\u009b\u009f';
/** A tag value that would display reversed (`sym:stnemyap` reads `payments`) and beep. */
const HOSTILE = `pay\u202ements\u0007${C1}x`;
const WOMAN_TECHNOLOGIST = '\u{1F469}\u200d\u{1F4BB}';

describe('clean: the one function', () => {
  it('turns every control, C1 and bidi character into one space and lone surrogates into U+FFFD', () => {
    assert.equal(clean(HOSTILE), 'pay ments x');
    assert.equal(clean(`a${C0}b`), 'a b');
    for (const bidi of BIDI) assert.equal(clean(`left${bidi}right`), 'left right', `U+${bidi.charCodeAt(0).toString(16)}`);
    assert.equal(clean('a\ud800b\udc00c'), 'a\ufffdb\ufffdc');
    assert.equal(clean('\u2028line\u2029\ufeff'), ' line ');
  });

  it('never cuts a ZWJ sequence, a flag or a surrogate pair in half', () => {
    const text = `abcdefgh${WOMAN_TECHNOLOGIST}ijklmnop`;
    // The cut would fall inside the sequence (between the woman and the ZWJ): it moves before it.
    assert.equal(truncate(text, 10), 'abcdefgh…');
    assert.equal(truncate(text, 13), "abcdefgh…");
    assert.equal(truncate(text, 14), `abcdefgh${WOMAN_TECHNOLOGIST}…`);
    assert.equal(truncate('ab\u{1F1EB}\u{1F1F7}cd', 5), 'ab…');
    assert.equal(clean(`${'x'.repeat(70)}${WOMAN_TECHNOLOGIST}`.repeat(20), 72), `${'x'.repeat(70)}…`);
    for (let max = 2; max < 20; max++) {
      const cut = truncate(`a${WOMAN_TECHNOLOGIST}${WOMAN_TECHNOLOGIST}${WOMAN_TECHNOLOGIST}z`, max);
      assert.ok(!/\u200d…$|[\ud800-\udbff]…$/.test(cut), `${max}: ${JSON.stringify(cut)}`);
    }
  });
});

describe('every surface', () => {
  it('Check Tag suggestions and typed rows', () => {
    const state = tagPickState('', {
      types: [{ name: `team\u202e`, description: `Owning${C0}team` }],
      knownTags: [{ type: 'team', value: HOSTILE }, { type: 'simple', value: '$(alert) beta' }],
      prefer: 'types',
      valueAction: 'Check',
    });
    assert.deepEqual(
      state.rows.map((row) => [row.label, 'description' in row ? row.description : undefined]),
      [
        ['Tag types', undefined],
        ['$(symbol-key) team ', 'Owning team'],
        ['Tags on flags in the Flags view', undefined],
        ['$(tag) team:pay ments x', undefined],
        ['$(tag) simple:\\$(alert) beta', undefined],
      ],
    );
    const typed = tagPickState(`team:a\u202eb${C1}`, { types: [], knownTags: [], prefer: 'types', valueAction: 'Check' });
    assert.equal(typed.rows[0]?.label, '$(tag) team:a b ');
  });

  it('Find Flag picks', async () => {
    const store = await storeListing([summary(`evil${HOSTILE}`, `line one\nline two\u202e$(zap)`)]);
    assert.deepEqual(
      flagPickItems(store).map((item) => [item.label, item.description, item.detail]),
      [['evilpay ments x (not a valid Unleash name)', 'default · development ●', 'line one line two \\$(zap)']],
    );
  });

  it('notifications, input messages, the status bar and the log', () => {
    assert.equal(tagForMessage({ type: 'team', value: HOSTILE }), 'team:pay ments x');
    assert.equal(inertText(`Exported ${HOSTILE} [x](command:evil)`), 'Exported pay ments x [x] (command:evil)');
    assert.equal(inertText(`Copied ${HOSTILE}$(alert)`, 80), 'Copied pay ments x\\$(alert)');
    assert.equal(validateTagValue(`a${C0}`), undefined);
    assert.equal(validateTagValue('\u202e'), 'Tag value must be 2 to 50 characters (it has 1).');
    const error = new NotFoundError({ status: 404, request: 'GET /x', serverMessage: `No feature ${HOSTILE}` });
    assert.equal(formatError(error, { action: 'read the flag' }).message, 'Could not read the flag. Not found: No feature pay ments x.');
    assert.equal(logLine('hover', `Reading ${HOSTILE}\nfailed\ud800`), '[hover] Reading pay ments x failed\ufffd');
  });

  it('tree rows, tooltips and hovers', async () => {
    const flag = summary(`flag${HOSTILE}${WOMAN_TECHNOLOGIST}`, `About${C1}it\u2066`);
    const store = await storeListing([flag]);
    const [row] = (await childrenOf(undefined, store)) as [TreeNode];
    assert.equal(row.label, `flagpay ments x${WOMAN_TECHNOLOGIST} (not a valid Unleash name)`);
    assert.equal(row.tooltip?.split('\n\n').slice(0, 2).join('|'), `**flagpay ments x${WOMAN_TECHNOLOGIST} \\(not a valid Unleash name\\)**|About it`);
    const hover = hoverMarkdown({ matches: [{ summary: flag, detailsState: 'unavailable' }], sourceLabel: `host${HOSTILE}`, now: new Date(0) });
    assert.equal(hover.split('\n\n')[0], `**flagpay ments x${WOMAN_TECHNOLOGIST} \\(not a valid Unleash name\\)** · release · project default`);
    assert.equal(hover.split('\n\n').at(-1), '_Source: hostpay ments x_');
    // Markdown keeps its own paragraph breaks; nothing else of that class is left.
    for (const text of [row.label, row.tooltip ?? '', hover, pickText(HOSTILE)]) {
      const line = text.replace(/\n/g, '');
      assert.ok(!CONTROL.test(line) && !LONE_SURROGATE.test(line), JSON.stringify(text));
    }
  });
});

/**
 * The invisible characters the first filter let through: zero-width space, non-joiner and joiner, the word joiner
 * and invisible operators, the soft hyphen, the tag block (language tag, tag letters, cancel tag, its unassigned
 * first code point), and other format characters (Mongolian vowel separator, interlinear annotation).
 */
const NEWLY_INVISIBLE = [
  '\u200b', '\u200c', '\u200d', '\u2060', '\u2061', '\u2062', '\u2063', '\u2064', '\u00ad',
  '\u{E0000}', '\u{E0001}', '\u{E0041}', '\u{E007F}', '\u180e', '\ufff9',
];

describe('invisible characters: every format character, the tag block', () => {
  const code = (ch: string) => (ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');

  it('clean turns each into a space, the details document writes it as an escape', () => {
    for (const ch of NEWLY_INVISIBLE) {
      assert.equal(clean(`left${ch}right`), 'left right', code(ch));
      assert.equal(visibleText(`left${ch}right`), `left\\u{${code(ch)}}right`, code(ch));
    }
  });

  it('a zero-width joiner is kept only inside an emoji sequence', () => {
    assert.equal(clean(`team ${WOMAN_TECHNOLOGIST}`), `team ${WOMAN_TECHNOLOGIST}`);
    assert.equal(clean('\u{1F3F3}\ufe0f\u200d\u{1F308} \u{1F9D1}\u{1F3FD}\u200d\u{1F4BB}'), '\u{1F3F3}\ufe0f\u200d\u{1F308} \u{1F9D1}\u{1F3FD}\u200d\u{1F4BB}');
    assert.equal(clean('ad\u200dmin'), 'ad min');
    assert.equal(clean('x\u200d\u{1F4BB}'), 'x \u{1F4BB}');
    assert.equal(visibleText('ad\u200dmin'), 'ad\\u{200D}min');
  });

  it('tree row, tooltip, hover and details document', async () => {
    for (const ch of NEWLY_INVISIBLE) {
      const flag = summary(`pay${ch}ments`, `About${ch}it`);
      await assertRowAndHover(flag, ch);
      const payload = { type: 'json', value: `{"note":"x${ch}y"}` };
      const details: Feature = { ...flag, environments: [{ name: 'production', enabled: true, strategies: [], variants: [{ name: 'v', weight: 1000, payload }] }] };
      const document = (await flagDocument({ details, segments: new Map(), sourceLabel: 'unleash.example.com', now: new Date(0) })).split('\n');
      const escape = `\\u{${code(ch)}}`;
      assert.equal(document[0], `pay${escape}ments (not a valid Unleash name)`, code(ch));
      assert.equal(document[document.indexOf('Description') + 2], `About${escape}it`, code(ch));
      // In the JSON payload, a JSON escape (one per UTF-16 unit): the payload stays valid JSON.
      const jsonEscape = [...ch.split('')].map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
      assert.equal(document[document.findIndex((line) => line.includes('Payload (json):')) + 2], `          "note": "x${jsonEscape}y"`, code(ch));
    }
  });
});

/**
 * What the filter of format characters still let through: Unicode's Default_Ignorable_Code_Point characters that are
 * not format characters (the Hangul fillers, the combining grapheme joiner, the Khmer inherent vowels, the variation
 * selectors, those of the variation selectors supplement, Mongolian free variation selectors), and the blanks that
 * draw nothing (the braille blank, the musical null notehead).
 */
const DEFAULT_IGNORABLE = [
  '\u115f', '\u1160', '\u3164', '\uffa0', '\u034f', '\u17b4', '\u17b5', '\ufe0f', '\ufe00', '\u180b',
  '\u{E0100}', '\u{E01EF}', '\u2800', '\u{1D159}',
];

describe('invisible characters: every default-ignorable code point, and the blanks', () => {
  const code = (ch: string) => (ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');

  it('tree row, tooltip, hover, details document, diagnostics and the API token check', async () => {
    for (const ch of DEFAULT_IGNORABLE) {
      assert.equal(clean(`left${ch}right`), 'left right', code(ch));
      const flag = summary(`pay${ch}ments`, `About${ch}it`);
      await assertRowAndHover(flag, ch);
      const details: Feature = { ...flag, environments: [{ name: 'production', enabled: true, strategies: [] }] };
      const document = (await flagDocument({ details, segments: new Map(), sourceLabel: 'unleash.example.com', now: new Date(0) })).split('\n');
      assert.equal(document[0], `pay\\u{${code(ch)}}ments (not a valid Unleash name)`, code(ch));
      // The Problems panel: an SDK call naming a flag with the character in it.
      const [diagnostic] = await new FlagAnalyzer(new Catalog([summary('payments', '')])).analyse(`isEnabled('pay${ch}ments')`, { sourceLabel: `host${ch}name`, sourceKind: 'server' });
      assert.equal(diagnostic?.message, 'No flag named "pay ments" (not a valid Unleash name) on host name. Did you mean "payments"?', code(ch));
      // A token pasted with the character is refused before anything is sent.
      const client = new UnleashClient({ baseUrl: 'http://127.0.0.1:9', getToken: () => `*:*.abc${ch}def` });
      try {
        const error = await client.listEnvironments().then(() => undefined, (e: unknown) => e);
        assert.ok(error instanceof InvalidTokenError, code(ch));
        assert.match(formatError(error, { server: 'unleash.example.com' }).message, /^The API token for unleash\.example\.com contains characters that cannot be sent/);
      } finally {
        await client.close();
      }
    }
  });

  it('keeps the presentation selector of an emoji, as it keeps the joiner of a sequence', () => {
    for (const emoji of ['\u2764\ufe0f', '1\ufe0f\u20e3', '\u{1F3F3}\ufe0f\u200d\u{1F308}', '\u263a\ufe0e']) {
      assert.equal(clean(`team ${emoji}`), `team ${emoji}`, JSON.stringify(emoji));
      assert.equal(visibleText(emoji), emoji);
    }
    assert.equal(clean('a\ufe0fb\ufe0f\u20e3'), 'a b \u20e3');
  });
});

describe("names that break Unleash's naming rule", () => {
  it('a 10 MB name: the row is cleaned, cut and marked, its id bounded; Find Flag and the view message say so', async () => {
    const huge = summary(`huge\u202e${'x'.repeat(10_000_000)}`, 'About');
    const store = await storeListing([huge, summary('ok', ''), summary('new\u200bflag', '')]);
    const rows = (await childrenOf(undefined, store)) as TreeNode[];
    // The row cuts the name to leave its strip in view at the default width (rowNameWidth); Find Flag has room for more.
    assert.deepEqual(rows.map((row) => row.label), [
      `huge ${'x'.repeat(14)}… (not a valid Unleash name)`,
      'new flag (not a valid Unleash name)',
      'ok',
    ]);
    assert.ok((rows[0]?.id.length ?? Infinity) < 300, String(rows[0]?.id.length));
    assert.ok((rows[0]?.tooltip?.length ?? Infinity) < 1000);
    assert.equal(flagPickItems(store)[0]?.label, `huge ${'x'.repeat(167)}… (not a valid Unleash name)`);
    assert.equal(
      viewMessage(store),
      "2 flags have names that break Unleash's naming rule (1 to 100 letters, digits and - _ . ! ~ * ' ( )): they are marked in the tree and not offered in completion or quick fixes.",
    );
  });
});

function summary(name: string, description: string): FeatureSummary {
  return { name, project: 'default', type: 'release', description, environments: [{ name: 'development', enabled: true }] };
}

/** The store over a server that lists `flags`. */
function storeListing(flags: FeatureSummary[]): Promise<FlagStore> {
  return storeOver(listingSource(flags, { environments: ['development'] }));
}

/** The tree row, its tooltip and the hover of a flag whose name and description hold `ch`: shown as a blank. */
async function assertRowAndHover(flag: FeatureSummary, ch: string): Promise<void> {
  const code = (c: string) => (c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');
  const store = await storeListing([flag]);
  const [row] = (await childrenOf(undefined, store)) as [TreeNode];
  assert.equal(row.label, 'pay ments (not a valid Unleash name)', code(ch));
  assert.equal(row.tooltip?.split('\n\n').slice(0, 2).join('|'), '**pay ments \\(not a valid Unleash name\\)**|About it', code(ch));
  const hover = hoverMarkdown({ matches: [{ summary: flag, detailsState: 'unavailable' }], sourceLabel: `host${ch}name`, now: new Date(0) });
  assert.deepEqual(
    hover.split('\n\n').filter((_part, i, all) => i < 2 || i === all.length - 1),
    ['**pay ments \\(not a valid Unleash name\\)** · release · project default', 'About it', '_Source: host name_'],
    code(ch),
  );
}
