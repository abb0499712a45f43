/**
 * "Unleash: Show Flag Details": the whole flag, read-only, in an editor tab (a virtual document of the `unleash-flag`
 * scheme, written by `flagDocument` in time slices), so every value can be read, searched and copied in full; with a
 * server, its history (HISTORY_STEP changes, and "Read More History" for the next ones: a code lens on the line that
 * offers them, and the palette) and usage. Also "Copy Value" on variant payloads and constraint values in the tree.
 */
import * as vscode from 'vscode';
import { NotFoundError } from '../api/errors';
import type { FeatureSummary, Segment } from '../api/schemas';
import { Commands, FLAG_DETAILS_SCHEME } from '../base/constants';
import { archivedFlagDocument, flagDocument } from '../model/content/flagDocument';
import { HISTORY_STEP, USAGE_HOURS, type FlagActivity, type History, type Known } from '../model/activity/flagActivity';
import type { FeatureMetricsRow } from '../api/activitySchemas';
import { CancelledError } from '../api/errors';
import { TextCancelled } from '../base/slicedText';
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

/** Documents whose history length is remembered (the oldest is forgotten first). */
const MAX_REMEMBERED = 100;

/** Writes the documents; they are read again when the store reloads (Refresh), and when more history is asked for. */
class FlagDetailsProvider implements vscode.TextDocumentContentProvider, vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly owned: DisposableStore;
  /** By document address: how many changes its History section shows. */
  private readonly historyWanted = new Map<string, number>();
  /** By document address: where the line offering the next changes starts (absent: no more to read). */
  private readonly moreAt = new Map<string, number>();

  constructor(
    private readonly store: FlagStore,
    private readonly activity?: FlagActivity,
  ) {
    this.owned = new DisposableStore(
      this.changed,
      this.lensesChanged,
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
    const key = uri.toString();
    this.moreAt.delete(key);
    try {
      const archived = await this.archivedFlag(flag.project, flag.name, token);
      if (archived) return archivedFlagDocument(archived, source?.label ?? '');
      // History and usage are read beside the details; each says for itself when it cannot be shown.
      const activity = this.readActivity(flag.project, flag.name, this.historyWanted.get(key) ?? HISTORY_STEP, token);
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
      const read = await activity;
      const how = moreHistoryHow();
      const text = await flagDocument(
        {
          summary,
          details,
          segments,
          sourceLabel: source?.label ?? '',
          now: new Date(),
          status: summary ? this.store.status(summary, flag.project) : undefined,
        },
        {
          tail: read && (() => activitySections(read.history, read.usage, new Date(), USAGE_HOURS, { step: HISTORY_STEP, how })),
          cancelled: () => token.isCancellationRequested,
        },
      );
      const offered = read ? text.lastIndexOf(how) : -1;
      if (offered >= 0) this.moreAt.set(key, text.lastIndexOf('\n', offered) + 1);
      this.lensesChanged.fire();
      return text;
    } catch (error) {
      if (error instanceof TextCancelled || error instanceof CancelledError) return '';
      const formatted = formatError(error, { action: vscode.l10n.t('read the flag'), server: source?.label });
      // A flag of another project is opened from there (the message says how): reading this address again cannot help.
      if (error instanceof NotFoundError && error.actualProject) return `${formatted.message}\n`;
      return `${formatted.message}\n\n${vscode.l10n.t('Run "Unleash: Refresh Flags", then open the details again.')}\n`;
    }
  }

  /** A lens on the line that offers the next changes of the history. */
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const offset = this.moreAt.get(document.uri.toString());
    if (offset === undefined) return [];
    const line = document.positionAt(offset).line;
    const title = vscode.l10n.t('$(history) Read More History: the next {0} changes', HISTORY_STEP);
    return [new vscode.CodeLens(new vscode.Range(line, 0, line, 0), { command: Commands.readMoreHistory, title, arguments: [document.uri] })];
  }

  /**
   * The next HISTORY_STEP changes in the details document at `uri` (the active editor's when not given); answers how
   * many it asks for, or undefined when that is no details document with more to read.
   */
  readMore(uri: vscode.Uri | undefined): number | undefined {
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    if (target?.scheme !== FLAG_DETAILS_SCHEME || !this.moreAt.has(target.toString())) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Open the details of a flag whose history has more changes first: its History section ends with "Read More History".'));
      return undefined;
    }
    const key = target.toString();
    const wanted = (this.historyWanted.get(key) ?? HISTORY_STEP) + HISTORY_STEP;
    this.historyWanted.delete(key);
    this.historyWanted.set(key, wanted);
    if (this.historyWanted.size > MAX_REMEMBERED) this.historyWanted.delete(this.historyWanted.keys().next().value as string);
    this.changed.fire(target);
    return wanted;
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

  /**
   * The history (its newest `wanted` changes) and usage (undefined without FlagActivity). Each part that fails says
   * why where it would show; a cancellation ends the document.
   */
  private async readActivity(project: string, name: string, wanted: number, token: vscode.CancellationToken): Promise<{ history: Known<History>; usage: Known<FeatureMetricsRow[]> } | undefined> {
    if (!this.activity) return undefined;
    const failed = (error: unknown): Known<never> => {
      if (error instanceof CancelledError) throw error;
      return { unavailable: formatError(error, { request: true }).message };
    };
    const [history, usage] = await Promise.all([
      this.activity.history(project, name, token, wanted).catch(failed),
      this.activity.usage(name, token).catch(failed),
    ]);
    return { history, usage };
  }

  dispose(): void {
    this.owned.dispose();
  }
}

/** What the History section says to read the next changes: the lens above its line, or the command. */
function moreHistoryHow(): string {
  return vscode.l10n.t('"Read More History" above this line, or "Unleash: Read More History" in the Command Palette.');
}

export function registerFlagDetails(deps: FlagDetailsDeps): vscode.Disposable {
  const provider = new FlagDetailsProvider(deps.store, deps.activity);
  return new DisposableStore(
    provider,
    vscode.workspace.registerTextDocumentContentProvider(FLAG_DETAILS_SCHEME, provider),
    // History and usage come from a server only: the browser build has no FlagActivity, nor this command.
    ...(deps.activity
      ? [
          vscode.languages.registerCodeLensProvider({ scheme: FLAG_DETAILS_SCHEME }, provider),
          vscode.commands.registerCommand(Commands.readMoreHistory, (uri?: unknown) => provider.readMore(uri instanceof vscode.Uri ? uri : undefined)),
        ]
      : []),
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
