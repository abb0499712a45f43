/**
 * The workspace's uses of some flags at once (the Cleanup view's candidates), by the hovers' rule (`findFlagUsages`),
 * each file read as its folder's settings name flags. One pass over the files: a file is searched for a name only
 * when it holds a token a spelling of that name ends with (`namesIn`), so the cost grows with the files, not with
 * files times names. Bounded like Find Usages (workspaceFiles.ts), cancellable between files; reads files only.
 */
import * as vscode from 'vscode';
import { USAGE_FILES_GLOB } from '../base/constants';
import { findFlagUsages, isPlainScalarFile } from '../model/code/flagUsages';
import { namesIn, spellingAnchors, usageExcerpt } from '../model/activity/cleanup';
import type { Logger } from '../base/logger';
import type { CodeFlags } from './codeFlags';
import { visitWorkspaceFiles } from './workspaceFiles';

/** Places kept per flag (the count is exact). */
const MAX_KEPT_USES = 50;

/** One use: where, and the line around it (cleaned and cut when shown). */
export interface UsePlace {
  uri: vscode.Uri;
  range: vscode.Range;
  /** The line around the use, cut between tokens (`usageExcerpt`). */
  preview: string;
}

export interface FlagUses {
  /** Every use found. */
  count: number;
  /** Files holding at least one. */
  files: number;
  /** The first MAX_KEPT_USES places. */
  places: UsePlace[];
}

interface UsageCount {
  uses: Map<string, FlagUses>;
  /** Files read. */
  searched: number;
  cancelled: boolean;
}

export async function countFlagUsages(names: readonly string[], flags: CodeFlags, logger: Logger, token: vscode.CancellationToken): Promise<UsageCount> {
  const index = flags.analyzer().nameIndex;
  const uses = new Map<string, FlagUses>(names.map((name) => [name, { count: 0, files: 0, places: [] }]));
  const anchorsByNaming = new Map<string, Map<string, string[]>>();
  const visited = await visitWorkspaceFiles(USAGE_FILES_GLOB, token, logger, (uri, text) => {
    const options = { ...flags.usageOptions(uri), plainScalars: isPlainScalarFile(uri.path) };
    const naming = JSON.stringify(options.transforms);
    let anchors = anchorsByNaming.get(naming);
    if (anchors === undefined) {
      anchors = spellingAnchors(names, options.transforms);
      anchorsByNaming.set(naming, anchors);
    }
    for (const name of namesIn(text, anchors)) {
      const found = findFlagUsages(text, name, index, options);
      const entry = uses.get(name);
      if (found.length === 0 || entry === undefined) continue;
      entry.count += found.length;
      entry.files += 1;
      for (const usage of found.slice(0, MAX_KEPT_USES - entry.places.length)) {
        entry.places.push({
          uri,
          range: new vscode.Range(usage.line, usage.start, usage.line, usage.end),
          preview: usageExcerpt(usage.lineText, usage.start, usage.end),
        });
      }
    }
  });
  return { uses, searched: visited.files, cancelled: visited.cancelled };
}
