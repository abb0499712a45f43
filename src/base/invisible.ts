/**
 * The one definition of an invisible character: text shown to people (labels, hovers, messages, the details
 * document, file names) never carries one as it is. Everything that tests for such characters uses this.
 *
 * Invisible are: every Unicode control (Cc: C0, DEL, C1) and format character (Cf: the soft hyphen, zero-width
 * space, non-joiner and joiner, word joiner and invisible operators U+2060–U+2064, the bidi marks, embeddings,
 * overrides and isolates, the byte-order mark, the tag characters), the line and paragraph separators, the whole
 * tag block U+E0000–U+E007F, and lone surrogates. A zero-width joiner between two pictographs (👩‍💻, 🏳️‍🌈) is
 * part of an emoji, which shows it: it is not invisible there.
 */

const CHARACTERS = '[\\p{Cc}\\p{Cf}\\u2028\\u2029\\u{E0000}-\\u{E007F}\\ud800-\\udfff]';
/** Not the joiner of an emoji ZWJ sequence (a pictograph, maybe VS16 or a skin tone, the joiner, a pictograph). */
const NOT_EMOJI_JOINER = '(?<!\\p{Extended_Pictographic}[\\u{FE0F}\\u{1F3FB}-\\u{1F3FF}]?\\u200d(?=\\p{Extended_Pictographic}))';

/** One invisible character, as a regular expression source for the `u` flag (lone surrogates match one by one). */
export const INVISIBLE_SOURCE = `${CHARACTERS}${NOT_EMOJI_JOINER}`;

const ANY_INVISIBLE = new RegExp(INVISIBLE_SOURCE, 'u');

/** Every invisible character of a text (global, `u` flag): for `text.replace(INVISIBLE, …)`. */
export const INVISIBLE = new RegExp(INVISIBLE_SOURCE, 'gu');

/** Whether `text` holds an invisible character. */
export function hasInvisible(text: string): boolean {
  return ANY_INVISIBLE.test(text);
}
