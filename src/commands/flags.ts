/**
 * Commands on flags: Refresh, Copy Flag Name, Open in Unleash, Find Usages, Find Flag… and Reveal Flag. Each takes
 * its flag from a tree node, `{ project, name }`, `(project, name)` or a name, else from the tree's selection (from the
 * editor's context menu, the flag under the cursor), and returns what it did (for keybindings and tests).
 */
import * as vscode from 'vscode';
import { Commands, settingId, Settings } from '../base/constants';
import { isValidFlagName } from '../model/code/flagNameRule';
import type { FlagStore, StoreState } from '../model/store/flagStore';
import { inertText, openableUrl } from '../model/text/markdown';
import { flagName } from '../model/text/flagText';
import { flagPickItems, flagRefOf, isTreeNode } from '../model/tree/commandData';
import type { FlagRef } from '../model/tree/node';
import type { CodeFlags } from '../services/codeFlags';
import { searchFlagUsages, type UsageSearch } from '../services/flagUsageSearch';
import type { Logger } from '../base/logger';
import { fileCount } from '../views/usageCounts';
import { showUsages } from '../views/usagesView';
import type { FlagsView } from '../views/flagsTree';
import { DisposableStore } from '../services/disposables';

interface FlagCommandDeps {
  store: FlagStore;
  view: FlagsView;
  logger: Logger;
  /** The flag under the editor's cursor (Find Usages from the editor's context menu). */
  flagAtCursor?: () => FlagRef | undefined;
  /** How each folder's code names flags, and the catalog's name index: Find Usages reads the workspace with them. */
  codeFlags?: CodeFlags;
  /** Lists the export files again (the connection's evaluation): Refresh in offline mode, which reads them. */
  relistFiles?: () => Promise<unknown>;
}

export function registerFlagCommands(deps: FlagCommandDeps): vscode.Disposable {
  return new DisposableStore(
    vscode.commands.registerCommand(Commands.refresh, (arg?: unknown) => refresh(deps, arg)),
    vscode.commands.registerCommand(Commands.copyFlagName, (arg?: unknown, name?: unknown) => copyFlagName(deps, arg, name)),
    vscode.commands.registerCommand(Commands.openInWebUi, (arg?: unknown, name?: unknown) => openInWebUi(deps, arg, name)),
    vscode.commands.registerCommand(Commands.findUsages, (arg?: unknown, name?: unknown) => findUsages(deps, arg, name)),
    vscode.commands.registerCommand(Commands.findFlag, (arg?: unknown, name?: unknown) => findFlag(deps, arg, name)),
    vscode.commands.registerCommand(Commands.revealFlag, (arg?: unknown, name?: unknown) => revealFlag(deps, arg, name)),
  );
}

/** The flag of the arguments, else of the selected row; from the editor's context menu (a URI), the one at the cursor. */
function flagOf(deps: FlagCommandDeps, arg: unknown, name: unknown): FlagRef | undefined {
  if (isUriLike(arg)) return deps.flagAtCursor?.();
  return arg === undefined ? flagRefOf(deps.store, deps.view.selected()) : flagRefOf(deps.store, arg, name);
}

/** The flag of the arguments (flagOf); without one, says what to do, which depends on where the command was run. */
function flagOrSay(deps: FlagCommandDeps, arg: unknown, name: unknown): FlagRef | undefined {
  const flag = flagOf(deps, arg, name);
  if (!flag) {
    void vscode.window.showInformationMessage(
      isUriLike(arg) ? vscode.l10n.t('Put the cursor on a flag name first.') : vscode.l10n.t('Select a flag in the Unleash view first.'),
    );
  }
  return flag;
}

/** Flag data shown in a notification or the status bar: bounded, no icons, no links. */
function shown(name: string): string {
  return inertText(name, 80);
}

/**
 * False, after saying why, for a name that breaks Unleash's naming rule: it is not copied, searched for or opened
 * as it is (it may hide bidi or zero-width characters, or be megabytes long).
 */
function usableName(name: string, refused: string): boolean {
  if (isValidFlagName(name)) return true;
  void vscode.window.showWarningMessage(
    vscode.l10n.t(
      "{0}: \"{1}\" breaks Unleash's naming rule (1 to 100 letters, digits and - _ . ! ~ * ' ( )). Show Flag Details shows the name with its hidden characters made visible.",
      refused,
      shown(name),
    ),
  );
  return false;
}

/**
 * Without a node: re-reads the flag list (and forgets every cached detail); in offline mode, lists the export files
 * again first (a file added or removed that no watcher reported). With a node (a failed load's Retry): asks for that
 * node's children again. Returns the store's state afterwards.
 */
async function refresh(deps: FlagCommandDeps, arg: unknown): Promise<StoreState> {
  if (isTreeNode(arg)) {
    deps.view.provider.refreshNode(arg);
    return deps.store.state;
  }
  if (deps.relistFiles && deps.store.currentSource?.kind !== 'server') {
    // The store follows the source the listing announces, and load() waits for what it reads.
    await deps.relistFiles();
    await deps.store.load();
    return deps.store.state;
  }
  await deps.store.refresh();
  return deps.store.state;
}

/** Copies the flag's name; returns it. */
async function copyFlagName(deps: FlagCommandDeps, arg: unknown, name: unknown): Promise<string | undefined> {
  const flag = flagOrSay(deps, arg, name);
  if (!flag) return undefined;
  if (!usableName(flag.name, vscode.l10n.t('Not copied'))) return undefined;
  await vscode.env.clipboard.writeText(flag.name);
  vscode.window.setStatusBarMessage(vscode.l10n.t('Copied flag name "{0}"', shown(flag.name)), 3000);
  return flag.name;
}

/** Opens the flag's page in the Unleash web UI (only an http or https address); returns the address opened. */
async function openInWebUi(deps: FlagCommandDeps, arg: unknown, name: unknown): Promise<string | undefined> {
  const flag = flagOrSay(deps, arg, name);
  if (!flag) return undefined;
  const source = deps.store.currentSource;
  if (!source?.webUrl) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('The flags come from export files, which have no Unleash web address. Connect to a server to open flags in Unleash.'),
    );
    return undefined;
  }
  if (!usableName(flag.name, vscode.l10n.t('Not opened'))) return undefined;
  const address = source.webUrl(flag.project, flag.name);
  const url = openableUrl(address);
  if (url === undefined) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'Not opened: "{0}" is not an http or https address. Check {1} and {2}.',
        shown(address ?? ''),
        settingId(Settings.webUrl),
        settingId(Settings.serverUrl),
      ),
    );
    return undefined;
  }
  deps.logger.debug(`Opening ${url}`);
  await vscode.env.openExternal(vscode.Uri.parse(url, true));
  return url;
}

/**
 * Every use of the flag in the workspace, by the rule the hovers follow (never a longer name that contains it, nor a
 * comment word), shown in the References view. From the editor's context menu, the flag is the one under the cursor.
 * Answers what was found (for keybindings and tests).
 */
async function findUsages(deps: FlagCommandDeps, arg: unknown, name: unknown): Promise<UsageSearch | undefined> {
  const flag = flagOrSay(deps, arg, name);
  if (!flag) return undefined;
  if (!usableName(flag.name, vscode.l10n.t('Not searched'))) return undefined;
  const { codeFlags } = deps;
  if (!codeFlags) return undefined;
  // Uses are names of the catalog (a longer name wins its own literal): it must have loaded.
  await deps.store.load();
  if (!codeFlags.ready) {
    void vscode.window.showInformationMessage(vscode.l10n.t('The flags have not loaded, so their uses cannot be told apart yet. Try again once the Flags view shows them.'));
    return undefined;
  }
  const search = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Finding uses of {0}', shown(flag.name)), cancellable: true },
    (_progress, token) => searchFlagUsages(flag.name, codeFlags, deps.logger, token),
  );
  if (search.cancelled) return search;
  if (!search.files.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No use of the flag "{0}" in {1} of the workspace.', shown(flag.name), fileCount(search.searched)));
    return search;
  }
  await showUsages(vscode.l10n.t('Uses of the flag {0}', shown(flag.name)), search.files);
  return search;
}

/** The editor's context menu passes the document's URI. */
function isUriLike(arg: unknown): boolean {
  return typeof arg === 'object' && arg !== null && typeof (arg as { scheme?: unknown }).scheme === 'string' && typeof (arg as { path?: unknown }).path === 'string';
}

/**
 * A quick pick over every flag that reveals the chosen one in the tree; with an argument (a name, `{ project,
 * name }` or `(project, name)`), reveals that flag directly. Returns the flag revealed.
 */
async function findFlag(deps: FlagCommandDeps, arg: unknown, name: unknown): Promise<FlagRef | undefined> {
  await deps.store.load();
  let flag = arg === undefined ? undefined : flagRefOf(deps.store, arg, name);
  if (!flag) {
    const items = flagPickItems(deps.store);
    if (items.length === 0) {
      void vscode.window.showInformationMessage(
        deps.store.state === 'ready' ? vscode.l10n.t('There are no flags to find.') : vscode.l10n.t('The flags are not loaded yet.'),
      );
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Find Flag'),
      placeHolder: vscode.l10n.t('Type a flag name, project or description'),
      matchOnDescription: true,
      matchOnDetail: true,
    });
    flag = picked?.flag;
  }
  if (!flag) return undefined;
  return (await revealFlag(deps, flag)) ? flag : undefined;
}

/** Selects a flag's row in the tree (hover links use this); returns whether the tree shows that flag. */
async function revealFlag(deps: FlagCommandDeps, arg: unknown, name?: unknown): Promise<boolean> {
  await deps.store.load();
  const flag = flagRefOf(deps.store, arg, name);
  if (!flag) {
    const asked = typeof arg === 'string' ? arg : typeof name === 'string' ? name : '';
    void vscode.window.showInformationMessage(vscode.l10n.t('No flag named "{0}" is loaded.', shown(asked)));
    return false;
  }
  const revealed = await deps.view.reveal(flag.project, flag.name);
  if (!revealed) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('The flag "{0}" (project {1}) is not among the flags loaded.', inertText(flagName(flag.name, 80)), shown(flag.project)),
    );
  }
  return revealed;
}
