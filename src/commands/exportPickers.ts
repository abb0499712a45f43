/**
 * The questions of "Export Environment…": which environment, which flags (all, a project, a tag, chosen flags) and
 * which workspace folder.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { UnleashClient } from '../api/client';
import type { ExportScope } from '../api/exportQuery';
import { Commands } from '../base/constants';
import { resolveExportPath, scopeNames } from '../model/export/exportPath';
import { joinValues, pluralForm } from '../model/text/intl';
import { pickText } from '../model/text/markdown';
import { distinctTags } from '../model/tags/tagInput';
import { formatError } from '../model/content/formatError';
import { showError, type CommandDeps } from './commandHelpers';
import { answerOf } from './quickPickAnswer';
import { loadTagTypes, pickTag } from './tagPicker';

/** `3 flags in the Flags view`. */
function flagsInView(count: number): string {
  return pluralForm(count, {
    one: vscode.l10n.t('{0} flag in the Flags view', count),
    other: vscode.l10n.t('{0} flags in the Flags view', count),
  });
}

export async function pickEnvironment(deps: CommandDeps, client: UnleashClient): Promise<string | undefined> {
  type Item = vscode.QuickPickItem & { environment: string };
  const quickPick = vscode.window.createQuickPick<Item>();
  quickPick.title = vscode.l10n.t('Unleash: Export Environment');
  quickPick.placeholder = vscode.l10n.t('Environment to export from {0}', client.baseUrl.host);
  quickPick.busy = true;
  quickPick.ignoreFocusOut = true;
  const controller = new AbortController();
  void client
    .listEnvironments({ signal: controller.signal })
    .then((environments) => {
      quickPick.items = environments.map((environment) => ({
        environment: environment.name,
        label: `$(server-environment) ${pickText(environment.name)}`,
        description: pickText([environment.type, environment.enabled === false ? vscode.l10n.t('disabled') : undefined].filter(Boolean).join(' · ')) || undefined,
      }));
      quickPick.busy = false;
    })
    .catch((error: unknown) => {
      quickPick.hide();
      void showError(error, deps.logger, { action: vscode.l10n.t('list the environments'), server: client.baseUrl.host });
    });
  const picked = await pickOne(quickPick);
  controller.abort();
  return picked?.environment;
}

type ScopeItem = vscode.QuickPickItem & { scope: 'all' | 'flag' | 'project' | 'tag' | 'choose' };

export async function pickScope(
  deps: CommandDeps,
  client: UnleashClient,
  environment: string,
  flag: { project: string; name: string } | undefined,
): Promise<ExportScope | undefined> {
  const items: ScopeItem[] = [
    {
      scope: 'all',
      label: vscode.l10n.t('$(list-flat) All flags'),
      detail: vscode.l10n.t('Every flag of every project, as configured in {0}', pickText(environment, 60)),
    },
    ...(flag
      ? [
          {
            scope: 'flag' as const,
            label: vscode.l10n.t('$(symbol-boolean) Only {0}', pickText(flag.name)),
            detail: vscode.l10n.t('The flag you picked in the Flags view'),
          },
        ]
      : []),
    { scope: 'project', label: vscode.l10n.t('$(project) One project…'), detail: vscode.l10n.t('The flags of one project') },
    { scope: 'tag', label: vscode.l10n.t('$(tag) Flags with a tag…'), detail: vscode.l10n.t('The flags carrying a tag, e.g. team:payments') },
    { scope: 'choose', label: vscode.l10n.t('$(checklist) Choose flags…'), detail: vscode.l10n.t('Pick flags from the list') },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Unleash: Export {0}', pickText(environment, 60)),
    placeHolder: vscode.l10n.t('Which flags to export'),
    ignoreFocusOut: true,
  });
  switch (picked?.scope) {
    case undefined:
      return undefined;
    case 'all':
      return { kind: 'all' };
    case 'flag':
      return flag ? { kind: 'features', names: [flag.name] } : undefined;
    case 'project': {
      const project = await pickProject(deps, client, environment, flag?.project);
      return project === undefined ? undefined : { kind: 'project', project };
    }
    case 'tag': {
      const tag = await pickTag({
        title: vscode.l10n.t('Unleash: Export {0}: flags with a tag', environment),
        tagTypes: loadTagTypes(client, deps.logger),
        knownTags: distinctTags(deps.store.catalog.flags),
        prefer: 'tags',
        valueAction: vscode.l10n.t('Export flags with'),
      });
      return tag ? { kind: 'tag', ...tag } : undefined;
    }
    case 'choose': {
      const names = await chooseFlags(deps, environment, flag?.name);
      return names ? { kind: 'features', names } : undefined;
    }
  }
}

/** Projects of the Flags view at once, and the server's list when it arrives. */
async function pickProject(deps: CommandDeps, client: UnleashClient, environment: string, preferred?: string): Promise<string | undefined> {
  type Item = vscode.QuickPickItem & { project: string };
  const counts = new Map<string, number>();
  for (const flag of deps.store.catalog.flags) counts.set(flag.project ?? 'default', (counts.get(flag.project ?? 'default') ?? 0) + 1);
  const known = new Set(counts.keys());
  const quickPick = vscode.window.createQuickPick<Item>();
  quickPick.title = vscode.l10n.t('Unleash: Export {0}: one project', pickText(environment, 60));
  quickPick.placeholder = vscode.l10n.t('Project to export');
  quickPick.ignoreFocusOut = true;
  const show = (): void => {
    const projects = [...known].sort();
    quickPick.items = projects.map((project) => ({
      project,
      label: `$(project) ${pickText(project)}`,
      description: counts.has(project) ? flagsInView(counts.get(project) ?? 0) : undefined,
    }));
    const active = quickPick.items.find((item) => item.project === preferred);
    if (active) quickPick.activeItems = [active];
  };
  show();
  quickPick.busy = true;
  const controller = new AbortController();
  void client
    .listProjects({ signal: controller.signal })
    .then((projects) => {
      for (const project of projects) known.add(project);
      show();
    })
    .catch((error: unknown) => deps.logger.warn(`Could not list the projects: ${formatError(error).message}`))
    .finally(() => {
      quickPick.busy = false;
    });
  const picked = await pickOne(quickPick);
  controller.abort();
  return picked?.project;
}

async function chooseFlags(deps: CommandDeps, environment: string, preselected?: string): Promise<string[] | undefined> {
  type Item = vscode.QuickPickItem & { name: string };
  const byName = new Map<string, string[]>();
  for (const flag of deps.store.catalog.flags) {
    const projects = byName.get(flag.name);
    if (projects) projects.push(flag.project ?? 'default');
    else byName.set(flag.name, [flag.project ?? 'default']);
  }
  if (!byName.size) {
    const message = vscode.l10n.t('The Flags view has no flags to choose from yet. Refresh it, or export all flags.');
    void vscode.window.showWarningMessage(message, vscode.l10n.t('Refresh')).then((picked) => {
      if (picked) void vscode.commands.executeCommand(Commands.refresh);
    });
    return undefined;
  }
  const quickPick = vscode.window.createQuickPick<Item>();
  quickPick.title = vscode.l10n.t('Unleash: Export {0}: choose flags', pickText(environment, 60));
  quickPick.placeholder = vscode.l10n.t('Select the flags to export (Space selects, Enter exports)');
  quickPick.canSelectMany = true;
  quickPick.matchOnDescription = true;
  quickPick.ignoreFocusOut = true;
  quickPick.items = [...byName].map(([name, projects]) => ({ name, label: pickText(name), description: pickText(joinValues(projects)) }));
  quickPick.selectedItems = quickPick.items.filter((item) => item.name === preselected);
  const chosen = await answerOf(quickPick, () => {
    if (quickPick.selectedItems.length) return quickPick.selectedItems.map((item) => item.name);
    quickPick.placeholder = vscode.l10n.t('Select at least one flag (Space selects), then press Enter');
    return undefined;
  });
  return chosen;
}

/** The workspace folder to write into; asks in a multi-root workspace, showing where the file would go. */
export async function pickFolder(templateOf: (folder: vscode.Uri) => string, environment: string, scope: ExportScope): Promise<string | undefined> {
  const folders = fileFolders();
  if (!folders.length) {
    const open = vscode.l10n.t('Open Folder');
    const picked = await vscode.window.showWarningMessage(
      vscode.l10n.t('Open a folder first: the export is written to a file in the workspace (by default .unleash/<environment>.json).'),
      open,
    );
    if (picked === open) await vscode.commands.executeCommand('vscode.openFolder');
    return undefined;
  }
  if (folders.length === 1) return folders[0]?.uri.fsPath;
  const names = scopeNames(scope);
  const picked = await vscode.window.showQuickPick(
    folders.map((folder) => {
      let description: string;
      try {
        const file = resolveExportPath({ template: templateOf(folder.uri), folder: folder.uri.fsPath, environment, project: names.project, scope: names.scope });
        description = relativeTo(folder.uri.fsPath, file);
      } catch {
        description = vscode.l10n.t('the export path setting is invalid');
      }
      return { label: `$(root-folder) ${folder.name}`, description, detail: folder.uri.fsPath, folder };
    }),
    {
      title: vscode.l10n.t('Unleash: Export {0}: folder', environment),
      placeHolder: vscode.l10n.t('Workspace folder to write the export into'),
      ignoreFocusOut: true,
    },
  );
  return picked?.folder.uri.fsPath;
}

/** Workspace folders on disk (a virtual folder cannot be written with the file system). */
export function fileFolders(): readonly vscode.WorkspaceFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
}

/** The one item picked (the selected one, else the one Enter was pressed on). */
function pickOne<T extends vscode.QuickPickItem>(quickPick: vscode.QuickPick<T>): Promise<T | undefined> {
  return answerOf(quickPick, () => quickPick.selectedItems[0] ?? quickPick.activeItems[0]);
}

/** `file` relative to `folder`, with `/`. */
export function relativeTo(folder: string, file: string): string {
  return path.relative(folder, file).split(path.sep).join('/');
}
