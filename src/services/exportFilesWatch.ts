/**
 * Calls back when the export files of the workspace (`.unleash/*.json` and their `.segments`) may have changed: one
 * is created, changed or deleted, a `.unleash` folder comes or goes (moved away, a checkout), or workspace folders are
 * added or removed. Changes within SETTLE_MS are reported once (a `git pull` writes several files).
 *
 * VS Code matches a plain string glob against absolute paths, so `.unleash/*.json` as a string never fires: each
 * workspace folder gets RelativePatterns of its own, made again when the folders change. A folder deleted or moved
 * away is reported as that folder alone (not as each file in it), so the `.unleash` folder itself is watched too.
 */
import * as vscode from 'vscode';
import { EXPORT_FILES_PATTERN, EXPORT_FOLDER } from '../base/constants';
import { DisposableStore } from './disposables';

/** Changes on disk within this time are reported together. */
const SETTLE_MS = 300;

/** The watchers of one workspace folder: its export files, and its `.unleash` folder itself. */
function watchFolder(folder: vscode.WorkspaceFolder, changed: () => void): vscode.Disposable {
  const files = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, EXPORT_FILES_PATTERN));
  // A folder's own changes (its modification time) say nothing: only its coming and going.
  const dir = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, EXPORT_FOLDER), false, true, false);
  return new DisposableStore(
    files,
    files.onDidCreate(changed),
    files.onDidChange(changed),
    files.onDidDelete(changed),
    dir,
    dir.onDidCreate(changed),
    dir.onDidDelete(changed),
  );
}

export function watchExportFiles(listener: () => void): vscode.Disposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(listener, SETTLE_MS);
  };
  const watched = new Map<string, vscode.Disposable>();
  const follow = () => {
    const folders = new Map((vscode.workspace.workspaceFolders ?? []).map((folder) => [folder.uri.toString(), folder]));
    for (const [key, watchers] of watched) {
      if (folders.has(key)) continue;
      watchers.dispose();
      watched.delete(key);
    }
    for (const [key, folder] of folders) if (!watched.has(key)) watched.set(key, watchFolder(folder, changed));
  };
  follow();
  const folderChanges = vscode.workspace.onDidChangeWorkspaceFolders(() => {
    follow();
    changed();
  });
  const owned = new DisposableStore(folderChanges);
  owned.add(() => {
    clearTimeout(timer);
    for (const watchers of watched.values()) watchers.dispose();
    watched.clear();
  });
  return owned;
}
