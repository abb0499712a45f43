/** What recognising a flag name in a line of code answers (flagNames.ts, flagTokens.ts), and how long a candidate may be. */

/** Longest text that is ever considered a flag name candidate. */
export const MAX_FLAG_NAME_LENGTH = 200;

export interface FlagMatch {
  /** The flag name as on the server. */
  name: string;
  /** The text in the source (may differ from `name` when a transform was applied). */
  text: string;
  /** [start, end) columns of `text` in the line. */
  start: number;
  end: number;
  /** False only when the text is the first string argument of an SDK call and no such flag exists. */
  known: boolean;
  /** The SDK call (as listed in `sdkCalls`) whose first string argument this is, e.g. 'isEnabled'. */
  inSdkCall?: string;
}
