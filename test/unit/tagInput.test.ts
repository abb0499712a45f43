import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tagPickState } from '../../src/model/tags/tagPickItems';
import {
  checkTagExists,
  closestTag,
  distinctTags,
  edgeSpaceNote,
  formatTag,
  parseTag,
  tagForMessage,
  tagFromArgument,
  tagText,
  validateTagInput,
  validateTagType,
  validateTagValue,
} from '../../src/model/tags/tagInput';

/** What Check Tag says of input that is not `type:value`. */
const TAG_FORMAT_HINT = 'Write the tag as type:value, e.g. team:payments.';

describe('parseTag', () => {
  it('splits type:value', () => {
    assert.deepEqual(parseTag('team:payments'), { ok: true, tag: { type: 'team', value: 'payments' }, text: 'team:payments' });
  });

  it('splits at the first colon: values may hold colons and spaces', () => {
    assert.deepEqual(parseTag('simple:needs review'), {
      ok: true,
      tag: { type: 'simple', value: 'needs review' },
      text: 'simple:needs review',
    });
    const parsed = parseTag('url:https://example.com:8443/a');
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.tag, { type: 'url', value: 'https://example.com:8443/a' });
  });

  it('drops the spaces around the type; keeps the value exactly as typed (Unleash stores spaces at its ends as part of it)', () => {
    const parsed = parseTag('  team :  needs review  ');
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.tag, { type: 'team', value: '  needs review  ' });
    assert.equal(parsed.text, 'team:  needs review  ');
  });

  it('writes a value with spaces at its ends quoted, and says so', () => {
    assert.equal(tagText({ type: 'simple', value: ' legacy ' }), 'simple:" legacy "');
    assert.equal(tagText({ type: 'simple', value: 'needs review' }), 'simple:needs review');
    assert.equal(tagForMessage({ type: 'simple', value: 'legacy ' }), 'simple:"legacy "');
    assert.equal(edgeSpaceNote({ type: 'simple', value: ' legacy ' }), 'Its value starts and ends with spaces, which are part of the tag.');
    assert.equal(edgeSpaceNote({ type: 'simple', value: ' legacy' }), 'Its value starts with a space, which is part of the tag.');
    assert.equal(edgeSpaceNote({ type: 'simple', value: 'legacy\u00a0' }), 'Its value ends with a space, which is part of the tag.');
    assert.equal(edgeSpaceNote({ type: 'simple', value: 'needs review' }), undefined);
  });

  it('asks for the type:value form when there is no colon, or nothing at all', () => {
    assert.deepEqual(parseTag('payments'), { ok: false, message: 'Write the tag as type:value, e.g. team:payments.' });
    assert.deepEqual(parseTag(''), { ok: false, message: TAG_FORMAT_HINT });
    assert.deepEqual(parseTag('   '), { ok: false, message: TAG_FORMAT_HINT });
  });

  it('says which part has a bad length, and how long it is', () => {
    assert.deepEqual(parseTag('t:payments'), { ok: false, message: 'Tag type must be 2 to 50 characters (it has 1).' });
    assert.deepEqual(parseTag(':payments'), { ok: false, message: 'Tag type must be 2 to 50 characters (it has 0).' });
    assert.deepEqual(parseTag('team:p'), { ok: false, message: 'Tag value must be 2 to 50 characters (it has 1).' });
    assert.deepEqual(parseTag('team:'), { ok: false, message: 'Tag value must be 2 to 50 characters (it has 0).' });
    assert.deepEqual(parseTag(`${'t'.repeat(51)}:payments`), { ok: false, message: 'Tag type must be 2 to 50 characters (it has 51).' });
    assert.deepEqual(parseTag(`team:${'v'.repeat(51)}`), { ok: false, message: 'Tag value must be 2 to 50 characters (it has 51).' });
  });

  it('accepts the bounds, 2 and 50', () => {
    assert.ok(parseTag('ab:cd').ok);
    assert.ok(parseTag(`${'t'.repeat(50)}:${'v'.repeat(50)}`).ok);
  });

  it('reports the type first when both parts are wrong', () => {
    assert.deepEqual(parseTag('a:b'), { ok: false, message: 'Tag type must be 2 to 50 characters (it has 1).' });
  });
});

describe('validators for the input boxes', () => {
  it('validateTagInput gives the message, or undefined when valid', () => {
    assert.equal(validateTagInput('team:payments'), undefined);
    assert.equal(validateTagInput('team:x'), 'Tag value must be 2 to 50 characters (it has 1).');
  });

  it('validateTagType and validateTagValue check one part each', () => {
    assert.equal(validateTagType('team'), undefined);
    assert.equal(validateTagType('x'), 'Tag type must be 2 to 50 characters (it has 1).');
    assert.equal(validateTagValue('needs review'), undefined);
    assert.equal(validateTagValue('x'), 'Tag value must be 2 to 50 characters (it has 1).');
    assert.equal(validateTagValue(' x '), undefined, 'its spaces count: they are part of it');
    assert.equal(validateTagValue(` ${'v'.repeat(49)} `), 'Tag value must be 2 to 50 characters (it has 51).');
    assert.equal(validateTagValue('a:b'), undefined, 'a colon is fine in a value');
  });
});

describe('tagFromArgument', () => {
  it('accepts a string or a { type, value } object', () => {
    assert.deepEqual(tagFromArgument('team:payments'), parseTag('team:payments'));
    assert.deepEqual(tagFromArgument({ type: 'simple', value: 'needs review' }), {
      ok: true,
      tag: { type: 'simple', value: 'needs review' },
      text: 'simple:needs review',
    });
  });

  it('an object value keeps its colons (no splitting)', () => {
    const parsed = tagFromArgument({ type: 'url', value: 'a:b' });
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.tag, { type: 'url', value: 'a:b' });
  });

  it('refuses bad lengths and anything else with a message', () => {
    assert.deepEqual(tagFromArgument({ type: 't', value: 'payments' }), { ok: false, message: 'Tag type must be 2 to 50 characters (it has 1).' });
    assert.deepEqual(tagFromArgument({ type: 'team' }), { ok: false, message: TAG_FORMAT_HINT });
    assert.deepEqual(tagFromArgument(42), { ok: false, message: TAG_FORMAT_HINT });
    assert.deepEqual(tagFromArgument(undefined), { ok: false, message: TAG_FORMAT_HINT });
  });
});

describe('closestTag and distinctTags', () => {
  const known = [
    { type: 'team', value: 'payments' },
    { type: 'team', value: 'growth' },
    { type: 'jira', value: 'paymnts' },
  ];

  it('suggests a tag of the same type a typo away', () => {
    assert.deepEqual(closestTag({ type: 'team', value: 'paymnts' }, known), { type: 'team', value: 'payments' });
    assert.deepEqual(closestTag({ type: 'team', value: 'Growht' }, known), { type: 'team', value: 'growth' });
  });

  it('suggests the tag whose value differs only in spaces at its ends first, however many', () => {
    const spaced = [...known, { type: 'team', value: '   payments   ' }];
    assert.deepEqual(closestTag({ type: 'team', value: 'payments' }, spaced), { type: 'team', value: '   payments   ' });
    assert.deepEqual(closestTag({ type: 'team', value: ' paymnts' }, known), { type: 'team', value: 'payments' });
  });

  it('suggests nothing when no tag is close, or for the exact tag', () => {
    assert.equal(closestTag({ type: 'team', value: 'platform' }, known), undefined);
    assert.equal(closestTag({ type: 'team', value: 'payments' }, known), undefined);
    assert.equal(closestTag({ type: 'simple', value: 'paymnts' }, known), undefined);
  });

  it('lists the distinct tags of some flags, sorted', () => {
    const flags = [
      { tags: [{ type: 'team', value: 'payments' }, { type: 'jira', value: 'PAY-123' }] },
      { tags: [{ type: 'team', value: 'payments' }] },
      { tags: null },
      {},
    ];
    assert.deepEqual(distinctTags(flags).map(formatTag), ['jira:PAY-123', 'team:payments']);
  });
});

describe('checkTagExists', () => {
  function spyClient(answer: { version: number; tag: { type: string; value: string } } | undefined) {
    const calls: Array<[string, string]> = [];
    return {
      calls,
      getTag: async (type: string, value: string) => {
        calls.push([type, value]);
        return answer;
      },
    };
  }

  it('asks the server for a valid tag and says whether it exists', async () => {
    const found = spyClient({ version: 1, tag: { type: 'simple', value: 'needs review' } });
    assert.deepEqual(await checkTagExists(found, 'simple:needs review'), {
      ok: true,
      tag: { type: 'simple', value: 'needs review' },
      text: 'simple:needs review',
      exists: true,
    });
    assert.deepEqual(found.calls, [['simple', 'needs review']]);
    const missing = spyClient(undefined);
    assert.equal(((await checkTagExists(missing, { type: 'team', value: 'paymnts' })) as { exists: boolean }).exists, false);
  });

  it('answers invalid input with the message, without a request', async () => {
    const client = spyClient(undefined);
    for (const input of ['t:payments', 'team:p', `team:${'v'.repeat(51)}`, 'payments', '', { type: 'team' }]) {
      const result = await checkTagExists(client, input);
      assert.equal(result.ok, false, JSON.stringify(input));
    }
    assert.deepEqual(client.calls, []);
  });
});

describe('tags in messages', () => {
  it('cannot form a link, reorder text or break lines in a notification', () => {
    assert.equal(tagForMessage({ type: 'team', value: '[click](command:workbench.action.terminal.new)' }), 'team:[click] (command:workbench.action.terminal.new)');
    assert.equal(tagForMessage({ type: 'team', value: 'a\u202eb\nc' }), 'team:a b c');
    assert.equal(tagForMessage({ type: 'simple', value: 'needs review' }), 'simple:needs review');
  });
});

describe('Check Tag: what the user typed is what is checked', () => {
  const input = {
    types: [{ name: 'team' }, { name: 'simple' }],
    knownTags: [{ type: 'team', value: 'payments' }, { type: 'team', value: 'platform' }],
    prefer: 'types' as const,
    valueAction: 'Check',
  };

  it('a too-short value: Enter stays on the message, never on a listed tag', () => {
    const state = tagPickState('team:p', input);
    assert.deepEqual(state.rows.map((row) => row.label), ['$(error) Tag value must be 2 to 50 characters (it has 1).']);
    assert.equal(state.active, state.rows[0]);
    assert.equal(state.active?.pick, 'invalid');
  });

  it('a valid tag that is also listed, or not: Enter takes the typed tag', () => {
    const miss = tagPickState('team:paymentz', input);
    assert.deepEqual(miss.active, { pick: 'tag', tag: { type: 'team', value: 'paymentz' }, label: '$(tag) team:paymentz', description: 'Check this tag', alwaysShow: true });
    assert.deepEqual(miss.rows.map((row) => row.label), ['$(tag) team:paymentz', '$(tag) team:payments', '$(tag) team:platform']);
    const hit = tagPickState(' team :payments', input);
    assert.deepEqual(hit.rows.map((row) => row.label), ['$(tag) team:payments', '$(tag) team:platform']);
    assert.equal(hit.active, hit.rows[0]);
    // Spaces after the colon belong to the value: another tag, its spaces shown.
    const spaced = tagPickState('team: payments ', input);
    assert.deepEqual(spaced.active, { pick: 'tag', tag: { type: 'team', value: ' payments ' }, label: '$(tag) team:" payments "', description: 'Check this tag', alwaysShow: true });
  });

  it('no colon yet: the lists, and a new type only when nothing listed matches', () => {
    assert.equal(tagPickState('tea', input).active, undefined);
    const custom = tagPickState('jira', input);
    assert.equal(custom.active?.label, '$(edit) jira');
    assert.equal(tagPickState('j', input).active?.label, '$(error) Tag type must be 2 to 50 characters (it has 1).');
  });
});
