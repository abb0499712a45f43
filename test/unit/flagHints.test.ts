/**
 * Inlay hints on the vscode-free model: where each goes, what it says (marks and words) in the environment order,
 * through the name transforms, and which names get none (unknown, archived, dynamic).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeatureSummary } from '../../src/api/schemas';
import { Catalog } from '../../src/model/store/catalog';
import { FlagHints } from '../../src/model/code/flagHints';

const env = (name: string, enabled: boolean, sortOrder: number) => ({ name, enabled, sortOrder });
const flag = (name: string, states: Record<string, boolean>, extra: Partial<FeatureSummary> = {}): FeatureSummary => ({
  name,
  project: 'default',
  environments: Object.entries(states).map(([environment, enabled], i) => env(environment, enabled, i + 1)),
  ...extra,
});

const catalog = new Catalog([
  flag('new-checkout', { development: true, production: false }),
  flag('old-banner', { development: false, production: false }, { archived: true }),
  flag('dark-mode', { development: false, production: true }),
]);

/** Each hint as `line:column label | words`. */
const shown = (hints: FlagHints, lines: string[]) =>
  lines.flatMap((text, line) => hints.line(text, line).map((hint) => `${hint.line}:${hint.character} ${hint.label} | ${hint.words}`));

describe('inlay hints (model)', () => {
  it('after each SDK call argument, past its closing quote, in the catalog’s environment order', () => {
    const hints = new FlagHints(catalog);
    assert.deepEqual(
      shown(hints, ["if (unleash.isEnabled('new-checkout') && client.isEnabled(\"dark-mode\")) {}", '    if client.is_enabled("dark-mode"):']),
      [
        '0:36 ● dev ○ prod | development enabled, production disabled',
        '0:69 ○ dev ● prod | development disabled, production enabled',
        '1:36 ○ dev ● prod | development disabled, production enabled',
      ],
    );
  });

  it('the same text on another line (remembered by its text): the hint is on that line', () => {
    const hints = new FlagHints(catalog);
    const text = "useFlag('dark-mode')";
    assert.deepEqual([...hints.line(text, 3), ...hints.line(text, 7)].map((hint) => `${hint.line}:${hint.character}`), ['3:19', '7:19']);
  });

  it('the chosen environments only, in the chosen order', () => {
    const hints = new FlagHints(catalog, { environments: ['production'] });
    assert.deepEqual(shown(hints, ["isEnabled('new-checkout')"]), ['0:24 ○ prod | production disabled; 1 more environment, hidden by unleash.environments']);
  });

  it('no hint for an unknown or archived name, a template with substitutions, or a name outside an SDK call', () => {
    const hints = new FlagHints(catalog);
    assert.deepEqual(shown(hints, ["isEnabled('new-chekout')", "isEnabled('old-banner')", 'isEnabled(`${name}`)', "const x = 'new-checkout';"]), []);
  });

  it('identifiers through the name transforms, never as written, nor inside a string', () => {
    const hints = new FlagHints(catalog, { transforms: [{ kind: 'screamingSnakeToKebab' }] });
    assert.deepEqual(shown(hints, ['if (flags[NEW_CHECKOUT] && DARK_MODE) log("NEW_CHECKOUT")', 'const newCheckout = 1;']), [
      '0:22 ● dev ○ prod | development enabled, production disabled',
      '0:36 ○ dev ● prod | development disabled, production enabled',
    ]);
  });

  it('past four environments, the count of the rest', () => {
    const many = new Catalog([flag('wide', { development: true, staging: false, production: true, qa: false, sandbox: true, demo: false })]);
    assert.deepEqual(shown(new FlagHints(many), ["isEnabled('wide')"]), [
      '0:16 ● dev ○ stage ● prod ○ qa +2 | development enabled, staging disabled, production enabled, qa disabled, sandbox enabled, demo disabled',
    ]);
  });
});
