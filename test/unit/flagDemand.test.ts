import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callsSdk, hoverMayNameFlag } from '../../src/model/store/flagDemand';
import { sourceMode } from '../../src/model/store/flagSource';

describe('when code needs the flag list', () => {
  it('a hover needs it on a string literal, elsewhere only when names are matched outside literals', () => {
    const line = "if (unleash.isEnabled('new-checkout-flow')) { render(x); }";
    assert.equal(hoverMayNameFlag(line, line.indexOf('checkout')), true);
    assert.equal(hoverMayNameFlag(line, line.indexOf("'new")), true, 'the quote itself');
    assert.equal(hoverMayNameFlag(line, line.indexOf('render')), false);
    assert.equal(hoverMayNameFlag(line, line.indexOf('render'), { transforms: [{ kind: 'camelToKebab' }] }), true);
    assert.equal(hoverMayNameFlag(line, line.indexOf('render'), { matchAnywhere: true }), true);
    assert.equal(hoverMayNameFlag('flag: new-checkout-flow', 8, { plainScalars: true }), true, 'YAML values need no quotes');
  });

  it('a document needs it when it passes a literal to an SDK call (the built-in list or the configured calls)', () => {
    assert.equal(callsSdk("import x from 'y';\nif (client.isEnabled('a-flag')) {}\n"), true);
    assert.equal(callsSdk('if client.is_enabled("a-flag"):'), true);
    assert.equal(callsSdk("const isEnabled = (name) => name;\nisEnabled(flagName);\n"), false, 'no literal argument');
    assert.equal(callsSdk('// isEnabled is documented elsewhere\nconst a = "b";'), false);
    assert.equal(callsSdk("checkFlag('a')", ['checkFlag']), true);
    assert.equal(callsSdk("isEnabled('a')", ['checkFlag']), false, 'only the configured calls');
    assert.equal(callsSdk(''), false);
  });

  it('finds a call by its callee as a whole identifier, past lines that name it without a literal', () => {
    assert.equal(callsSdk("myisEnabled('a');\nisEnabledX('b');\nx.isEnabled2('c');"), false, 'the callee is a whole identifier');
    assert.equal(callsSdk("isEnabled(name);\n// isEnabled\n\nif (flags.isEnabled?.('a')) {}"), true);
    assert.equal(callsSdk("if enabled? 'a-flag'", ['enabled?']), true, 'a callee ending in ?');
    assert.equal(callsSdk("if enabled 'a-flag'", ['enabled?']), false);
    assert.equal(callsSdk("useVariant<Payload>('a')"), true, 'type arguments');
    assert.equal(callsSdk(`${'x'.repeat(20_001)} isEnabled('a')\nisEnabled('b')`), true, 'a line too long to read is skipped, not the rest');
    assert.equal(callsSdk("check('a')", ['client.check', 'ch eck']), false, 'names no callee can have are never found');
  });
});

describe('which commands are on offer (the unleash.mode context key)', () => {
  it('server while a server is set, whatever its state; offline with export files; none with neither', () => {
    assert.equal(sourceMode('ready', { kind: 'server' }), 'server');
    for (const state of ['noToken', 'unapproved', 'invalidSettings']) assert.equal(sourceMode(state, undefined), 'server', state);
    assert.equal(sourceMode('ready', { kind: 'files' }), 'offline');
    assert.equal(sourceMode('noServer', undefined), 'none');
    assert.equal(sourceMode('loading', undefined), undefined, 'not evaluated yet: the key is left as it is');
  });
});
