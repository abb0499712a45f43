/**
 * What Check Tag says when the server has the tag: how many flags of the Flags view carry it, checked against what
 * the view could read. A list that failed, that misses projects, that is an earlier refresh's or that could not be
 * proven complete never claims that no flag carries the tag.
 */
import * as l10n from '@vscode/l10n';
import { formatError } from '../content/formatError';
import type { FlagStore } from '../store/flagStore';
import { pluralForm } from '../text/intl';
import { clean, formatList, MAX_DETAIL } from '../text/plainText';

/** How complete the Flags view's list is, for a sentence about the flags it holds. */
type ListCompleteness =
  | { kind: 'complete' }
  /** Nothing could be read: `reason` says why and what to do. */
  | { kind: 'failed'; reason: string }
  /** These projects could not be read. */
  | { kind: 'missingProjects'; projects: readonly string[] }
  /** The list of an earlier refresh: the last one failed. */
  | { kind: 'outOfDate' }
  /** The list could not be proven complete: `note` says why. */
  | { kind: 'unchecked'; note: string };

/** How complete the store's list is now. */
export function listCompleteness(store: Pick<FlagStore, 'state' | 'error' | 'failures' | 'outOfDate' | 'currentSource'>): ListCompleteness {
  const source = store.currentSource;
  if (store.state !== 'ready') {
    const reason = formatError(store.error, { action: l10n.t('load the flags'), server: source?.label }).message;
    return { kind: 'failed', reason: clean(reason, MAX_DETAIL) };
  }
  if (store.failures.length > 0) return { kind: 'missingProjects', projects: store.failures.map((failure) => failure.project) };
  if (store.outOfDate !== undefined) return { kind: 'outOfDate' };
  if (source?.listingNote) return { kind: 'unchecked', note: clean(source.listingNote, MAX_DETAIL) };
  return { kind: 'complete' };
}

/**
 * `Tag team:payments exists (3 flags in the Flags view carry it).`, `Tag x exists; no flag in the Flags view carries
 * it.`, and when the list is not complete, what it could not see: `… The flags of project checkout could not be read;
 * some of them may carry it.` `shown` is the tag as written in messages.
 */
export function tagExistsMessage(shown: string, count: number, list: ListCompleteness): string {
  if (list.kind === 'failed') {
    return l10n.t('Tag {0} exists. Which flags carry it is not known: {1}', shown, list.reason);
  }
  const complete = list.kind === 'complete';
  const carried =
    count > 0
      ? pluralForm(count, {
          one: l10n.t('Tag {0} exists ({1} flag in the Flags view carries it).', shown, count),
          other: l10n.t('Tag {0} exists ({1} flags in the Flags view carry it).', shown, count),
        })
      : complete
        ? l10n.t('Tag {0} exists; no flag in the Flags view carries it.', shown)
        : l10n.t('Tag {0} exists; none of the flags the Flags view could read carries it.', shown);
  switch (list.kind) {
    case 'complete':
      return carried;
    case 'missingProjects': {
      const projects = formatList(list.projects.map((project) => clean(project, 60)), { maxItems: 3, budget: 120 });
      return `${carried} ${pluralForm(list.projects.length, {
        one: l10n.t('The flags of project {0} could not be read; some of them may carry it.', projects),
        other: l10n.t('The flags of projects {0} could not be read; some of them may carry it.', projects),
      })}`;
    }
    case 'outOfDate':
      return `${carried} ${l10n.t('The Flags view shows the flags of an earlier refresh (the last one failed); refresh it to count again.')}`;
    case 'unchecked':
      return `${carried} ${l10n.t('The Flags view may not hold every flag: {0}', list.note)}`;
  }
}
