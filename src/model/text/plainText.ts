/**
 * Plain-text building blocks of every wording function. Flag data is untrusted (control, bidi and invisible characters,
 * lone surrogates, any length): everything returned goes through `clean()` or is built from cleaned pieces, so it is
 * one bounded line. Nothing here escapes markdown: callers that render markdown do.
 */
import * as l10n from '@vscode/l10n';
import { hasInvisible, INVISIBLE, INVISIBLE_SOURCE } from '../../base/invisible';
import { joinValues } from './intl';

/** Longest label (tree label, description, one-line summary) any wording function returns. */
export const MAX_LABEL = 200;
/** Longest detail text (tooltip line, variant or segment detail). */
export const MAX_DETAIL = 400;
/** Longest single value inside a list of values. */
const MAX_VALUE = 60;
/** How many values of a list are shown before `… and N more`. */
const MAX_LIST_ITEMS = 10;

const LONE_SURROGATE = /[\ud800-\udfff]/gu;
/** A run of invisible characters (spaces between them included) and the spaces after it. */
const INVISIBLE_RUN = new RegExp(`(?:${INVISIBLE_SOURCE})(?:[ \\u00a0]*(?:${INVISIBLE_SOURCE}))*[ \\u00a0]*`, 'gu');

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** `text` without its trailing spaces (a loop: a `/ +$/` search is quadratic on a long run of spaces). */
function trimSpacesEnd(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === ' ' || text[end - 1] === '\u00a0')) end--;
  return text.slice(0, end);
}

/**
 * One line of text: every run of invisible characters (`src/base/invisible.ts`: controls such as newlines and tabs,
 * format characters such as bidi controls and zero-width spaces, line and paragraph separators), together with the
 * spaces around it, becomes a single space; lone surrogates become U+FFFD. Other characters, including leading and
 * trailing spaces, are kept. Linear in the length of the text.
 */
export function singleLine(text: string): string {
  // Lone surrogates are invisible characters too: text without any is returned at once.
  if (!hasInvisible(text)) return text;
  const wellFormed = text.replace(LONE_SURROGATE, '\ufffd');
  if (!hasInvisible(wellFormed)) return wellFormed;
  const out: string[] = [];
  let from = 0;
  for (const run of wellFormed.matchAll(INVISIBLE_RUN)) {
    out.push(trimSpacesEnd(wellFormed.slice(from, run.index)), ' ');
    from = run.index + run[0].length;
  }
  out.push(wellFormed.slice(from));
  return out.join('');
}

/**
 * A value in full, for the flag details document: nothing is cut, and every invisible character (those `singleLine`
 * removes, lone surrogates included) is written as a visible escape such as `\u{202E}`, so the text cannot reorder
 * or hide anything and still says exactly what the server holds. With `multiline`, line breaks (`\n`, `\r\n`) and
 * tabs are kept as they are.
 */
export function visibleText(text: string, options: { multiline?: boolean } = {}): string {
  const normalised = options.multiline ? text.replace(/\r\n/g, '\n') : text;
  return normalised.replace(INVISIBLE, (ch) => {
    if (options.multiline && (ch === '\n' || ch === '\t')) return ch;
    return `\\u{${(ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}}`;
  });
}

/**
 * Shortens `text` to at most `max` UTF-16 code units, ending with `…` when anything was cut. Never splits a
 * surrogate pair; trailing spaces before the ellipsis are dropped.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  if (max === 1) return '…';
  return text.slice(0, graphemeStart(text, max - 1)).trimEnd() + '…';
}

// Made when a text is first cut: making it reads the locale's break rules, not needed at start-up.
let graphemes: Intl.Segmenter | undefined;

/**
 * The largest index ≤ `end` at which `text` may be cut without splitting a character as people see it: a surrogate
 * pair, an emoji ZWJ sequence (👩‍💻), a flag, a letter with its combining marks. Only the text around the cut is
 * segmented.
 */
function graphemeStart(text: string, end: number): number {
  if (end <= 0) return 0;
  // A user-perceived character longer than this is cut anyway (a hostile run of combining marks).
  const from = Math.max(0, end - 64);
  const around = text.slice(from, Math.min(text.length, end + 64));
  const segment = (graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })).segment(around).containing(end - from);
  let cut = segment === undefined ? end : from + segment.index;
  if (cut === from && from > 0) cut = end; // no boundary in reach: cut at a code point instead
  if (cut === end && isHighSurrogate(text.charCodeAt(end - 1))) cut -= 1;
  return cut;
}

/**
 * `singleLine` then `truncate`, without scanning more of a huge input than can be shown.
 */
export function clean(text: string, max: number = MAX_LABEL): string {
  // Collapsing runs can only shorten the text by the run lengths; four times the limit is plenty to fill it.
  const window = Math.max(max * 4, 64);
  if (text.length <= window) return truncate(singleLine(text), max);
  let end = window;
  if (isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  const shown = singleLine(text.slice(0, end));
  if (shown.length > max) return truncate(shown, max);
  // The rest of the input was not looked at: mark the cut even though what was read fits.
  const keep = Math.min(shown.length, max - 1);
  return shown.slice(0, graphemeStart(shown, keep)).trimEnd() + '…';
}

/** A single value as shown inside a sentence: cleaned, shortened, and `""` for the empty string. */
export function showValue(value: string, max: number = MAX_VALUE): string {
  if (value === '') return '""';
  const shown = clean(value, max);
  return shown.trim() === '' ? `"${shown}"` : shown;
}

interface ListOptions {
  /** Most values shown (default MAX_LIST_ITEMS). */
  readonly maxItems?: number;
  /** Longest single value (default MAX_VALUE). */
  readonly maxItem?: number;
  /** Longest total text before `… and N more` (default 120). */
  readonly budget?: number;
}

/**
 * `a, b, c`, or `a, b, c … and 12 more` (`a, b, c… and 12 more` if c was cut) when the list is longer than `maxItems` or than `budget` characters.
 * Returns '' for an empty list (callers choose their own wording for that).
 */
export function formatList(values: readonly string[], options: ListOptions = {}): string {
  const maxItems = Math.max(1, options.maxItems ?? MAX_LIST_ITEMS);
  const maxItem = options.maxItem ?? MAX_VALUE;
  const budget = options.budget ?? 120;
  const items: string[] = [];
  // The budget counts `, ` between items (the English list); the locale's list words are put in once, at the end.
  let length = 0;
  for (const value of values) {
    if (items.length >= maxItems) break;
    const item = showValue(value, Math.min(maxItem, budget));
    const next = items.length === 0 ? item.length : length + 2 + item.length;
    if (items.length > 0 && next > budget) break;
    items.push(item);
    length = next;
  }
  return andMoreAfter(joinValues(items), values.length - items.length);
}

/** `text … and N more` (`text… and N more` when `text` was cut, so no two `…` in a row); `text` when `rest` ≤ 0. */
export function andMoreAfter(text: string, rest: number): string {
  if (rest <= 0) return text;
  return text.endsWith('…') ? l10n.t('{0} and {1} more', text, rest) : l10n.t('{0} … and {1} more', text, rest);
}

/** A number with at most one decimal and no trailing `.0`: 33.3, 50, 0.1. */
export function oneDecimal(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  const text = (rounded === 0 ? 0 : rounded).toFixed(1);
  return text.endsWith('.0') ? text.slice(0, -2) : text;
}

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}:?\d{2}))?$/;

/**
 * Milliseconds since the epoch for an ISO 8601 date (`2025-01-02`, taken as UTC) or date-time that carries its
 * own offset (`…Z`, `…+02:00`). A date-time without an offset is refused (it would depend on the local time
 * zone), as is anything out of range. Never depends on the machine's locale or time zone.
 */
export function parseIsoUtc(text: string): number | undefined {
  const m = ISO_DATE_TIME.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = h === undefined ? 0 : Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = s === undefined ? 0 : Number(s);
  const millis = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, '0'));
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  if (date.getUTCDate() !== day) return undefined; // 2025-02-30
  let offsetMinutes = 0;
  if (zone !== undefined && zone !== 'Z' && zone !== 'z') {
    const digits = zone.replace(':', '');
    const sign = digits.startsWith('-') ? -1 : 1;
    const oh = Number(digits.slice(1, 3));
    const om = Number(digits.slice(3, 5));
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = sign * (oh * 60 + om);
  }
  return date.getTime() - offsetMinutes * 60_000;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** `2025-01-02` (UTC) for a time in milliseconds. */
export function utcDate(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** `2025-01-02 13:45 UTC`; seconds and milliseconds are added only when not zero, so nothing is hidden. */
export function utcDateTime(ms: number): string {
  const d = new Date(ms);
  let time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  if (d.getUTCSeconds() !== 0 || d.getUTCMilliseconds() !== 0) time += `:${pad(d.getUTCSeconds())}`;
  if (d.getUTCMilliseconds() !== 0) time += `.${pad(d.getUTCMilliseconds(), 3)}`;
  return l10n.t('{0} {1} UTC', utcDate(ms), time);
}
