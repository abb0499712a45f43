/**
 * Unleash's own rule for a flag name: 1 to 100 characters that `encodeURIComponent` leaves as they are. The server
 * refuses any other name, so one that breaks the rule came from somewhere that skipped it (a database edit, a hostile
 * server, an edited export file): it is never offered, inserted, copied, searched for or opened as it is.
 */

/** Longest name the server accepts. */
const MAX_FLAG_NAME = 100;

/** The characters `encodeURIComponent` does not escape (a regular expression, as that throws on lone surrogates). */
const URL_SAFE = /^[A-Za-z0-9\-_.!~*'()]+$/;

/** Whether `name` keeps Unleash's naming rule. Constant time for a name too long to keep it. */
export function isValidFlagName(name: string): boolean {
  return name.length >= 1 && name.length <= MAX_FLAG_NAME && URL_SAFE.test(name);
}
