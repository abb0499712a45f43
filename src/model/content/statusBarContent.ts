/**
 * The status bar item as plain data: where the flags come from, the store's state, and how the item should look.
 * Source labels and error reasons are untrusted: `inertText` keeps `$(icon)` syntax shown as written, and every text
 * is one bounded line.
 */
import * as l10n from '@vscode/l10n';
import type { FlagSource } from '../store/flagSource';
import type { StoreState } from '../store/flagStore';
import { inertText } from '../text/markdown';
import { flagCount } from '../text/countText';
import { pluralForm } from '../text/intl';
import { clean } from '../text/plainText';

interface StatusInput {
  state: StoreState;
  source?: Pick<FlagSource, 'kind' | 'label' | 'fileCount'>;
  flagCount: number;
  /** The formatted reason of state `error` or `invalidSettings`. */
  reason?: string;
  /** When the catalog last finished loading. */
  lastRefreshed?: Date;
  /** State `ready` with the flags of an earlier refresh: why the last one failed (formatted). */
  outOfDate?: string;
  /** State `ready`: the flags that call for attention, by status (`attentionCounts`); '' or absent for none. */
  attention?: string;
  /** `unleash.serverUrl` is set (so `noServer`/`noToken` still deserve an item). */
  configured: boolean;
}

export interface StatusContent {
  visible: boolean;
  text: string;
  tooltip: string;
  /** Picks the theme colour: `statusBarItem.warningBackground` / `errorBackground`. */
  tone: 'normal' | 'warning' | 'error';
  /** What a screen reader says: the state in words (the item's icon and colour say it only to the eye). */
  accessibleLabel: string;
}

/** `unleash.example.com` or `offline: 2 export files`. */
function sourceText(source: StatusInput['source']): string {
  if (!source) return l10n.t('no flag source');
  if (source.kind === 'files') {
    const count = source.fileCount ?? 0;
    return pluralForm(count, { one: l10n.t('offline: {0} export file', count), other: l10n.t('offline: {0} export files', count) });
  }
  return inertText(source.label, 60);
}

/** The minute of `at` in UTC: `2026-11-23 10:31 UTC`. */
export function refreshedText(at: Date): string {
  return l10n.t('{0} UTC', at.toISOString().slice(0, 16).replace('T', ' '));
}

export function statusContent(input: StatusInput): StatusContent {
  const content = statusLook(input);
  const inWords = content.tooltip.split('\n')[0] ?? '';
  return { ...content, accessibleLabel: clean(l10n.t('Unleash flags: {0}', inWords), 300) };
}

type Look = Omit<StatusContent, 'accessibleLabel'>;

function statusLook(input: StatusInput): Look {
  const where = sourceText(input.source);
  const reason = input.reason ? inertText(input.reason, 300) : '';
  const click = l10n.t('Click for Refresh, Test Connection, Connect and Show Log.');
  // The tooltip's first line says the state in words (the screen reader's label); the last what a click offers.
  const look = (text: string, says: string, tone: Look['tone'], visible = true): Look => ({ visible, text, tooltip: `${says}\n${click}`, tone });
  switch (input.state) {
    case 'noServer':
      return look(
        l10n.t('$(circle-slash) Unleash: no flag source'),
        l10n.t('No server is set and the workspace has no .unleash/*.json export files.'),
        'warning',
        input.configured,
      );
    case 'noToken':
      return look(l10n.t('$(key) Unleash: no token'), l10n.t('No API token for the server. Run Unleash: Set API Token.'), 'warning');
    case 'unapproved':
      return look(
        l10n.t('$(shield) Unleash: server not allowed'),
        l10n.t("The workspace's settings name a server you have not allowed yet; no token is sent to it. Run Unleash: Allow the Workspace's Server…."),
        'warning',
      );
    case 'invalidSettings':
      return look(l10n.t('$(warning) Unleash: check settings'), reason || l10n.t('A setting is not valid.'), 'warning');
    case 'loading':
      // Before the first source is known (start-up), only a configured server deserves an item.
      if (!input.source) return look(l10n.t('$(sync~spin) Unleash'), l10n.t('Starting…'), 'normal', input.configured);
      return look(l10n.t('$(sync~spin) Unleash: {0}', where), l10n.t('Loading flags from {0}…', where), 'normal');
    case 'idle':
      // Nothing needed the flags yet, so nothing was read: no count to show.
      return look(
        l10n.t('$(circle-outline) Unleash: {0}', where),
        l10n.t('Flags from {0} are read when first needed: the Flags view, a flag name in code, or a command.', where),
        'normal',
      );
    case 'error':
      return look(l10n.t('$(error) Unleash: {0}', where), l10n.t('Loading flags from {0} failed: {1}', where, reason || l10n.t('unknown error')), 'error');
    case 'ready': {
      const attention = input.attention ? `\n${l10n.t('To clean up: {0}.', inertText(input.attention, 300))}` : '';
      const refreshed = `${attention}${input.lastRefreshed ? `\n${l10n.t('Last refreshed {0}.', refreshedText(input.lastRefreshed))}` : ''}`;
      const from = clean(input.source?.kind === 'files' ? input.source.label : where, 300);
      const count = flagCount(input.flagCount);
      if (input.outOfDate !== undefined) {
        return look(
          l10n.t('$(warning) Unleash: {0} · {1}, out of date', where, count),
          // The first line is also what a screen reader says: it names the state as the item's text does.
          `${l10n.t('{0} from {1}, out of date.', count, from)}${refreshed}\n${l10n.t('Out of date: the last refresh failed: {0}', inertText(input.outOfDate, 300))}`,
          'warning',
        );
      }
      return look(l10n.t('$(check) Unleash: {0} · {1}', where, count), `${l10n.t('{0} from {1}.', count, from)}${refreshed}`, 'normal');
    }
  }
}
