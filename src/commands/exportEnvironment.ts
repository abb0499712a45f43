/**
 * "Unleash: Export Environment…": environment → scope (all, a project, a tag, chosen flags) → workspace folder →
 * a cancellable progress over the request and the write → a result naming the file, with Open, Reveal and, when the
 * file changed, Show Changes (a diff of the previous and the new content).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { UnleashClient } from '../api/client';
import type { ExportScope } from '../api/exportQuery';
import { Commands } from '../base/constants';
import { ExportTooLargeError } from '../model/export/exportBudget';
import type { ExportToFileResult } from '../model/export/exportToFile';
import { loadCore } from '../services/core';
import { formatError } from '../model/content/formatError';
import { pluralForm } from '../model/text/intl';
import { inertText } from '../model/text/markdown';
import { formatTag, tagFromArgument } from '../model/tags/tagInput';
import { readExportMaxBytes, readExportPath } from '../services/settings';
import { failWith, requireServer, withCancellableProgress, type CommandDeps, type CommandFailure } from './commandHelpers';
import { fileFolders, pickEnvironment, pickFolder, pickScope, relativeTo } from './exportPickers';
import { RecentDocuments } from './recentDocuments';
import { DisposableStore } from '../services/disposables';

/** The programmatic arguments. `scope` may be `'all'`; a tag scope may give `tag: 'type:value'`. */
export interface ExportArguments {
  environment: string;
  scope: ExportScope | 'all' | { kind: 'tag'; tag: string };
  /** Absolute path of the folder to write into; default: the only workspace folder. */
  folder?: string;
  /** Overrides `unleash.export.path`. */
  template?: string;
}

export type ExportCommandResult = (ExportToFileResult & { message: string; environment: string }) | CommandFailure;

/** What a Flags view node gives the command (src/model/tree/node.ts TreeNode: `kind`, `environment`, `flag`). */
interface NodeArgument {
  kind?: string;
  environment?: string;
  flag?: { project: string; name: string };
}

const PREVIOUS_SCHEME = 'unleash-export-previous';

/** The previous content of exported files, for the left side of "Show Changes". */
type PreviousContents = RecentDocuments<{ text: string }>;

/**
 * From the Flags view: on an environment node, that environment (the scope is asked); on a feature node, that flag
 * (the environment is asked). Programmatically, with no prompt, returning the result:
 *   await vscode.commands.executeCommand('unleash.exportEnvironment',
 *     { environment: 'development', scope: { kind: 'tag', type: 'team', value: 'payments' }, folder: '/abs/path' })
 */
export function registerExportCommand(deps: CommandDeps): vscode.Disposable {
  const previous: PreviousContents = new RecentDocuments(PREVIOUS_SCHEME, 10, () => '');
  return new DisposableStore(
    previous.register(),
    vscode.commands.registerCommand(Commands.exportEnvironment, async (argument?: unknown) => {
      await deps.connection.settled();
      return isExportArguments(argument) ? exportWithArguments(deps, previous, argument) : exportInteractively(deps, previous, argument);
    }),
  );
}

function isExportArguments(argument: unknown): argument is ExportArguments {
  return Boolean(argument) && typeof argument === 'object' && 'scope' in (argument as object);
}

// ---------------------------------------------------------------------------------------------------------------
// Programmatic
// ---------------------------------------------------------------------------------------------------------------

async function exportWithArguments(deps: CommandDeps, previous: PreviousContents, args: ExportArguments): Promise<ExportCommandResult> {
  const invalid = (message: string): CommandFailure => {
    void vscode.window.showWarningMessage(message);
    return { error: message };
  };
  if (typeof args.environment !== 'string' || !args.environment.trim()) return invalid(vscode.l10n.t('Give the environment to export, e.g. {0}.', '{ environment: "development", scope: "all" }'));
  const scope = normalizeScope(args.scope);
  if ('error' in scope) return invalid(scope.error);

  let folder = args.folder;
  if (folder === undefined) {
    const folders = fileFolders();
    if (folders.length !== 1) {
      return invalid(
        folders.length
          ? vscode.l10n.t('Give the folder to export into: this workspace has several folders.')
          : vscode.l10n.t('Open a folder first: the export is written to a file in the workspace.'),
      );
    }
    folder = folders[0]?.uri.fsPath;
  }
  if (!folder || !path.isAbsolute(folder)) return invalid(vscode.l10n.t('The folder to export into must be an absolute path (got {0}).', JSON.stringify(folder)));

  const client = await exportServer(deps);
  if ('error' in client) return client;
  return run(deps, previous, client, { environment: args.environment, scope, folder, template: args.template ?? readExportPath(vscode.Uri.file(folder)) });
}

function normalizeScope(scope: ExportArguments['scope'] | undefined): ExportScope | CommandFailure {
  if (scope === 'all' || (scope && typeof scope === 'object' && scope.kind === 'all')) return { kind: 'all' };
  if (!scope || typeof scope !== 'object') return { error: scopeHelp() };
  switch (scope.kind) {
    case 'project':
      return typeof scope.project === 'string' && scope.project.trim()
        ? { kind: 'project', project: scope.project }
        : { error: vscode.l10n.t('A project scope needs the project id: {0}.', '{ kind: "project", project: "checkout" }') };
    case 'features':
      return Array.isArray(scope.names) && scope.names.length && scope.names.every((name) => typeof name === 'string' && name)
        ? { kind: 'features', names: [...scope.names] }
        : { error: vscode.l10n.t('A features scope needs the flag names: {0}.', '{ kind: "features", names: ["my-flag"] }') };
    case 'tag': {
      const parsed = tagFromArgument('tag' in scope ? scope.tag : scope);
      return parsed.ok ? { kind: 'tag', ...parsed.tag } : { error: parsed.message };
    }
    default:
      return { error: scopeHelp() };
  }
}

function scopeHelp(): string {
  return vscode.l10n.t('The scope must be "all", or {0}.', '{ kind: "project" | "tag" | "features", … }');
}

// ---------------------------------------------------------------------------------------------------------------
// Interactive
// ---------------------------------------------------------------------------------------------------------------

async function exportInteractively(deps: CommandDeps, previous: PreviousContents, argument: unknown): Promise<ExportCommandResult | undefined> {
  const node = nodeOf(argument);
  const client = await exportServer(deps);
  if ('error' in client) return client;
  // The pickers offer the projects and flags of the list: a need for it.
  await deps.store.load();

  // A feature node: that flag, in an environment to pick. An environment node: that environment, scope to pick.
  const presetEnvironment = node.kind === 'feature' ? undefined : node.environment;
  const onlyFlag = node.flag && (node.kind === 'feature' || !node.environment) ? node.flag : undefined;
  const environment = presetEnvironment ?? (await pickEnvironment(deps, client));
  if (!environment) return undefined;

  const scope: ExportScope | undefined = onlyFlag
    ? { kind: 'features', names: [onlyFlag.name] }
    : await pickScope(deps, client, environment, node.flag);
  if (!scope) return undefined;

  // Each folder may set its own export path: the picker shows where each would write, the export uses the chosen one's.
  const folder = await pickFolder((uri) => readExportPath(uri), environment, scope);
  if (!folder) return undefined;
  return run(deps, previous, client, { environment, scope, folder, template: readExportPath(vscode.Uri.file(folder)) });
}

function nodeOf(argument: unknown): NodeArgument {
  if (!argument || typeof argument !== 'object') return {};
  const { kind, environment, flag } = argument as Record<string, unknown>;
  const flagRef =
    flag && typeof flag === 'object' && typeof (flag as { name?: unknown }).name === 'string'
      ? { project: String((flag as { project?: unknown }).project ?? 'default'), name: (flag as { name: string }).name }
      : undefined;
  return {
    kind: typeof kind === 'string' ? kind : undefined,
    environment: typeof environment === 'string' ? environment : undefined,
    flag: flagRef,
  };
}

/** The live client, or the reason there is none (shown, with the step that fixes it): exports need a server. */
function exportServer(deps: CommandDeps): Promise<UnleashClient | CommandFailure> {
  return requireServer(deps, { action: vscode.l10n.t('export') }, (offline) =>
    offline
      ? vscode.l10n.t('Exporting needs a connection to an Unleash server. The Flags view is showing the export files of the workspace (offline mode).')
      : vscode.l10n.t('Exporting needs a connection to an Unleash server.'),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Running and reporting
// ---------------------------------------------------------------------------------------------------------------

interface ExportRequest {
  environment: string;
  scope: ExportScope;
  folder: string;
  template: string;
}

async function run(deps: CommandDeps, previous: PreviousContents, client: UnleashClient, request: ExportRequest): Promise<ExportCommandResult> {
  const { environment, scope, folder, template } = request;
  const what = inertText(scope.kind === 'all' ? environment : vscode.l10n.t('{0} ({1})', environment, scopeLabel(scope)));
  // The export pipeline (it checks the answer with zod) is in the core bundle: loaded by the first need, if not yet.
  const { exportMessage, exportToFile, ExportWriteError } = await loadCore();
  let result: ExportToFileResult;
  try {
    result = await withCancellableProgress(vscode.l10n.t('Exporting {0}', what), (signal, progress) =>
      exportToFile({
        client,
        environment,
        scope,
        folder,
        template,
        signal,
        maxBytes: readExportMaxBytes(),
        flags: deps.store.catalog.flags,
        onStep: (step) => progress.report({
            message: step === 'request' ? vscode.l10n.t('asking {0}…', client.baseUrl.host) : vscode.l10n.t('writing the file…'),
          }),
      }),
    );
  } catch (error) {
    if (error instanceof ExportTooLargeError) return tooLarge(deps, previous, request, error);
    if (error instanceof ExportWriteError) deps.logger.error(`${error.code ?? 'error'} writing ${error.path}`);
    return failWith(error, deps.logger, { action: vscode.l10n.t('export {0}', environment), server: client.baseUrl.host, retry: () => run(deps, previous, client, request) });
  }

  const shown = shownPath(folder, result.path);
  const message = exportMessage(result, environment, scope, shown);
  deps.logger.info(`${message} (${result.strategies} strategies)`);
  if (result.leftoversRemoved > 0) {
    deps.logger.info(`Removed ${result.leftoversRemoved} temporary file(s) that earlier exports, stopped part-way, had left in ${shownPath(folder, path.dirname(result.path))}.`);
  }
  const uri = vscode.Uri.file(result.path);
  const open = vscode.l10n.t('Open');
  const reveal = vscode.l10n.t('Reveal');
  const showChanges = vscode.l10n.t('Show Changes');
  const actions = [open, reveal];
  const before = result.previous;
  if (before !== undefined) actions.push(showChanges);
  void vscode.window.showInformationMessage(message, ...actions).then(async (picked) => {
    if (picked === open) await vscode.window.showTextDocument(uri);
    if (picked === reveal) await vscode.commands.executeCommand('revealInExplorer', uri);
    if (picked === showChanges && before !== undefined) {
      const left = previous.add(path.basename(result.path), { text: before });
      await vscode.commands.executeCommand('vscode.diff', left, uri, vscode.l10n.t('{0} (before ↔ after export)', path.basename(result.path)));
    }
  });
  return { ...result, message, environment };
}

/**
 * An export larger than its budget: the message says how large and which scopes fit; the buttons ask for a smaller
 * scope of the same environment, or open the setting.
 */
function tooLarge(deps: CommandDeps, previous: PreviousContents, request: ExportRequest, error: ExportTooLargeError): ExportCommandResult {
  const { message } = formatError(error);
  deps.logger.warn(message);
  const smaller = vscode.l10n.t('Export a Smaller Scope…');
  const settings = vscode.l10n.t('Open Settings');
  void vscode.window.showWarningMessage(message, smaller, settings).then(async (picked) => {
    if (picked === smaller) await exportInteractively(deps, previous, { kind: 'environment', environment: request.environment });
    if (picked === settings) await vscode.commands.executeCommand(Commands.openSettings, error.setting);
  });
  return { error: message };
}

function scopeLabel(scope: ExportScope): string {
  switch (scope.kind) {
    case 'all':
      return vscode.l10n.t('all flags');
    case 'project':
      return vscode.l10n.t('project {0}', scope.project);
    case 'tag':
      return vscode.l10n.t('tag {0}', formatTag(scope));
    case 'features':
      return scope.names.length === 1
        ? `${scope.names[0]}`
        : pluralForm(scope.names.length, { one: vscode.l10n.t('{0} flag', scope.names.length), other: vscode.l10n.t('{0} flags', scope.names.length) });
  }
}

/** The file as the user knows it: workspace-relative (with the folder's name in a multi-root workspace). */
function shownPath(folder: string, file: string): string {
  const uri = vscode.Uri.file(file);
  if (vscode.workspace.getWorkspaceFolder(uri)) return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
  return relativeTo(folder, file);
}
