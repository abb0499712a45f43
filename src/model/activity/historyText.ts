/**
 * A flag's history where people read it: the latest change as one markdown line (hover, tree tooltip) and the
 * change list as a section of the details document, newest first. Pieces come from `describeEvent` (cleaned and
 * bounded) and are escaped here for markdown.
 */
import * as l10n from '@vscode/l10n';
import type { FeatureEvent } from '../../api/activitySchemas';
import type { History, Known } from './flagActivity';
import { pluralForm } from '../text/intl';
import { plainMarkdown } from '../text/markdown';
import { describeLastSeen } from '../text/flagText';
import { utcDateTime } from '../text/plainText';
import { describeEvent } from './eventWording';

/**
 * The hover's and tooltip's line: `**Last change:** enabled in production · admin · 2 hours ago`, `**Last change:**
 * none recorded`, or why it is not shown. Undefined while it is being read.
 */
export function latestChangeMarkdown(known: Known<FeatureEvent | null>, now: Date): string | undefined {
  if (known === undefined) return undefined;
  if ('unavailable' in known) {
    return known.forbidden
      ? l10n.t('_History not shown: {0}_', plainMarkdown(known.unavailable, 300))
      : l10n.t('_Last change could not be read: {0}_', plainMarkdown(known.unavailable, 300));
  }
  if (known.value === null) return l10n.t('**Last change:** none recorded');
  const { who, what } = describeEvent(known.value);
  const when = describeLastSeen(known.value.createdAt, now);
  return l10n.t('**Last change:** {0}', `${plainMarkdown(what, 300)} · ${plainMarkdown(who, 80)} · ${plainMarkdown(when, 40)}`);
}

/** One line of the change list: `2026-11-26 06:37 UTC · admin · enabled in production`. */
function historyLine(event: FeatureEvent): string {
  const { who, what, at } = describeEvent(event);
  return `${at === undefined ? event.createdAt.slice(0, 40) : utcDateTime(at)} · ${who} · ${what}`;
}

/** The details document's History section (title, underline, lines), or why there is none. */
export function historySection(known: Known<History>): string[] {
  const title = l10n.t('History (newest first)');
  const lines = ['', title, '-'.repeat(title.length)];
  if (known === undefined) return [...lines, l10n.t('(not read yet: open the details again)')];
  if ('unavailable' in known) return [...lines, l10n.t('Not shown: {0}', known.unavailable)];
  const { events, total, legacy } = known.value;
  if (events.length === 0) return [...lines, l10n.t('No changes recorded.')];
  for (const event of events) lines.push(historyLine(event));
  const all = total ?? events.length;
  if (all > events.length) {
    lines.push('');
    lines.push(
      legacy
        ? l10n.t('This server answers the newest {0} changes only; {1} are recorded. See the event log in Unleash for the rest.', events.length, all)
        : pluralForm(all, {
            one: l10n.t('The newest {0} of {1} change; see the event log in Unleash for the rest.', events.length, all),
            other: l10n.t('The newest {0} of {1} changes; see the event log in Unleash for the rest.', events.length, all),
          }),
    );
  }
  return lines;
}
