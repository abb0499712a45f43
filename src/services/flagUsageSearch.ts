/**
 * Every use of one flag in the workspace's files, by the hovers' rule (`findFlagUsages`), each file read as its
 * folder's settings name flags. Reads files only; nothing here sends a request.
 */
import * as vscode from 'vscode';
import { USAGE_FILES_GLOB } from '../base/constants';
import { findFlagUsages, isPlainScalarFile } from '../model/code/flagUsages';
import type { Logger } from '../base/logger';
import type { CodeFlags } from './codeFlags';
import { visitWorkspaceFiles } from './workspaceFiles';

/** The uses of a flag in one file. */
export interface FileUsages {
  uri: vscode.Uri;
  ranges: Array<{ range: vscode.Range; lineText: string }>;
}
export interface UsageSearch {
  files: FileUsages[];
  /** Files read. */
  searched: number;
  cancelled: boolean;
}

export async function searchFlagUsages(name: string, flags: CodeFlags, logger: Logger, token: vscode.CancellationToken): Promise<UsageSearch> {
  const index = flags.analyzer().nameIndex;
  const files: FileUsages[] = [];
  const visited = await visitWorkspaceFiles(USAGE_FILES_GLOB, token, logger, (uri, text) => {
    const options = { ...flags.usageOptions(uri), plainScalars: isPlainScalarFile(uri.path) };
    const usages = findFlagUsages(text, name, index, options);
    if (!usages.length) return;
    files.push({
      uri,
      ranges: usages.map((usage) => ({ range: new vscode.Range(usage.line, usage.start, usage.line, usage.end), lineText: usage.lineText })),
    });
  });
  files.sort((a, b) => (a.uri.path < b.uri.path ? -1 : a.uri.path > b.uri.path ? 1 : 0));
  return { files, searched: visited.files, cancelled: visited.cancelled };
}
