/**
 * Plurals, lists and relative times through `Intl`, in the editor's display language (`setLocale` at activation;
 * English until then and in plain Node tests). The words themselves are translated by the caller (`l10n.t`).
 */

export type PluralForms = { readonly other: string } & Partial<Record<Exclude<Intl.LDMLPluralRule, 'other'>, string>>;

const FALLBACK = 'en';
let locale = FALLBACK;
// Each formatter is made on first use: making the first one of a kind reads the locale's data, which a window that
// never shows a list, a plural or a time need not pay at start-up.
let plurals: Intl.PluralRules | undefined;
let units: Intl.ListFormat | undefined;
let alternatives: Intl.ListFormat | undefined;
let relative: Intl.RelativeTimeFormat | undefined;

/** Uses `language` (a BCP 47 tag such as `de` or `pt-br`) from now on; an unknown or malformed tag leaves English. */
export function setLocale(language: string | undefined): void {
  let next = FALLBACK;
  try {
    if (language && Intl.getCanonicalLocales(language).length > 0) next = language;
  } catch {
    // not a locale tag: keep English
  }
  locale = next;
  plurals = units = alternatives = relative = undefined;
}

/** The locale the helpers use now. */
export function currentLocale(): string {
  return locale;
}

/**
 * The form of `forms` that the locale's plural rules choose for `count` (`one`, `few`, `many`…), or `other` when
 * that form is not given. Each form is a translated message with its own `{0}`, e.g.
 * `pluralForm(n, { one: l10n.t('{0} flag', n), other: l10n.t('{0} flags', n) })`.
 */
export function pluralForm(count: number, forms: PluralForms): string {
  const rule = (plurals ??= new Intl.PluralRules(locale)).select(count);
  return (rule === 'other' ? undefined : forms[rule]) ?? forms.other;
}

/** Values joined as a list of items (`a, b, c` in English): the items are data, not words of a sentence. */
export function joinValues(values: readonly string[]): string {
  return (units ??= new Intl.ListFormat(locale, { type: 'unit', style: 'short' })).format(values);
}

/** Alternatives: `a or b`, `a, b, or c` in English. */
export function joinAlternatives(values: readonly string[]): string {
  return (alternatives ??= new Intl.ListFormat(locale, { type: 'disjunction' })).format(values);
}

type TimeUnit = 'minute' | 'hour' | 'day' | 'month' | 'year';

/** `3 days ago`, `1 hour ago` (always numeric: never `yesterday`). */
export function timeAgo(count: number, unit: TimeUnit): string {
  return (relative ??= new Intl.RelativeTimeFormat(locale, { numeric: 'always' })).format(-Math.abs(count), unit);
}
