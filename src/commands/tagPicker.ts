/**
 * The tag picker of "Check Tag…" and of "Export Environment…" (flags with a tag): one input that takes `type:value`,
 * offers the server's tag types and the tags the catalog knows, and validates each part as the user types.
 */
import * as vscode from 'vscode';
import type { UnleashClient } from '../api/client';
import type { TagType } from '../api/schemas';
import { formatTag, parseTag, validateTagType, validateTagValue, type TagRef } from '../model/tagInput';
import { formatError } from '../util/formatError';
import type { Logger } from '../util/logger';

/** The server's tag types; a failure leaves the picker with what the Flags view knows (and is logged). */
export async function loadTagTypes(client: UnleashClient, logger: Logger): Promise<TagType[]> {
  try {
    return await client.listTagTypes();
  } catch (error) {
    logger.warn(`Could not list the tag types: ${formatError(error).message}`);
    return [];
  }
}

export interface PickTagOptions {
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

type TagPickItem = vscode.QuickPickItem &
  (
    | { pick: 'type'; type: string }
    | { pick: 'tag'; tag: TagRef }
    | { pick: 'invalid' }
    | { pick: 'separator' }
  );

/**
 * One quick pick: a tag type (then its value in an input box), a known tag, or `type:value` typed directly, with the
 * validation message shown as the user types. Undefined when dismissed.
 */
export async function pickTag(options: PickTagOptions): Promise<TagRef | undefined> {
  const quickPick = vscode.window.createQuickPick<TagPickItem>();
  quickPick.title = options.title;
  quickPick.placeholder = 'Pick a tag type, or type the tag as type:value (e.g. team:payments)';
  quickPick.matchOnDescription = true;
  quickPick.ignoreFocusOut = true;
  let types: TagType[] = [];

  const typeItems = (): TagPickItem[] =>
    types.map((type) => ({ pick: 'type', type: type.name, label: `$(symbol-key) ${type.name}`, description: type.description, detail: undefined }));
  const tagItems = (): TagPickItem[] =>
    options.knownTags.map((tag) => ({ pick: 'tag', tag, label: `$(tag) ${formatTag(tag)}` }));
  const separator = (label: string): TagPickItem => ({ pick: 'separator', label, kind: vscode.QuickPickItemKind.Separator });
  const section = (label: string, items: TagPickItem[]): TagPickItem[] => (items.length ? [separator(label), ...items] : []);
  const baseItems = (): TagPickItem[] => {
    const typeSection = section('Tag types', typeItems());
    const tagSection = section('Tags on flags in the Flags view', tagItems());
    return options.prefer === 'types' ? [...typeSection, ...tagSection] : [...tagSection, ...typeSection];
  };

  const refresh = (): void => {
    const value = quickPick.value;
    if (value.includes(':')) {
      const parsed = parseTag(value);
      const typed: TagPickItem = parsed.ok
        ? { pick: 'tag', tag: parsed.tag, label: `$(tag) ${parsed.text}`, description: `${options.valueAction} this tag`, alwaysShow: true }
        : { pick: 'invalid', label: `$(error) ${parsed.message}`, alwaysShow: true };
      quickPick.items = [typed, ...tagItems().filter((item) => item.pick === 'tag' && formatTag(item.tag) !== (parsed.ok ? parsed.text : ''))];
      return;
    }
    // A type the lists do not hold: offered only when nothing listed matches, so Enter never picks it over a match.
    const trimmed = value.trim();
    const needle = trimmed.toLowerCase();
    const listed = [...types.map((type) => type.name), ...options.knownTags.map(formatTag)];
    const custom: TagPickItem[] = [];
    if (trimmed && !listed.some((label) => label.toLowerCase().includes(needle))) {
      const problem = validateTagType(trimmed);
      custom.push(
        problem
          ? { pick: 'invalid', label: `$(error) ${problem}`, description: 'or type the whole tag as type:value', alwaysShow: true }
          : { pick: 'type', type: trimmed, label: `$(edit) ${trimmed}`, description: 'Use as the tag type, then give the value', alwaysShow: true },
      );
    }
    quickPick.items = [...custom, ...baseItems()];
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

  const chosen = await new Promise<TagPickItem | undefined>((resolve) => {
    const subscriptions: vscode.Disposable[] = [];
    const finish = (item: TagPickItem | undefined): void => {
      for (const subscription of subscriptions) subscription.dispose();
      resolve(item);
      quickPick.hide();
    };
    subscriptions.push(
      quickPick.onDidChangeValue(refresh),
      quickPick.onDidAccept(() => {
        const item = quickPick.activeItems[0] ?? quickPick.selectedItems[0];
        if (item && (item.pick === 'type' || item.pick === 'tag')) finish(item);
      }),
      quickPick.onDidHide(() => finish(undefined)),
    );
    quickPick.show();
  });
  quickPick.dispose();

  if (!chosen) return undefined;
  if (chosen.pick === 'tag') return chosen.tag;
  if (chosen.pick !== 'type') return undefined;
  const type = chosen.type;
  const value = await vscode.window.showInputBox({
    title: `${options.title}: value of a ${type} tag`,
    prompt: `The value of the ${type} tag (2 to 50 characters; spaces and colons are fine).`,
    placeHolder: type === 'team' ? 'payments' : 'value',
    ignoreFocusOut: true,
    validateInput: (input) => validateTagValue(input),
  });
  if (value === undefined) return undefined;
  return { type: type.trim(), value: value.trim() };
}
