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
import { plainMarkdown } from '../text/markdown';

interface ActivityInput {
  latest: Known<FeatureEvent | null>;
  usage: Known<FeatureMetricsRow[]>;
  now: Date;
  hours: number;
  /** The hover waited for them already (its bounded wait): a part still missing says where it will show. */
  waited?: boolean;
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
  for (const [known, line, failed] of [
    [input.latest, () => latestChangeMarkdown(input.latest, input.now), (reason: string) => l10n.t('_Last change could not be shown: {0}_', plainMarkdown(reason, 300))],
    [input.usage, () => usageMarkdown(input.usage, input.now, input.hours), (reason: string) => l10n.t('_Usage could not be shown: {0}_', plainMarkdown(reason, 300))],
  ] as const) {
    if (known !== undefined && 'unavailable' in known && known.offline) continue;
    const text = shown(line, failed);
    if (text === undefined) reading = true;
    else lines.push(text);
  }
  if (reading) lines.push(input.waited ? l10n.t('_Still reading the last change and usage: they show in the next hover, and in the details (Show details)._') : l10n.t('_Reading the last change and usage…_'));
  return lines.join('  \n');
}

/** What `make` answers, or `failed` with why it threw: one part that cannot be worded never takes the others along. */
function shown<T>(make: () => T, failed: (reason: string) => T): T {
  try {
    return make();
  } catch (error) {
    return failed(unshownReason(error));
  }
}

/** Why a part could not be worded, for the user: the engine's own message never (`Maximum call stack size exceeded`). */
function unshownReason(error: unknown): string {
  if (error instanceof RangeError) return l10n.t('it is nested too deeply or is too large to show here; see the flag in Unleash.');
  return l10n.t('{0} (see the log).', error instanceof Error ? error.message : String(error));
}

/**
 * The History and Usage sections that end a flag's details document (each line ends with a newline); a section that
 * cannot be worded says why, and the other still shows. `more` is how the document offers the next changes.
 */
export function activitySections(history: Known<History>, usage: Known<FeatureMetricsRow[]>, now: Date, hours: number, more?: { step: number; how: string }): string {
  const failed = (title: string) => (reason: string) => ['', title, '-'.repeat(title.length), l10n.t('Not shown: {0}', reason)];
  const historyLines = shown(() => historySection(history, more), failed(l10n.t('History (newest first)')));
  const usageLines = shown(() => usageSection(usage, now, hours), failed(l10n.t('Usage, last {0} hours', hours)));
  return `${[...historyLines, ...usageLines].join('\n')}\n`;
}
