/** Calls back when an export file of the workspace (`.unleash/*.json`) is created, changed or deleted, or the folders change. */
import * as vscode from 'vscode';
import { EXPORT_GLOB } from '../base/constants';
import { DisposableStore } from './disposables';

export function watchExportFiles(listener: () => void): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher(EXPORT_GLOB);
  return new DisposableStore(
    watcher,
    watcher.onDidCreate(listener),
    watcher.onDidChange(listener),
    watcher.onDidDelete(listener),
    vscode.workspace.onDidChangeWorkspaceFolders(listener),
  );
}
