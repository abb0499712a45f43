/** What formatError makes of an error: the sentence a user reads and the next steps offered as buttons. */

export type NextStep = 'setToken' | 'openSettings' | 'retry' | 'showLog';

export interface FormattedError {
  message: string;
  actions: NextStep[];
  /** The setting "Open Settings" should show, when one is to blame. */
  setting?: string;
  /** Cancellation is not an error to show. */
  silent?: boolean;
}
