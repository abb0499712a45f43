/**
 * The one definition of an invisible character, which text shown to people never carries as it is: every Unicode
 * control (Cc) and format character (Cf: zero-width, bidi, the byte-order mark…), every Default_Ignorable_Code_Point
 * (the variation selectors, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, the combining grapheme joiner
 * U+034F, the Khmer vowels U+17B4–U+17B5, the whole tag and variation selector block U+E0000–U+E0FFF…), the blanks
 * Unicode does not class as ignorable though they draw nothing (U+2800 BRAILLE PATTERN BLANK, U+1D159 MUSICAL SYMBOL
 * NULL NOTEHEAD), the line and paragraph separators, and lone surrogates. Not invisible where they are part of an
 * emoji that shows: the zero-width joiner inside an emoji sequence (👩‍💻), and the presentation selector after an
 * emoji (❤️) or inside a keycap (1️⃣).
 */

const CHARACTERS = '[\\p{Cc}\\p{Cf}\\p{Default_Ignorable_Code_Point}\\u2028\\u2029\\u2800\\u{1D159}\\ud800-\\udfff]';
/**
 * Not the joiner of an emoji ZWJ sequence (a pictograph, maybe VS16 or a skin tone, the joiner, a pictograph). VS16
 * and the skin tones are alternatives, not one class: a class holding both reads as one modified emoji.
 */
const NOT_EMOJI_JOINER = '(?<!\\p{Extended_Pictographic}(?:\\u{FE0F}|[\\u{1F3FB}-\\u{1F3FF}])?\\u200d(?=\\p{Extended_Pictographic}))';
/** Not the text or emoji presentation selector (VS15, VS16) just after a pictograph, nor VS16 in a keycap (`1️⃣`). */
const NOT_EMOJI_SELECTOR = '(?<!\\p{Extended_Pictographic}[\\u{FE0E}\\u{FE0F}])(?<![0-9#*]\\u{FE0F}(?=\\u{20E3}))';

/** One invisible character, as a regular expression source for the `u` flag (lone surrogates match one by one). */
export const INVISIBLE_SOURCE = `${CHARACTERS}${NOT_EMOJI_JOINER}${NOT_EMOJI_SELECTOR}`;

const ANY_INVISIBLE = new RegExp(INVISIBLE_SOURCE, 'u');

/** Every invisible character of a text (global, `u` flag): for `text.replace(INVISIBLE, …)`. */
export const INVISIBLE = new RegExp(INVISIBLE_SOURCE, 'gu');

/** Whether `text` holds an invisible character. */
export function hasInvisible(text: string): boolean {
  return ANY_INVISIBLE.test(text);
}
