/**
 * What a VS Code notification shows as written and what it turns into a link. A notification renders no markdown,
 * no code spans and no `$(icon)`: its message is plain text, except that `[label](target)` with a target starting
 * with `http://`, `https://`, `command:` or `file:` (no space or `)` in it) becomes a link that opens or runs the
 * target on a click. That is VS Code's `parseLinkedText` (src/vs/base/common/linkedText.ts), applied to the whole
 * message once its line breaks are spaces (notifications.ts). So a name is shown as it is whenever the message holds
 * no such pattern, and only a message that would hold one needs anything changed.
 */

/** VS Code's link pattern, as `parseLinkedText` has it (not global: only whether there is one). */
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;

/** Whether a notification with this message would show part of it as a link. */
export function formsNotificationLink(message: string): boolean {
  return NOTIFICATION_LINK.test(message.replace(/\r\n|\n|\r/g, ' '));
}

/**
 * `text` with every `](` written `] (`, so that no part of it can end a link's label: for names from a server that
 * would form a link with the text around them (a hostile name; a real server's names never do).
 */
export function unlinked(text: string): string {
  return text.replace(/\]\s*\(/g, '] (');
}
