/**
 * The tag picker of "Check Tag…" and of "Export Environment…" (flags with a tag): one input that takes `type:value`,
 * offers the server's tag types and the tags the catalog knows, and validates each part as the user types.
 */
import * as vscode from 'vscode';
import type { UnleashClient } from '../api/client';
import type { TagType } from '../api/schemas';
import { validateTagValue, type TagRef } from '../model/tags/tagInput';
import { pickText } from '../model/text/markdown';
import { tagPickState, type TagPickRow } from '../model/tags/tagPickItems';
import { formatError } from '../model/content/formatError';
import type { Logger } from '../base/logger';
import { answerOf } from './quickPickAnswer';

/** The server's tag types; a failure leaves the picker with what the Flags view knows (and is logged). */
export async function loadTagTypes(client: UnleashClient | Promise<UnleashClient | undefined>, logger: Logger): Promise<TagType[]> {
  try {
    return (await (await client)?.listTagTypes()) ?? [];
  } catch (error) {
    logger.warn(`Could not list the tag types: ${formatError(error).message}`);
    return [];
  }
}

interface PickTagOptions {
  title: string;
  /** The server's tag types, arriving while the picker is open (undefined: none to offer). */
  tagTypes?: Promise<TagType[]>;
  /** Tags the Flags view knows (offered as whole tags). */
  knownTags: readonly TagRef[];
  /** Which list comes first. */
  prefer: 'types' | 'tags';
  /** The verb of the typed-tag row: "Check", "Export". */
  valueAction: string;
}

type TagPickItem = vscode.QuickPickItem & TagPickRow;

/**
 * One quick pick: a tag type (then its value in an input box), a known tag, or `type:value` typed directly, with the
 * validation message shown as the user types. Enter takes what was typed; a listed tag only when the user moves to it
 * (`tagPickState`). Undefined when dismissed.
 */
export async function pickTag(options: PickTagOptions): Promise<TagRef | undefined> {
  const quickPick = vscode.window.createQuickPick<TagPickItem>();
  quickPick.title = options.title;
  quickPick.placeholder = vscode.l10n.t('Pick a tag type, or type the tag as type:value (e.g. team:payments)');
  quickPick.matchOnDescription = true;
  quickPick.ignoreFocusOut = true;
  let types: TagType[] = [];

  const refresh = (): void => {
    const state = tagPickState(quickPick.value, {
      types,
      knownTags: options.knownTags,
      prefer: options.prefer,
      valueAction: options.valueAction,
    });
    const items = state.rows.map((row): TagPickItem => (row.pick === 'separator' ? { ...row, kind: vscode.QuickPickItemKind.Separator } : row));
    quickPick.items = items;
    // The typed tag (or why it is not one) is what Enter takes, whatever row the filter would put first.
    const active = state.active === undefined ? undefined : items[state.rows.indexOf(state.active)];
    if (active) quickPick.activeItems = [active];
  };

  if (options.tagTypes) {
    quickPick.busy = true;
    void options.tagTypes.then((loaded) => {
      types = [...loaded].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      quickPick.busy = false;
      refresh();
    });
  } else {
    types = [...new Set(options.knownTags.map((tag) => tag.type))].sort().map((name) => ({ name }));
  }
  refresh();

  const typing = quickPick.onDidChangeValue(refresh);
  const chosen = await answerOf(quickPick, () => {
    const item = quickPick.activeItems[0] ?? quickPick.selectedItems[0];
    return item && (item.pick === 'type' || item.pick === 'tag') ? item : undefined;
  });
  typing.dispose();

  if (!chosen) return undefined;
  if (chosen.pick === 'tag') return chosen.tag;
  if (chosen.pick !== 'type') return undefined;
  const type = chosen.type;
  const value = await vscode.window.showInputBox({
    title: vscode.l10n.t('{0}: value of a {1} tag', options.title, pickText(type, 60)),
    prompt: vscode.l10n.t('The value of the {0} tag (2 to 50 characters; spaces and colons are fine).', pickText(type, 60)),
    placeHolder: type === 'team' ? vscode.l10n.t('payments') : vscode.l10n.t('value'),
    ignoreFocusOut: true,
    validateInput: (input) => validateTagValue(input),
  });
  if (value === undefined) return undefined;
  // The value as typed: spaces at its start or end are part of a tag on the server.
  return { type: type.trim(), value };
}
