/**
 * Unleash's own rule for a flag name: 1 to 100 characters, each one that `encodeURIComponent` leaves as it is
 * (`encodeURIComponent(name) === name`: ASCII letters, digits and `-_.!~*'()`). The server refuses to create any
 * other name, so one that breaks the rule came from somewhere that skipped it (a database edit, a hostile server, an
 * edited export file). Such a name is never offered, inserted or used as it is: completion and quick fixes leave it
 * out, it is not copied, searched for or opened in Unleash, and every surface shows it cleaned, cut and marked
 * (`flagName` in wording).
 */

/** Longest name the server accepts. */
const MAX_FLAG_NAME = 100;

/** The characters `encodeURIComponent` does not escape (a regular expression, as that throws on lone surrogates). */
const URL_SAFE = /^[A-Za-z0-9\-_.!~*'()]+$/;

/** Whether `name` keeps Unleash's naming rule. Constant time for a name too long to keep it. */
export function isValidFlagName(name: string): boolean {
  return name.length >= 1 && name.length <= MAX_FLAG_NAME && URL_SAFE.test(name);
}
