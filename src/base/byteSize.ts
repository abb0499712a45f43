/**
 * A size in bytes as people read it: `812 B`, `12.4 KB`, `3.1 MB` (binary units, one decimal). The unit is a
 * translated message; the number is written the way `locale` writes it (the model passes the editor's language).
 */
import * as l10n from '@vscode/l10n';

/** The last locale's number format, made on first use (making one reads the locale's data). */
let numbers: { locale: string; format: Intl.NumberFormat } | undefined;

/** `bytes` in B, KB or MB; `locale` is a BCP 47 tag (English when not given). */
export function formatByteSize(bytes: number, locale = 'en'): string {
  if (bytes < 1024) return l10n.t('{0} B', bytes);
  if (numbers?.locale !== locale) {
    numbers = { locale, format: new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false }) };
  }
  if (bytes < 1024 * 1024) return l10n.t('{0} KB', numbers.format.format(bytes / 1024));
  return l10n.t('{0} MB', numbers.format.format(bytes / 1024 / 1024));
}
