/**
 * The lines a hover and a flag's tree tooltip add about its activity: the latest change and the usage of the last
 * hours, each from what FlagActivity knows. Export files have neither, and say nothing here (the details document
 * says why).
 */
import * as l10n from '@vscode/l10n';
import type { FeatureEvent, FeatureMetricsRow } from '../../api/activitySchemas';
import type { History, Known } from './flagActivity';
import { historySection, latestChangeMarkdown } from './historyText';
import { usageMarkdown, usageSection } from './usageText';

interface ActivityInput {
  latest: Known<FeatureEvent | null>;
  usage: Known<FeatureMetricsRow[]>;
  now: Date;
  hours: number;
}

/**
 * The last text made for each pair of answers, and the minute it was made in (it says `5 minutes ago`): a hover shown
 * again makes nothing again. FlagActivity hands out the same answer objects until they expire.
 */
const made = new WeakMap<object, { usage: unknown; minute: number; hours: number; text: string }>();

/** The activity lines as one markdown paragraph (lines broken with two spaces), or '' when there is nothing to say. */
export function activityMarkdown(input: ActivityInput): string {
  const minute = Math.floor(input.now.getTime() / 60_000);
  const known = input.latest === undefined ? undefined : made.get(input.latest);
  if (known && known.usage === input.usage && known.minute === minute && known.hours === input.hours) return known.text;
  const text = activityText(input);
  if (input.latest !== undefined && input.usage !== undefined) made.set(input.latest, { usage: input.usage, minute, hours: input.hours, text });
  return text;
}

function activityText(input: ActivityInput): string {
  const lines: string[] = [];
  let reading = false;
  for (const [known, line] of [
    [input.latest, () => latestChangeMarkdown(input.latest, input.now)],
    [input.usage, () => usageMarkdown(input.usage, input.now, input.hours)],
  ] as const) {
    if (known !== undefined && 'unavailable' in known && known.offline) continue;
    const text = line();
    if (text === undefined) reading = true;
    else lines.push(text);
  }
  if (reading) lines.push(l10n.t('_Reading the last change and usage… hover again to see them._'));
  return lines.join('  \n');
}

/** The History and Usage sections that end a flag's details document (each line ends with a newline). */
export function activitySections(history: Known<History>, usage: Known<FeatureMetricsRow[]>, now: Date, hours: number): string {
  return `${[...historySection(history), ...usageSection(usage, now, hours)].join('\n')}\n`;
}
