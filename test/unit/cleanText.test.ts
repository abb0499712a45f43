/**
 * Hostile text on every surface a user reads: control characters, C1 controls, every bidi control, lone surrogates
 * and emoji ZWJ sequences go through one function (`clean`), and each surface shows exactly the text asserted here.
 *   node --import tsx --test test/unit/cleanText.test.ts
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NotFoundError } from '../../src/api/errors';
import type { Feature, FeatureSummary, Segment } from '../../src/api/schemas';
import type { FlagSource } from '../../src/model/flagSource';
import { FlagStore } from '../../src/model/flagStore';
import { hoverMarkdown } from '../../src/model/hoverContent';
import { inertText, pickText } from '../../src/model/markdown';
import { tagForMessage, validateTagValue } from '../../src/model/tagInput';
import { tagPickState } from '../../src/model/tagPickItems';
import { childrenOf, flagPickItems, type TreeNode } from '../../src/model/tree';
import { clean, truncate } from '../../src/model/wording';
import { formatError } from '../../src/model/formatError';
import { logLine } from '../../src/util/logger';

/** Every bidi formatting character Unicode has. */
const BIDI = ['\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
const C0 = '\u0000\u0007\u001b\t\n\r';
const C1 = '\u0080\u0085\u009b\u009f';
/** A tag value that would display reversed (`sym:stnemyap` reads `payments`) and beep. */
const HOSTILE = `pay\u202ements\u0007${C1}x`;
const WOMAN_TECHNOLOGIST = '\u{1F469}\u200d\u{1F4BB}';
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

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
    const store = await storeOver([summary(`evil${HOSTILE}`, `line one\nline two\u202e$(zap)`)]);
    assert.deepEqual(
      flagPickItems(store).map((item) => [item.label, item.description, item.detail]),
      [['evilpay ments x', 'default · development ●', 'line one line two \\$(zap)']],
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
    const store = await storeOver([flag]);
    const [row] = (await childrenOf(undefined, store)) as [TreeNode];
    assert.equal(row.label, `flagpay ments x${WOMAN_TECHNOLOGIST}`);
    assert.equal(row.tooltip?.split('\n\n').slice(0, 2).join('|'), `**flagpay ments x${WOMAN_TECHNOLOGIST}**|About it`);
    const hover = hoverMarkdown({ matches: [{ summary: flag, detailsState: 'unavailable' }], sourceLabel: `host${HOSTILE}`, now: new Date(0) });
    assert.equal(hover.split('\n\n')[0], `**flagpay ments x${WOMAN_TECHNOLOGIST}** · release · project default`);
    assert.equal(hover.split('\n\n').at(-1), '_Source: hostpay ments x_');
    // Markdown keeps its own paragraph breaks; nothing else of that class is left.
    for (const text of [row.label, row.tooltip ?? '', hover, pickText(HOSTILE)]) {
      assert.ok(!UNSAFE.test(text.replace(/\n/g, '')), JSON.stringify(text));
    }
  });
});

function summary(name: string, description: string): FeatureSummary {
  return { name, project: 'default', type: 'release', description, environments: [{ name: 'development', enabled: true }] };
}

async function storeOver(flags: FeatureSummary[]): Promise<FlagStore> {
  const source: FlagSource = {
    kind: 'server',
    label: 'unleash.example.com',
    listFeatures: async () => flags,
    getFeature: async (): Promise<Feature> => {
      throw new Error('not here');
    },
    getStrategySegments: async (): Promise<Segment[]> => [],
    listEnvironments: async () => ['development'],
  };
  const store = new FlagStore({ info() {}, error() {} });
  void store.load(); // needed from the start: setSource reads the list
  await store.setSource(source, 'ready');
  return store;
}
