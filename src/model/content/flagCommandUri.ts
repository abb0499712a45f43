/**
 * The `command:` links a hover offers for a flag (reveal it in the Flags tree, copy its name, show its details): the
 * only command links any markdown of ours holds.
 */
import { Commands } from '../../base/constants';

/**
 * A `command:` URI with JSON arguments, for a MarkdownString whose `isTrusted.enabledCommands` lists `command`.
 * `encodeURIComponent` leaves `(`, `)`, `!`, `'` and `*`; they are percent-encoded too, so no flag name can end
 * the link early.
 */
export function commandUri(command: string, args: readonly unknown[]): string {
  const query = encodeURIComponent(JSON.stringify(args)).replace(
    /[!'()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `command:${command}?${query}`;
}

/** The commands a hover links to; each takes the flag as its one argument. */
type FlagCommand = typeof Commands.revealFlag | typeof Commands.copyFlagName | typeof Commands.showFlagDetails;

/** `command:unleash.revealFlag?…` (or another flag command) for one flag. */
export function flagCommandUri(command: FlagCommand, flag: { project: string; name: string }): string {
  return commandUri(command, [{ project: flag.project, name: flag.name }]);
}

/** Command links longer than this are left out (a hostile project name could be 10,000 characters). */
const MAX_COMMAND_URI = 2048;

/** `[label](command:…)` for one flag, or '' when the link would be longer than MAX_COMMAND_URI. */
export function flagCommandLink(label: string, command: FlagCommand, flag: { project: string; name: string }): string {
  const uri = flagCommandUri(command, flag);
  return uri.length <= MAX_COMMAND_URI ? `[${label}](${uri})` : '';
}
