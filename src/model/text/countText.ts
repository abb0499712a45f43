/**
 * Counted nouns (`1 flag`, `3 flags`), each a pair of whole messages for translators, the form chosen by the
 * locale's plural rules (src/model/text/intl.ts).
 */
import * as l10n from '@vscode/l10n';
import { pluralForm, type PluralForms } from './intl';

/** The largest count kept: past it a double is not exact any more, so a count from a server, or a sum, stops there. */
export const MAX_COUNT = Number.MAX_SAFE_INTEGER;

/**
 * A count from a server as digits grouped the same on every machine (`1,234`); one that reached MAX_COUNT (or is not
 * a finite number) reads `9,007,199,254,740,991+`, never `∞` or 308 digits.
 */
export function formatCount(n: number): string {
  if (!(n < MAX_COUNT)) return l10n.t('{0}+', groupDigits(MAX_COUNT));
  return groupDigits(Math.max(0, Math.floor(n)));
}

/**
 * A whole number below 2^53 with its digits in groups of three (`1,234`), as en-US writes it, without `Intl`: the
 * first `toLocaleString` of a process loads the locale's number data, tens of milliseconds on the editor's thread.
 */
function groupDigits(n: number): string {
  const digits = String(n);
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return out;
}

export const flagCount = (n: number): string => pluralForm(n, { one: l10n.t('{0} flag', n), other: l10n.t('{0} flags', n) });
export const constraintCount = (n: number): string => pluralForm(n, { one: l10n.t('{0} constraint', n), other: l10n.t('{0} constraints', n) });
export const segmentCount = (n: number): string => pluralForm(n, { one: l10n.t('{0} segment', n), other: l10n.t('{0} segments', n) });
export const variantCount = (n: number): string => pluralForm(n, { one: l10n.t('{0} variant', n), other: l10n.t('{0} variants', n) });
export const strategyCount = (n: number): string => pluralForm(n, { one: l10n.t('{0} strategy', n), other: l10n.t('{0} strategies', n) });
export const tagCount = (n: number): string => pluralForm(n, { one: l10n.t('{0} tag', n), other: l10n.t('{0} tags', n) });
export const parameterCount = (n: number): string => pluralForm(n, { one: l10n.t('{0} parameter', n), other: l10n.t('{0} parameters', n) });

/** What the tree's `… and N more` rows count. */
export type ListedKind = 'environment' | 'dependency' | 'child' | 'link' | 'tag' | 'strategy' | 'variant' | 'constraint' | 'segment';

/** The two whole messages of each kind's `… and N more` row. */
const MORE: { readonly [K in ListedKind]: (n: number) => PluralForms } = {
  environment: (n) => ({ one: l10n.t('… and {0} more environment', n), other: l10n.t('… and {0} more environments', n) }),
  dependency: (n) => ({ one: l10n.t('… and {0} more dependency', n), other: l10n.t('… and {0} more dependencies', n) }),
  child: (n) => ({ one: l10n.t('… and {0} more child', n), other: l10n.t('… and {0} more children', n) }),
  link: (n) => ({ one: l10n.t('… and {0} more link', n), other: l10n.t('… and {0} more links', n) }),
  tag: (n) => ({ one: l10n.t('… and {0} more tag', n), other: l10n.t('… and {0} more tags', n) }),
  strategy: (n) => ({ one: l10n.t('… and {0} more strategy', n), other: l10n.t('… and {0} more strategies', n) }),
  variant: (n) => ({ one: l10n.t('… and {0} more variant', n), other: l10n.t('… and {0} more variants', n) }),
  constraint: (n) => ({ one: l10n.t('… and {0} more constraint', n), other: l10n.t('… and {0} more constraints', n) }),
  segment: (n) => ({ one: l10n.t('… and {0} more segment', n), other: l10n.t('… and {0} more segments', n) }),
};

/** `… and 12 more constraints`: the last row of a list cut at its first items. */
export function andMore(kind: ListedKind, n: number): string {
  return pluralForm(n, MORE[kind](n));
}
