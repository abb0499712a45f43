/**
 * The `.unleash` folder of each workspace folder, listed through the editor's file system (remote and virtual too).
 * A `.unleash` that is a symbolic link is not read: a cloned repository could point it anywhere on the machine.
 */
import * as vscode from 'vscode';
import { EXPORT_FOLDER } from '../base/constants';

interface ExportFolderListing {
  /** The workspace folder. */
  folder: vscode.Uri;
  /** Its `.unleash` folder. */
  dir: vscode.Uri;
  /** The names of the regular files in it (a link, even to a file, is left out); none when `dir` is a link. */
  files: Set<string>;
  /** The `.unleash` folder is a symbolic link, and was not read. */
  link?: true;
}

/** Every workspace folder that has a `.unleash` folder, with its regular files. */
export async function exportFolders(): Promise<ExportFolderListing[]> {
  const listings: ExportFolderListing[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const dir = vscode.Uri.joinPath(folder.uri, EXPORT_FOLDER);
    let entries: [string, vscode.FileType][];
    try {
      if ((await vscode.workspace.fs.stat(dir)).type & vscode.FileType.SymbolicLink) {
        listings.push({ folder: folder.uri, dir, files: new Set(), link: true });
        continue;
      }
      entries = await vscode.workspace.fs.readDirectory(dir);
    } catch {
      continue; // no export folder here
    }
    listings.push({ folder: folder.uri, dir, files: new Set(entries.filter(([, type]) => type === vscode.FileType.File).map(([name]) => name)) });
  }
  return listings;
}
