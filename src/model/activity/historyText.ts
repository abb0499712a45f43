/**
 * A flag's history where people read it: the latest change as one markdown line (hover, tree tooltip) and the
 * change list as a section of the details document, newest first. Pieces come from `describeEvent` (cleaned and
 * bounded) and are escaped here for markdown.
 */
import * as l10n from '@vscode/l10n';
import type { FeatureEvent } from '../../api/activitySchemas';
import { MAX_HISTORY_EVENTS, type History, type Known } from './flagActivity';
import { pluralForm } from '../text/intl';
import { plainMarkdown } from '../text/markdown';
import { describeLastSeen } from '../text/flagText';
import { utcDateTime } from '../text/plainText';
import { describeEvent, type HistoryEntry } from './eventWording';
import { formatCount } from '../text/countText';

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
function historyLine(entry: HistoryEntry): string {
  // A time that does not parse is the server's text: cleaned when it was read, quoted here so it cannot pass for one.
  const when = entry.at === undefined ? l10n.t('“{0}” (not a time)', entry.createdAt) : utcDateTime(entry.at);
  return `${when} · ${entry.who} · ${entry.what}`;
}

/**
 * The details document's History section (title, underline, lines), or why there is none. `more` says how to read
 * the next `step` changes when the server holds more (the document's own words for its button), else the event log
 * is named.
 */
export function historySection(known: Known<History>, more?: { step: number; how: string }): string[] {
  const title = l10n.t('History (newest first)');
  const lines = ['', title, '-'.repeat(title.length)];
  if (known === undefined) return [...lines, l10n.t('(not read yet: open the details again)')];
  if ('unavailable' in known) return [...lines, l10n.t('Not shown: {0}', known.unavailable)];
  const { events, total, legacy, stopped } = known.value;
  if (events.length === 0) return [...lines, l10n.t('No changes recorded.')];
  for (const event of events) lines.push(historyLine(event));
  const all = Math.max(total ?? events.length, events.length);
  if (stopped !== undefined) {
    lines.push('', l10n.t('The changes after these could not be read: {0}', stopped.reason));
  }
  if (all > events.length) {
    const shown = formatCount(events.length);
    const recorded = formatCount(all);
    lines.push('');
    if (legacy) {
      lines.push(l10n.t('This server answers the newest {0} changes only; {1} are recorded. See the event log in Unleash for the rest.', shown, recorded));
    } else if (more !== undefined && events.length < MAX_HISTORY_EVENTS) {
      const next = formatCount(Math.min(more.step, all - events.length, MAX_HISTORY_EVENTS - events.length));
      lines.push(
        pluralForm(all, {
          one: l10n.t('The newest {0} of {1} change. Read the next {2}: {3}', shown, recorded, next, more.how),
          other: l10n.t('The newest {0} of {1} changes. Read the next {2}: {3}', shown, recorded, next, more.how),
        }),
      );
    } else {
      lines.push(
        pluralForm(all, {
          one: l10n.t('The newest {0} of {1} change; see the event log in Unleash for the rest.', shown, recorded),
          other: l10n.t('The newest {0} of {1} changes; see the event log in Unleash for the rest.', shown, recorded),
        }),
      );
    }
  }
  return lines;
}
