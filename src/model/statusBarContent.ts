/**
 * The status bar item as plain data (no 'vscode'): where the flags come from, the store's state, and how the item
 * should look. Source labels and error reasons are untrusted: `inertText` keeps `$(icon)` syntax shown as
 * written, and every text is one bounded line.
 */
import type { FlagSource } from './flagSource';
import type { StoreState } from './flagStore';
import { inertText } from './markdown';
import { clean, plural } from './wording';

export interface StatusInput {
  state: StoreState;
  source?: Pick<FlagSource, 'kind' | 'label' | 'fileCount'>;
  flagCount: number;
  /** The formatted reason of state `error` or `invalidSettings`. */
  reason?: string;
  /** When the catalog last finished loading. */
  lastRefreshed?: Date;
  /** `unleash.serverUrl` is set (so `noServer`/`noToken` still deserve an item). */
  configured: boolean;
}

export interface StatusContent {
  visible: boolean;
  text: string;
  tooltip: string;
  /** Picks the theme colour: `statusBarItem.warningBackground` / `errorBackground`. */
  tone: 'normal' | 'warning' | 'error';
}

/** `unleash.example.com` or `offline: 2 export files`. */
export function sourceText(source: StatusInput['source']): string {
  if (!source) return 'no flag source';
  if (source.kind === 'files') return `offline: ${plural(source.fileCount ?? 0, 'export file')}`;
  return inertText(source.label, 60);
}

/** The minute of `at` in UTC: `2026-11-23 10:31 UTC`. */
export function refreshedText(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function statusContent(input: StatusInput): StatusContent {
  const where = sourceText(input.source);
  const reason = input.reason ? inertText(input.reason, 300) : '';
  const click = 'Click for Refresh, Test Connection, Connect and Show Log.';
  switch (input.state) {
    case 'noServer':
      return {
        visible: input.configured,
        text: '$(circle-slash) Unleash: no flag source',
        tooltip: `No server is set and the workspace has no .unleash/*.json export files.\n${click}`,
        tone: 'warning',
      };
    case 'noToken':
      return { visible: true, text: '$(key) Unleash: no token', tooltip: `No API token for the server. Run Unleash: Set API Token.\n${click}`, tone: 'warning' };
    case 'unapproved':
      return {
        visible: true,
        text: '$(shield) Unleash: server not allowed',
        tooltip: `The workspace's settings name a server you have not allowed yet; no token is sent to it. Run Unleash: Allow the Workspace's Server….\n${click}`,
        tone: 'warning',
      };
    case 'invalidSettings':
      return { visible: true, text: '$(warning) Unleash: check settings', tooltip: `${reason || 'A setting is not valid.'}\n${click}`, tone: 'warning' };
    case 'loading':
      // Before the first source is known (start-up), only a configured server deserves an item.
      if (!input.source) return { visible: input.configured, text: '$(sync~spin) Unleash', tooltip: `Starting…\n${click}`, tone: 'normal' };
      return { visible: true, text: `$(sync~spin) Unleash: ${where}`, tooltip: `Loading flags from ${where}…\n${click}`, tone: 'normal' };
    case 'idle':
      // Nothing needed the flags yet, so nothing was read: no count to show.
      return {
        visible: true,
        text: `$(circle-outline) Unleash: ${where}`,
        tooltip: `Flags from ${where} are read when first needed: the Flags view, a flag name in code, or a command.\n${click}`,
        tone: 'normal',
      };
    case 'error':
      return {
        visible: true,
        text: `$(error) Unleash: ${where}`,
        tooltip: `Loading flags from ${where} failed: ${reason || 'unknown error'}\n${click}`,
        tone: 'error',
      };
    case 'ready': {
      const refreshed = input.lastRefreshed ? `\nLast refreshed ${refreshedText(input.lastRefreshed)}.` : '';
      return {
        visible: true,
        text: `$(check) Unleash: ${where} · ${plural(input.flagCount, 'flag')}`,
        tooltip: `${plural(input.flagCount, 'flag')} from ${clean(input.source?.kind === 'files' ? input.source.label : where, 300)}.${refreshed}\n${click}`,
        tone: 'normal',
      };
    }
  }
}
