/**
 * The workspace's source files as text, for the commands that read every file (Check Workspace, Find Usages):
 * bounded in files and bytes, an open document's unsaved text preferred, cancellable between files.
 */
import * as vscode from 'vscode';
import { SOURCE_FILES_EXCLUDE } from '../base/constants';
import type { Logger } from '../base/logger';

interface WorkspaceFileLimits {
  /** At most this many files are read. */
  maxFiles: number;
  /** Larger files are skipped. */
  maxFileBytes: number;
}

const WORKSPACE_FILE_LIMITS: WorkspaceFileLimits = { maxFiles: 20_000, maxFileBytes: 2_000_000 };

/**
 * Calls `visit` with each file matching `glob` (less SOURCE_FILES_EXCLUDE and `files.exclude`) and its text, in the
 * order `findFiles` gives; `progress` sees each file's share. Answers how many files were visited, and whether the
 * token stopped it.
 */
export async function visitWorkspaceFiles(
  glob: string,
  token: vscode.CancellationToken,
  logger: Logger,
  visit: (uri: vscode.Uri, text: string) => void | Promise<void>,
  progress?: (uri: vscode.Uri, increment: number) => void,
  limits: WorkspaceFileLimits = WORKSPACE_FILE_LIMITS,
): Promise<{ files: number; cancelled: boolean }> {
  const uris = await vscode.workspace.findFiles(glob, SOURCE_FILES_EXCLUDE, limits.maxFiles, token);
  const open = new Map(vscode.workspace.textDocuments.map((document) => [document.uri.toString(), document]));
  let files = 0;
  for (const uri of uris) {
    if (token.isCancellationRequested) return { files, cancelled: true };
    progress?.(uri, 100 / uris.length);
    const text = open.get(uri.toString())?.getText() ?? (await readBounded(uri, limits.maxFileBytes, logger));
    if (text === undefined) continue;
    await visit(uri, text);
    files++;
  }
  return { files, cancelled: token.isCancellationRequested };
}

async function readBounded(uri: vscode.Uri, maxBytes: number, logger: Logger): Promise<string | undefined> {
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.size > maxBytes) return undefined;
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch (error) {
    logger.warn(`Skipped ${vscode.workspace.asRelativePath(uri)}: ${error instanceof Error ? error.message : error}`);
    return undefined;
  }
}
