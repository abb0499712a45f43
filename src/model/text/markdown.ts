/**
 * Untrusted text in markdown (tree tooltips, hovers) and the links flag data may carry. Flag data can hold
 * markdown, HTML, `command:` and `javascript:` links: everything here makes it render as the plain text it is,
 * and only http and https addresses are ever offered to open.
 */
import { clean, MAX_DETAIL, MAX_LABEL } from './plainText';

/** Every ASCII punctuation character: CommonMark lets each be escaped with a backslash. */
const PUNCTUATION = /[!-/:-@[-`{-~]/g;
const LINE_BREAK = /\r\n?|\n/g;

/**
 * Inline markdown source that renders as exactly `text`: every ASCII punctuation character is backslash-escaped
 * (so no emphasis, code, heading, list, table, HTML tag, entity, link, autolink, `$(icon)` or `command:` link can
 * form), line breaks become spaces, and leading spaces cannot start a code block. Does not shorten the text or
 * remove control characters: see `plainMarkdown` for untrusted input.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(LINE_BREAK, ' ')
    .replace(PUNCTUATION, '\\$&')
    .replace(/^[ \t]+/, (spaces) => '&nbsp;'.repeat(spaces.length));
}

/**
 * Untrusted text as inline markdown that renders as exactly its characters: `clean()`ed to one line of at most `max`
 * characters, trimmed (so `**bold**` around it always closes), then escaped.
 */
export function plainMarkdown(text: string, max: number = MAX_DETAIL): string {
  return escapeMarkdown(clean(text, max).trim());
}

/**
 * Untrusted text as an inline code span, where nothing is interpreted: one line of at most `max` characters,
 * fenced with more backticks than it contains. Not for table cells (a `|` would still split the cell).
 */
export function markdownCode(text: string, max: number): string {
  const line = clean(text, max);
  let longest = 0;
  for (const run of line.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const pad = line === '' || line.startsWith('`') || line.endsWith('`') || /^ .* $/.test(line) ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** Longest address offered to open. */
const MAX_URL = 2048;

/**
 * The address to open for a link from flag data, or undefined when it must not be opened: only absolute `http:`
 * and `https:` URLs of at most MAX_URL characters qualify (never `javascript:`, `command:`, `file:`, `data:`, …).
 * The answer is the normalised URL (percent-encoded, no spaces, no `<` or `>`).
 */
export function openableUrl(url: string | null | undefined): string | undefined {
  if (typeof url !== 'string') return undefined;
  const text = url.trim();
  if (text === '' || text.length > MAX_URL) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  if (parsed.hostname === '') return undefined;
  return parsed.href.length > MAX_URL ? undefined : parsed.href;
}

/**
 * A markdown link `[text](<url>)` when `url` may be opened, else the escaped text alone. The text is escaped, so
 * it cannot close the link early.
 */
export function markdownLink(text: string, url: string | null | undefined, max: number = MAX_DETAIL): string {
  const shown = plainMarkdown(text, max);
  const href = openableUrl(url);
  // Markdown decodes entities and backslash escapes in a link's address too: escape them, so it stays `href`.
  return href === undefined ? shown : `[${shown}](<${href.replace(/[\\&<>]/g, '\\$&')}>)`;
}

/**
 * Text for places that render `$(icon)` syntax (quick pick labels, descriptions and details): every `$(` is
 * escaped so a flag named `$(alert)` shows as written.
 */
export function escapeThemeIcons(text: string): string {
  return text.replace(/\$\(/g, '\\$(');
}

/**
 * Untrusted text as a quick pick label, description, detail or title: `clean()`ed to one bounded line, `$(…)` shown
 * as written.
 */
export function pickText(text: string, max: number = MAX_LABEL): string {
  return escapeThemeIcons(clean(text, max));
}

/**
 * Untrusted text inside a notification, an input's message or the status bar, which VS Code renders with links and
 * `$(icon)`s: `clean()`ed (one line, no control or bidi characters, no lone surrogates, at most `max` characters,
 * never cutting a character in half), `$(…)` shown as written, and no `[x](y)` left that would become a clickable
 * link (`command:` ones included).
 */
export function inertText(text: string, max = 1_000): string {
  return escapeThemeIcons(clean(text, max)).replace(/\]\s*\(/g, '] (');
}
