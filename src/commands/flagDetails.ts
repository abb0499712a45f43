/**
 * "Unleash: Show Flag Details": the whole flag, read-only, in an editor tab (a virtual document of the `unleash-flag`
 * scheme, written by `flagDocument`), so every value can be read, searched and copied in full. Also "Copy Value" on
 * variant payloads and constraint values in the tree.
 */
import * as vscode from 'vscode';
import { NotFoundError } from '../api/errors';
import type { FeatureSummary, Segment } from '../api/schemas';
import { Commands, FLAG_DETAILS_SCHEME } from '../base/constants';
import { archivedFlagDocument, flagDocument } from '../model/content/flagDocument';
import { USAGE_HOURS, type FlagActivity } from '../model/activity/flagActivity';
import { activitySections } from '../model/activity/activityText';
import type { FlagStore } from '../model/store/flagStore';
import { inertText } from '../model/text/markdown';
import { flagPickItems, flagRefOf, isTreeNode } from '../model/tree/commandData';
import { projectOf } from '../model/tree/node';
import { formatError } from '../model/content/formatError';
import { flagDetailsUri, flagOfUri } from '../services/flagDetailsAddress';
import type { Logger } from '../base/logger';
import type { FlagsView } from '../views/flagsTree';
import { DisposableStore } from '../services/disposables';

interface FlagDetailsDeps {
  store: FlagStore;
  view: Pick<FlagsView, 'selected'>;
  logger: Logger;
  /** History and usage, added at the end of each document (a server). */
  activity?: FlagActivity;
}

/** Writes the documents; they are read again when the store reloads (Refresh). */
class FlagDetailsProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly owned: DisposableStore;

  constructor(
    private readonly store: FlagStore,
    private readonly activity?: FlagActivity,
  ) {
    this.owned = new DisposableStore(
      this.changed,
      store.onDidChange(() => {
        if (store.state !== 'ready') return;
        for (const document of vscode.workspace.textDocuments) {
          if (document.uri.scheme === FLAG_DETAILS_SCHEME) this.changed.fire(document.uri);
        }
      }),
    );
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const flag = flagOfUri(uri);
    if (!flag) return `${vscode.l10n.t('This is not the address of a flag.')}\n`;
    const source = this.store.currentSource;
    try {
      const archived = await this.archivedFlag(flag.project, flag.name, token);
      if (archived) return archivedFlagDocument(archived, source?.label ?? '');
      // History and usage are read beside the details; each says for itself when it cannot be shown.
      const activity = this.activityText(flag.project, flag.name, token).catch((): string => '');
      const details = await this.store.feature(flag.project, flag.name, token);
      const segments = new Map<string, Segment[]>();
      const strategies = (details.environments ?? []).flatMap((env) => env.strategies ?? []);
      await Promise.all(
        strategies
          .filter((strategy) => strategy.id !== undefined && (strategy.segments === undefined || strategy.segments.length > 0))
          .map(async (strategy) => {
            const id = strategy.id as string;
            segments.set(id, await this.store.strategySegments(id, token));
          }),
      );
      const summary = this.store.catalog.byName(flag.name).find((row) => projectOf(row) === flag.project);
      const document = flagDocument({
        summary,
        details,
        segments,
        sourceLabel: source?.label ?? '',
        now: new Date(),
        status: summary ? this.store.status(summary, flag.project) : undefined,
      });
      return document + (await activity);
    } catch (error) {
      const formatted = formatError(error, { action: vscode.l10n.t('read the flag'), server: source?.label });
      // A flag of another project is opened from there (the message says how): reading this address again cannot help.
      if (error instanceof NotFoundError && error.actualProject) return `${formatted.message}\n`;
      return `${formatted.message}\n\n${vscode.l10n.t('Run "Unleash: Refresh Flags", then open the details again.')}\n`;
    }
  }

  /**
   * The archived flag of this project and name, when the listing lacks it and the source finds it among archived
   * flags (a server does not serve an archived flag's details: get-feature answers 404).
   */
  private async archivedFlag(project: string, name: string, token: vscode.CancellationToken): Promise<FeatureSummary | undefined> {
    if (this.store.catalog.byName(name).some((row) => projectOf(row) === project) || !this.store.findsArchived) return undefined;
    const found = await this.store.findArchived(name, token).catch(() => undefined);
    return found && projectOf(found) === project ? found : undefined;
  }

  /** The History and Usage sections ('' without FlagActivity). */
  private async activityText(project: string, name: string, token: vscode.CancellationToken): Promise<string> {
    if (!this.activity) return '';
    const [history, usage] = await Promise.all([this.activity.history(project, name, token), this.activity.usage(name, token)]);
    return activitySections(history, usage, new Date(), USAGE_HOURS);
  }

  dispose(): void {
    this.owned.dispose();
  }
}

export function registerFlagDetails(deps: FlagDetailsDeps): vscode.Disposable {
  const provider = new FlagDetailsProvider(deps.store, deps.activity);
  return new DisposableStore(
    provider,
    vscode.workspace.registerTextDocumentContentProvider(FLAG_DETAILS_SCHEME, provider),
    vscode.commands.registerCommand(Commands.showFlagDetails, (arg?: unknown, name?: unknown) => showFlagDetails(deps, arg, name)),
    vscode.commands.registerCommand(Commands.copyValue, (arg?: unknown) => copyValue(deps, arg)),
  );
}

/**
 * Opens the flag's details document; returns its URI (as a string), or undefined when no flag was given:
 *   await vscode.commands.executeCommand('unleash.showFlagDetails', { project: 'default', name: 'new-checkout-flow' })
 */
async function showFlagDetails(deps: FlagDetailsDeps, arg: unknown, name: unknown): Promise<string | undefined> {
  await deps.store.load();
  let flag = arg === undefined ? flagRefOf(deps.store, deps.view.selected()) : flagRefOf(deps.store, arg, name);
  if (!flag && arg === undefined && deps.store.catalog.size > 0) {
    // From the command palette with nothing selected: pick the flag.
    const picked = await vscode.window.showQuickPick(flagPickItems(deps.store), {
      title: vscode.l10n.t('Unleash: Show Flag Details'),
      placeHolder: vscode.l10n.t('Flag to show'),
      matchOnDescription: true,
    });
    flag = picked?.flag;
    if (!flag) return undefined;
  }
  if (!flag) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Select a flag in the Unleash view first, or use Find Flag.'));
    return undefined;
  }
  const uri = flagDetailsUri(flag);
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, { preview: true });
  return uri.toString();
}

/** Copies a tree row's value in full (a variant's payload, a constraint's values); returns what was copied. */
async function copyValue(deps: FlagDetailsDeps, arg: unknown): Promise<string | undefined> {
  const node = isTreeNode(arg) ? arg : deps.view.selected();
  if (!node || node.copyText === undefined) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Select a variant with a payload or a constraint in the Unleash view first.'));
    return undefined;
  }
  await vscode.env.clipboard.writeText(node.copyText);
  const label = inertText(node.label, 60);
  const copied = node.kind === 'variant' ? vscode.l10n.t('Copied the payload of {0}', label) : vscode.l10n.t('Copied the values of {0}', label);
  vscode.window.setStatusBarMessage(copied, 3000);
  deps.logger.debug(`Copied ${node.copyText.length} characters from ${node.id}.`);
  return node.copyText;
}
