import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FlagMatch } from '../../src/model/code/flagMatch';
import { FlagNameIndex } from '../../src/model/code/flagNameIndex';
import { findFlagAt, findFlagInCode } from '../../src/model/code/flagNames';
import { applyTransform, type NameTransform } from '../../src/model/code/nameTransforms';
import { DEFAULT_SDK_CALLS } from '../../src/model/code/defaultSdkCalls';

const index = new FlagNameIndex([
  'new-checkout-flow',
  'new_checkout',
  'a.b.c',
  'team/payments/apple-pay',
  'search.v2',
  'dark-mode',
  'beta~users',
  'enable-http-cache',
]);

/** Cursor on the first char of `needle` (after `skip` earlier occurrences) plus `offset`. */
function at(line: string, needle: string, offset = 0, skip = 0): number {
  let i = -1;
  for (let k = 0; k <= skip; k++) i = line.indexOf(needle, i + 1);
  assert.ok(i >= 0, `'${needle}' not in '${line}'`);
  return i + offset;
}

function find(line: string, character: number, options?: Parameters<typeof findFlagAt>[3]): FlagMatch | undefined {
  return findFlagAt(line, character, index, options);
}

function expectFlag(
  line: string,
  character: number,
  name: string,
  extra: Partial<FlagMatch> = {},
  options?: Parameters<typeof findFlagAt>[3],
): FlagMatch {
  const m = find(line, character, options);
  assert.ok(m, `expected '${name}' at ${character} in: ${line}`);
  assert.equal(m.name, name);
  assert.equal(m.known, extra.known ?? true);
  assert.equal(line.slice(m.start, m.end), m.text, 'start/end must delimit text');
  for (const [k, v] of Object.entries(extra)) assert.deepEqual((m as unknown as Record<string, unknown>)[k], v, k);
  return m;
}

function expectNone(line: string, character: number, options?: Parameters<typeof findFlagAt>[3]): void {
  assert.equal(find(line, character, options), undefined, `expected no match at ${character} in: ${line}`);
}

describe('FlagNameIndex', () => {
  it('has exact names only, no case-folding', () => {
    assert.equal(index.has('dark-mode'), true);
    assert.equal(index.has('Dark-Mode'), false);
    assert.equal(index.has('dark'), false);
    assert.equal(index.size, 8);
  });

  it('ignores empty names and deduplicates', () => {
    const i = new FlagNameIndex(['', 'x', 'x']);
    assert.equal(i.size, 1);
    assert.equal(findFlagAt("f('')", 3, i), undefined);
  });

  it('handles 10,000 names', () => {
    const names = Array.from({ length: 10_000 }, (_, k) => `team-${k % 37}.feature-${k}`);
    const big = new FlagNameIndex(names);
    assert.equal(big.size, 10_000);
    const line = `if (unleash.isEnabled('team-5.feature-9999')) { render(); }`;
    const m = findFlagAt(line, at(line, 'feature-9999'), big);
    assert.equal(m?.name, 'team-5.feature-9999');
    assert.equal(m?.inSdkCall, 'isEnabled');
    const typo = `if (unleash.isEnabled('team-5.feature-10000')) {}`;
    assert.deepEqual(findFlagAt(typo, at(typo, 'feature'), big), {
      name: 'team-5.feature-10000',
      text: 'team-5.feature-10000',
      start: typo.indexOf("'") + 1,
      end: typo.lastIndexOf("'"),
      known: false,
      inSdkCall: 'isEnabled',
    });
    const ident = 'const x = flags.team-5.feature-42 ?? other;';
    assert.equal(findFlagAt(ident, at(ident, 'feature-42', 3), big)?.name, 'team-5.feature-42');
    assert.equal(findFlagAt('const feature = 1;', 8, big), undefined);
  });
});

describe('string literals across languages', () => {
  const cases: Array<[string, string]> = [
    ['TypeScript', `if (unleash.isEnabled('new-checkout-flow')) {`],
    ['JavaScript template', 'const f = `new-checkout-flow`;'],
    ['Python', `if client.is_enabled("new-checkout-flow", context):`],
    ['Python f-string', `key = f'new-checkout-flow'`],
    ['Go', `if unleash.IsEnabled("new-checkout-flow", unleash.WithContext(ctx)) {`],
    ['Go raw string', 'name := `new-checkout-flow`'],
    ['Java', `boolean on = unleash.isEnabled("new-checkout-flow", context);`],
    ['Kotlin', `val on = unleash.isEnabled("new-checkout-flow")`],
    ['C#', `if (_unleash.IsEnabled("new-checkout-flow")) {`],
    ['Ruby', `if UNLEASH.is_enabled?('new-checkout-flow', context)`],
    ['PHP', `if ($unleash->isEnabled('new-checkout-flow')) {`],
    ['JSON', `  "new-checkout-flow": {`],
    ['YAML quoted', `  - name: "new-checkout-flow"`],
    ['Markdown code span', 'Enable `new-checkout-flow` before the release.'],
  ];
  for (const [lang, line] of cases) {
    it(lang, () => {
      const start = at(line, 'new-checkout-flow');
      for (const c of [start, start + 5, start + 'new-checkout-flow'.length - 1]) {
        const m = expectFlag(line, c, 'new-checkout-flow');
        assert.equal(m.start, start);
        assert.equal(m.end, start + 'new-checkout-flow'.length);
      }
      // hovering the quotes selects the literal too
      expectFlag(line, start - 1, 'new-checkout-flow');
      expectFlag(line, start + 'new-checkout-flow'.length, 'new-checkout-flow');
    });
  }

  it('sets inSdkCall for known names in SDK calls, not elsewhere', () => {
    const line = `if (unleash.isEnabled('dark-mode')) {`;
    assert.equal(find(line, at(line, 'dark'))?.inSdkCall, 'isEnabled');
    const plain = `const FLAG = 'dark-mode';`;
    const m = find(plain, at(plain, 'dark'));
    assert.equal(m?.known, true);
    assert.equal(m?.inSdkCall, undefined);
    assert.equal('inSdkCall' in (m ?? {}), false);
  });

  it('handles escaped quotes', () => {
    const line = `log('it\\'s \\'dark-mode\\''); check("dark-mode")`;
    // The first literal's content is "it\'s \'dark-mode\'" — not a flag as a whole, but the
    // token inside it is.
    const m = find(line, at(line, 'dark-mode', 2));
    assert.equal(m?.name, 'dark-mode');
    assert.equal(m?.start, at(line, 'dark-mode'));
    // The second literal is paired correctly despite the escapes before it.
    const m2 = find(line, at(line, 'dark-mode', 2, 1));
    assert.equal(m2?.start, at(line, 'dark-mode', 0, 1));
    const esc = `x = "say \\"hi\\"" + "dark-mode"`;
    assert.equal(find(esc, at(esc, 'dark-mode', 1))?.name, 'dark-mode');
    assert.equal(find(esc, at(esc, 'hi')), undefined);
  });

  it('two strings on one line: the one under the cursor wins', () => {
    const line = `isEnabled('dark-mode') || isEnabled('new-checkout-flow')`;
    expectFlag(line, at(line, 'dark-mode', 3), 'dark-mode', { inSdkCall: 'isEnabled' });
    expectFlag(line, at(line, 'new-checkout', 3), 'new-checkout-flow', { inSdkCall: 'isEnabled' });
    expectNone(line, at(line, '||'));
    const typo = `isEnabled('dark-mode') || isEnabled('dark-mdoe')`;
    assert.equal(find(typo, at(typo, 'dark-mode'))?.known, true);
    assert.equal(find(typo, at(typo, 'dark-mdoe'))?.known, false);
  });

  it('apostrophes in prose/comments do not open strings', () => {
    const line = `// don't forget: 'dark-mode' isn't on by default`;
    expectFlag(line, at(line, 'dark-mode', 1), 'dark-mode');
    const md = `The team's flag \`new-checkout-flow\` is the users' favourite.`;
    expectFlag(md, at(md, 'checkout'), 'new-checkout-flow');
  });

  it('a literal that is not a flag falls back to the token inside it', () => {
    const line = `log("turned dark-mode on")`;
    expectFlag(line, at(line, 'mode'), 'dark-mode');
    expectNone(line, at(line, 'turned'));
  });

  it('unterminated strings are ignored (multi-line template)', () => {
    const line = 'const s = `dark-mode and';
    expectFlag(line, at(line, 'dark'), 'dark-mode');
  });

  it('never matches empty, blank or over-long literals', () => {
    const idx = new FlagNameIndex([' ', 'x'.repeat(201)]);
    expectNone(`isEnabled('')`, 10);
    expectNone(`isEnabled('   ')`, 11);
    assert.equal(findFlagAt(`f(' ')`, 3, idx), undefined);
    const long = `f('${'x'.repeat(201)}')`;
    assert.equal(findFlagAt(long, 10, idx), undefined);
    assert.equal(findFlagAt(`isEnabled('${'x'.repeat(201)}')`, 20, idx), undefined);
  });
});

describe('identifiers and tokens', () => {
  it('cursor at start, middle, end of token and just outside it', () => {
    const line = `  dark-mode: true`;
    const s = at(line, 'dark-mode');
    const e = s + 'dark-mode'.length;
    expectFlag(line, s, 'dark-mode', { start: s, end: e });
    expectFlag(line, s + 4, 'dark-mode');
    expectFlag(line, e - 1, 'dark-mode');
    expectFlag(line, e, 'dark-mode'); // caret right after the token (VS Code convention)
    expectNone(line, s - 1);
    expectNone(line, e + 1);
    expectNone(line, 0);
    expectNone(line, line.length);
  });

  it('out-of-range and fractional positions', () => {
    expectNone('dark-mode', -1);
    expectNone('dark-mode', 10);
    expectNone('dark-mode', 1.5);
    expectFlag('dark-mode', 9, 'dark-mode');
    expectNone('', 0);
  });

  it('word boundaries: a word that only contains a flag name gives no match', () => {
    for (const line of ['my-new-checkout-flow-test', 'new-checkout-flow2', 'xnew-checkout-flow', 'old_dark-mode']) {
      for (let c = 0; c <= line.length; c++) expectNone(line, c);
    }
    const str = `label('my-new-checkout-flow-test')`;
    expectNone(str, at(str, 'checkout'));
    const sdk = `isEnabled('my-new-checkout-flow-test')`;
    assert.equal(find(sdk, at(sdk, 'checkout'))?.known, false);
  });

  it('identifier under a member access: flags.new_checkout', () => {
    const line = `if (flags.new_checkout) {`;
    expectFlag(line, at(line, 'checkout'), 'new_checkout');
    expectNone(line, at(line, 'flags', 1));
    const py = `return settings.FEATURES.new_checkout or False`;
    expectFlag(py, at(py, 'new_checkout', 4), 'new_checkout');
  });

  it('names with dots', () => {
    const line = `const x = a.b.c;`;
    expectFlag(line, at(line, 'a.b.c'), 'a.b.c');
    expectFlag(line, at(line, 'b.c'), 'a.b.c');
    expectFlag(line, at(line, '.c'), 'a.b.c'); // on a separator
    const props = `feature.search.v2.enabled=true`;
    expectFlag(props, at(props, 'v2'), 'search.v2');
    expectNone(props, at(props, 'enabled'));
    const sentence = `Turn on search.v2.`;
    expectFlag(sentence, at(sentence, 'search'), 'search.v2');
  });

  it('names with slashes and tildes', () => {
    const line = `toggle: team/payments/apple-pay`;
    expectFlag(line, at(line, 'payments'), 'team/payments/apple-pay');
    const quoted = `isEnabled("team/payments/apple-pay")`;
    expectFlag(quoted, at(quoted, 'apple'), 'team/payments/apple-pay', { inSdkCall: 'isEnabled' });
    const tilde = `useFlag('beta~users')`;
    expectFlag(tilde, at(tilde, 'users'), 'beta~users', { inSdkCall: 'useFlag' });
  });

  it('ordinary English words and keywords give no match', () => {
    const lines = [
      'export async function checkout(flow: string): Promise<void> {',
      '  return new Checkout(flow).mode === "dark" ? null : undefined;',
      'The new checkout flow uses dark mode by default.',
      'def new(self, *args): pass',
      'if err != nil { return err }',
    ];
    for (const line of lines) {
      for (let c = 0; c <= line.length; c++) expectNone(line, c);
    }
  });

  it('no case-folding', () => {
    expectNone('DARK-MODE', 2);
    expectNone(`isEnabled('Dark-Mode')`.replace('isEnabled', 'log'), 6);
  });
});

describe('config files', () => {
  it('YAML, JSON, properties, .env, Markdown', () => {
    const yaml = `new-checkout-flow: true`;
    expectFlag(yaml, 3, 'new-checkout-flow');
    const yamlList = `  - dark-mode`;
    expectFlag(yamlList, at(yamlList, 'mode'), 'dark-mode');
    expectNone(yamlList, 2);
    const json = `{"new-checkout-flow": {"enabled": true}}`;
    expectFlag(json, at(json, 'flow'), 'new-checkout-flow');
    expectNone(json, at(json, 'enabled'));
    const env = `FLAG=new-checkout-flow`;
    expectFlag(env, at(env, 'checkout'), 'new-checkout-flow');
    expectNone(env, 1);
    const md = `- **dark-mode** — enables the dark theme`;
    expectFlag(md, at(md, 'dark-mode', 2), 'dark-mode');
    expectNone(md, at(md, 'dark theme'));
  });
});

describe('SDK calls', () => {
  it('typo in an SDK call → known:false with inSdkCall', () => {
    const line = `if (unleash.isEnabled('new-chekout-flow')) {`;
    const m = find(line, at(line, 'chekout'));
    assert.deepEqual(m, {
      name: 'new-chekout-flow',
      text: 'new-chekout-flow',
      start: at(line, 'new-chekout-flow'),
      end: at(line, 'new-chekout-flow') + 'new-chekout-flow'.length,
      known: false,
      inSdkCall: 'isEnabled',
    });
  });

  it('recognises the usual spellings', () => {
    const cases: Array<[string, string]> = [
      [`client.getVariant('nope')`, 'getVariant'],
      [`const on = useFlag('nope');`, 'useFlag'],
      [`const { flagsReady } = useFlagStatus("nope")`, 'useFlagStatus'],
      [`const v = useVariant<string>('nope');`, 'useVariant'],
      [`client.getBooleanValue('nope', false)`, 'getBooleanValue'],
      [`client.getStringValue("nope", "blue")`, 'getStringValue'],
      [`client.getNumberValue('nope', 1)`, 'getNumberValue'],
      [`client.getObjectValue('nope', {})`, 'getObjectValue'],
      [`client.getBooleanDetails('nope', false)`, 'getBooleanDetails'],
      [`unleash.isEnabled?.('nope')`, 'isEnabled'],
      [`client.is_enabled("nope")`, 'is_enabled'],
      [`client.get_variant("nope", ctx)`, 'get_variant'],
      [`unleash.IsEnabled("nope")`, 'IsEnabled'],
      [`unleash.GetVariant("nope")`, 'GetVariant'],
      [`UNLEASH.is_enabled?('nope', ctx)`, 'is_enabled?'],
      [`if UNLEASH.enabled? 'nope'`, 'enabled?'],
      [`$unleash->isEnabled('nope')`, 'isEnabled'],
      [`unleash.isEnabled(name: "nope")`, 'isEnabled'],
      [`client.BooleanValue(ctx, "nope", false, evalCtx)`, 'BooleanValue'],
      [`client.BooleanValue(context.Background(), "nope", false, evalCtx)`, 'BooleanValue'],
      [`await client.GetBooleanValueAsync("nope", false)`, 'GetBooleanValueAsync'],
      [`is_enabled( 'nope' )`, 'is_enabled'],
    ];
    for (const [line, call] of cases) {
      const m = find(line, at(line, 'nope', 1));
      assert.deepEqual(
        m && { name: m.name, known: m.known, inSdkCall: m.inSdkCall },
        { name: 'nope', known: false, inSdkCall: call },
        line,
      );
    }
  });

  it('known name in an SDK call → known:true', () => {
    const line = `const v = client.getVariant("dark-mode", ctx)`;
    expectFlag(line, at(line, 'mode'), 'dark-mode', { known: true, inSdkCall: 'getVariant' });
  });

  it('not the flag argument → no unknown report', () => {
    const lines: Array<[string, string]> = [
      [`client.getStringValue(key, 'blue')`, 'blue'], // default value, not the key
      [`isEnabled('new-' + suffix)`, 'new-'], // computed
      ['isEnabled(`${prefix}-checkout`)', 'checkout'], // interpolated
      [`is_enabled(f"{team}-checkout")`, 'checkout'],
      [`IsEnabled($"{team}-checkout")`, 'checkout'],
      [`isEnabled("$team-checkout")`, 'checkout'],
      [`isEnabled("#{team}-checkout")`, 'checkout'],
      [`notAnSdk('nope')`, 'nope'],
      [`function isEnabled(name = 'nope') {`, 'nope'],
      [`def is_enabled(name='nope'):`, 'nope'],
      [`const o = { name: 'nope' };`, 'nope'],
      [`x = cond ? 'nope' : 'other'`, 'nope'],
      [`isEnabled(a, 'nope')`, 'nope'],
      [`isEnabled('other', 'nope')`, 'nope'],
      [`isEnabled("nope" "concat")`, 'nope'],
    ];
    for (const [line, needle] of lines) {
      for (const c of [at(line, needle), at(line, needle, 2)]) assert.equal(find(line, c), undefined, line);
    }
  });

  it('outside SDK calls an unknown token gives undefined', () => {
    expectNone(`const label = 'new-chekout-flow';`, 20);
  });

  it('sdkCalls can be overridden', () => {
    const line = `flags.check('nope')`;
    expectNone(line, at(line, 'nope'));
    const m = find(line, at(line, 'nope'), { sdkCalls: ['check'] });
    assert.equal(m?.known, false);
    assert.equal(m?.inSdkCall, 'check');
    const std = `unleash.isEnabled('nope')`;
    expectNone(std, at(std, 'nope'), { sdkCalls: ['check'] });
    expectNone(std, at(std, 'nope'), { sdkCalls: [] });
  });

  it('DEFAULT_SDK_CALLS covers the documented spellings', () => {
    for (const name of [
      'isEnabled', 'getVariant', 'useFlag', 'useFlagStatus', 'useVariant', 'getBooleanValue',
      'getStringValue', 'getNumberValue', 'getObjectValue', 'getBooleanDetails', 'is_enabled',
      'get_variant', 'IsEnabled', 'GetVariant', 'is_enabled?',
    ]) {
      assert.ok(DEFAULT_SDK_CALLS.includes(name), name);
    }
  });
});

describe('transforms', () => {
  const transforms: NameTransform[] = [
    { kind: 'prefix', value: 'FLAG_' },
    { kind: 'screamingSnakeToKebab' },
    { kind: 'camelToKebab' },
    { kind: 'chain', transforms: [{ kind: 'prefix', value: 'FEATURE_' }, { kind: 'screamingSnakeToKebab' }] },
  ];

  it('applyTransform', () => {
    assert.equal(applyTransform('FLAG_dark-mode', { kind: 'prefix', value: 'FLAG_' }), 'dark-mode');
    assert.equal(applyTransform('FLAG_', { kind: 'prefix', value: 'FLAG_' }), undefined);
    assert.equal(applyTransform('dark-mode', { kind: 'prefix', value: 'FLAG_' }), undefined);
    assert.equal(applyTransform('dark-mode_FLAG', { kind: 'suffix', value: '_FLAG' }), 'dark-mode');
    assert.equal(applyTransform('NEW_CHECKOUT_FLOW', { kind: 'screamingSnakeToKebab' }), 'new-checkout-flow');
    assert.equal(applyTransform('New_Checkout', { kind: 'screamingSnakeToKebab' }), undefined);
    assert.equal(applyTransform('new_checkout_flow', { kind: 'snakeToKebab' }), 'new-checkout-flow');
    assert.equal(applyTransform('newCheckoutFlow', { kind: 'camelToKebab' }), 'new-checkout-flow');
    assert.equal(applyTransform('NewCheckoutFlow', { kind: 'camelToKebab' }), 'new-checkout-flow');
    assert.equal(applyTransform('enableHTTPCache', { kind: 'camelToKebab' }), 'enable-http-cache');
    assert.equal(applyTransform('checkoutV2', { kind: 'camelToKebab' }), 'checkout-v2');
    assert.equal(applyTransform('lowercase', { kind: 'camelToKebab' }), undefined);
    assert.equal(applyTransform('ABC', { kind: 'camelToKebab' }), undefined);
  });

  it('source text maps to the server name', () => {
    const ts = `if (flags[Flags.NEW_CHECKOUT_FLOW]) {`;
    const m = find(ts, at(ts, 'CHECKOUT'), { transforms });
    assert.deepEqual(m, {
      name: 'new-checkout-flow',
      text: 'NEW_CHECKOUT_FLOW',
      start: at(ts, 'NEW_CHECKOUT_FLOW'),
      end: at(ts, 'NEW_CHECKOUT_FLOW') + 17,
      known: true,
    });
    expectNone(ts, at(ts, 'CHECKOUT')); // not without transforms

    const prefixed = `export const FLAG_new_checkout = 'x';`;
    assert.equal(find(prefixed, at(prefixed, 'new'), { transforms })?.name, 'new_checkout');
    const camel = `const { darkMode, enableHttpCache } = useFlags();`;
    assert.equal(find(camel, at(camel, 'darkMode'), { transforms })?.name, 'dark-mode');
    assert.equal(find(camel, at(camel, 'Http'), { transforms })?.name, 'enable-http-cache');
    const env = `FEATURE_DARK_MODE=true`;
    const e = find(env, 3, { transforms });
    assert.equal(e?.name, 'dark-mode');
    assert.equal(e?.text, 'FEATURE_DARK_MODE');
  });

  it('the raw text wins over transforms', () => {
    const idx = new FlagNameIndex(['FLAG_x', 'x']);
    assert.equal(findFlagAt('FLAG_x', 2, idx, { transforms })?.name, 'FLAG_x');
  });

  it('transforms apply to SDK-call literals before reporting unknown', () => {
    const line = `isEnabled('FLAG_dark-mode')`;
    expectFlag(line, 12, 'dark-mode', { known: true, inSdkCall: 'isEnabled', text: 'FLAG_dark-mode' }, { transforms });
    assert.equal(find(line, 12)?.known, false);
  });
});

describe('findFlagInCode: hovers follow code', () => {
  const index = new FlagNameIndex(['beta', 'a', 'new-checkout-flow']);
  const at = (line: string, needle: string, options?: Parameters<typeof findFlagInCode>[3]) =>
    findFlagInCode(line, line.indexOf(needle), index, options);

  it('matches a string literal whose whole content is a flag name, in any quote kind', () => {
    for (const line of ['x = "beta"', "x = 'beta'", 'x = `beta`', 'flag: "beta",', 'f("a")']) {
      const quoted = line.match(/["'`](\w+)["'`]/)?.[1] as string;
      assert.equal(at(line, quoted)?.name, quoted, line);
    }
    assert.deepEqual(at('isEnabled("new-checkout-flow")', 'checkout'), {
      name: 'new-checkout-flow', text: 'new-checkout-flow', start: 11, end: 28, known: true, inSdkCall: 'isEnabled',
    });
  });

  it('never matches words in comments and prose, parts of a literal, or a template with a substitution', () => {
    assert.equal(at('// beta users see this', 'beta'), undefined);
    assert.equal(at('# a flag for a beta', 'beta'), undefined);
    assert.equal(at('The beta flag is a test.', 'a test'), undefined);
    assert.equal(at('x = "beta users"', 'beta'), undefined);
    assert.equal(at('x = "flags/beta"', 'beta'), undefined);
    assert.equal(at('x = `beta${n}`', 'beta'), undefined);
    assert.equal(at('const beta = 1;', 'beta'), undefined);
  });

  it('matches identifiers only through a name transform', () => {
    const transforms = [{ kind: 'screamingSnakeToKebab' as const }];
    assert.equal(at('if (NEW_CHECKOUT_FLOW) {}', 'CHECKOUT'), undefined);
    assert.deepEqual(at('if (Flags.NEW_CHECKOUT_FLOW) {}', 'CHECKOUT', { transforms }), {
      name: 'new-checkout-flow', text: 'NEW_CHECKOUT_FLOW', start: 10, end: 27, known: true,
    });
    // A transform that leaves the text as it is does not make a plain word a flag.
    assert.equal(at('let beta = 1', 'beta', { transforms: [{ kind: 'snakeToKebab' }] }), undefined);
  });

  it('in configuration files, a whole unquoted value is a literal too; a comment or a sentence is not', () => {
    const yaml = { plainScalars: true };
    assert.deepEqual(at('  flag: new-checkout-flow', 'checkout', yaml), { name: 'new-checkout-flow', text: 'new-checkout-flow', start: 8, end: 25, known: true });
    assert.equal(at('  - beta', 'beta', yaml)?.name, 'beta');
    assert.equal(at('FLAG=beta # on in staging', 'beta', yaml)?.name, 'beta');
    assert.equal(at('# beta', 'beta', yaml), undefined);
    assert.equal(at('  note: the beta users', 'beta', yaml), undefined);
    // Outside configuration files an unquoted value is not a flag.
    assert.equal(at('  flag: new-checkout-flow', 'checkout'), undefined);
  });

  it('keeps the typo hint for an SDK call and leaves computed names alone', () => {
    assert.deepEqual(at("unleash.isEnabled('bta')", 'bta'), {
      name: 'bta', text: 'bta', start: 19, end: 22, known: false, inSdkCall: 'isEnabled',
    });
    assert.equal(at('isEnabled(`beta-${x}`)', 'beta'), undefined);
    assert.equal(at('isEnabled(f"beta-{x}")', 'beta'), undefined);
  });
});
