/**
 * The one definition of an invisible character, which text shown to people never carries as it is: every Unicode
 * control (Cc) and format character (Cf: zero-width, bidi, the byte-order mark…), the line and paragraph separators,
 * the tag block U+E0000–U+E007F and lone surrogates; but not the zero-width joiner inside an emoji (👩‍💻), which shows.
 */

const CHARACTERS = '[\\p{Cc}\\p{Cf}\\u2028\\u2029\\u{E0000}-\\u{E007F}\\ud800-\\udfff]';
/**
 * Not the joiner of an emoji ZWJ sequence (a pictograph, maybe VS16 or a skin tone, the joiner, a pictograph). VS16
 * and the skin tones are alternatives, not one class: a class holding both reads as one modified emoji.
 */
const NOT_EMOJI_JOINER = '(?<!\\p{Extended_Pictographic}(?:\\u{FE0F}|[\\u{1F3FB}-\\u{1F3FF}])?\\u200d(?=\\p{Extended_Pictographic}))';

/** One invisible character, as a regular expression source for the `u` flag (lone surrogates match one by one). */
export const INVISIBLE_SOURCE = `${CHARACTERS}${NOT_EMOJI_JOINER}`;

const ANY_INVISIBLE = new RegExp(INVISIBLE_SOURCE, 'u');

/** Every invisible character of a text (global, `u` flag): for `text.replace(INVISIBLE, …)`. */
export const INVISIBLE = new RegExp(INVISIBLE_SOURCE, 'gu');

/** Whether `text` holds an invisible character. */
export function hasInvisible(text: string): boolean {
  return ANY_INVISIBLE.test(text);
}
