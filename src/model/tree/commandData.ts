/**
 * What the flag commands compute: which flag an argument means, the Find in Files query for a
 * flag, the Find Flag quick pick items, and the view's description and message.
 */
import * as l10n from '@vscode/l10n';
import type { FlagStore } from '../store/flagStore';
import { escapeThemeIcons, pickText } from '../text/markdown';
import { environmentStrip, flagName } from '../text/flagText';
import { clean, MAX_DETAIL, MAX_LABEL } from '../text/plainText';
import { formatError } from '../content/formatError';
import { joinValues, pluralForm } from '../text/intl';
import { refreshedText } from '../content/statusBarContent';
import { dotted, projectOf, type FlagRef, type TreeNode } from './node';
import { chooseEnvironments } from '../store/environmentChoice';
import { environmentOrder, sortedEnvironments } from './root';

/** A tree node, as the commands receive it from a menu. */
export function isTreeNode(value: unknown): value is TreeNode {
  if (typeof value !== 'object' || value === null) return false;
  const node = value as Partial<TreeNode>;
  return typeof node.id === 'string' && typeof node.kind === 'string' && typeof node.contextValue === 'string';
}

/**
 * The flag an argument means: a tree node (its flag), `{ project, name }`, `(project, name)`, or a name alone (the
 * first flag of that name in the catalog). Undefined when it means none.
 */
export function flagRefOf(store: FlagStore, arg: unknown, name?: unknown): FlagRef | undefined {
  if (typeof arg === 'string' && typeof name === 'string') return { project: arg, name };
  if (typeof arg === 'string') {
    const listed = store.catalog.byName(arg)[0];
    return listed ? { project: projectOf(listed), name: listed.name } : undefined;
  }
  if (isTreeNode(arg)) return arg.flag;
  if (typeof arg === 'object' && arg !== null) {
    const ref = arg as { project?: unknown; name?: unknown };
    if (typeof ref.name !== 'string') return undefined;
    if (typeof ref.project === 'string') return { project: ref.project, name: ref.name };
    return flagRefOf(store, ref.name);
  }
  return undefined;
}

interface FlagPickItem {
  label: string;
  description: string;
  detail?: string;
  flag: FlagRef;
}

/** One quick pick item per flag of the catalog: name; project and environment strip; description. */
export function flagPickItems(store: FlagStore): FlagPickItem[] {
  const order = environmentOrder(store.catalog);
  return store.catalog.flags.map((flag) => {
    const project = projectOf(flag);
    const description = flag.description ? clean(flag.description, MAX_DETAIL).trim() : '';
    return {
      label: escapeThemeIcons(flagName(flag.name, MAX_LABEL)),
      description: pickText(dotted(clean(project, 60), environmentStrip(chooseEnvironments(sortedEnvironments(flag, order), store.environmentChoice).shown)), MAX_DETAIL),
      detail: description === '' ? undefined : pickText(description, MAX_DETAIL),
      flag: { project, name: flag.name },
    };
  });
}

/**
 * The view's description: the source's label (`unleash.example.com`, `offline: .unleash/development.json`), and
 * `out of date` while the flags shown are those of a refresh before the last one, which failed.
 */
export function viewDescription(store: FlagStore): string | undefined {
  const source = store.currentSource;
  if (!source) return undefined;
  const label = clean(source.kind === 'files' ? l10n.t('offline: {0}', source.label) : source.label, 120);
  return store.state === 'ready' && store.outOfDate !== undefined ? l10n.t('{0} · out of date', label) : label;
}

/**
 * The message above the tree: the formatted error when loading failed or the settings are invalid (with the request
 * that failed), why the flags shown are out of date when the last refresh failed, which projects could not be read,
 * a note when the source has no flags, may be incomplete, or has flags whose names break Unleash's naming rule, else
 * nothing (welcome content covers the other states).
 */
export function viewMessage(store: FlagStore): string | undefined {
  const source = store.currentSource;
  if (store.state === 'error' || store.state === 'invalidSettings') {
    const formatted = formatError(
      store.error,
      store.state === 'error' ? { action: l10n.t('load the flags'), server: source?.label, request: true } : {},
    );
    return formatted.silent ? undefined : clean(formatted.message, MAX_DETAIL);
  }
  if (store.state === 'ready' && store.outOfDate !== undefined) {
    const formatted = formatError(store.outOfDate, { action: l10n.t('refresh the flags'), server: source?.label, request: true });
    const loaded = store.refreshedAt ? refreshedText(store.refreshedAt) : l10n.t('an earlier refresh');
    return clean(l10n.t('Out of date: these are the flags of {0}. {1}', loaded, formatted.message), MAX_DETAIL);
  }
  const failed = store.state === 'ready' ? store.failures.map((failure) => clean(failure.project, 60)) : [];
  if (failed.length) {
    const which = pluralForm(failed.length, {
      one: l10n.t('The flags of project {0} could not be read: its row says why.', joinValues(failed)),
      other: l10n.t('The flags of projects {0} could not be read: their rows say why.', joinValues(failed)),
    });
    return clean(source?.listingNote ? `${which} ${source.listingNote}` : which, MAX_DETAIL);
  }
  if (store.state === 'ready' && store.catalog.size === 0) {
    return source?.kind === 'files'
      ? l10n.t('The export files hold no flags.')
      : l10n.t('No flags found on {0}.', clean(source?.label ?? l10n.t('the server'), 120));
  }
  if (store.state === 'ready') {
    const notes = [source?.listingNote, invalidNamesNote(store.catalog.invalidNames)].filter((note) => note !== undefined && note !== '');
    // Each note is bounded on its own (the files left out in about MAX_DETAIL characters, after the browser build's
    // sentence on the committed exports): together they may take twice that, so that what to do is never cut off.
    if (notes.length > 0) return clean(notes.join(' '), 2 * MAX_DETAIL);
  }
  return undefined;
}

/** Says that some names break Unleash's naming rule, and what that means here; undefined when none does. */
function invalidNamesNote(count: number): string | undefined {
  if (count === 0) return undefined;
  return pluralForm(count, {
    one: l10n.t("{0} flag has a name that breaks Unleash's naming rule (1 to 100 letters, digits and - _ . ! ~ * ' ( )): it is marked in the tree and not offered in completion or quick fixes.", count),
    other: l10n.t("{0} flags have names that break Unleash's naming rule (1 to 100 letters, digits and - _ . ! ~ * ' ( )): they are marked in the tree and not offered in completion or quick fixes.", count),
  });
}
