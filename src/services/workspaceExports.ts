/**
 * Offline mode's side in the editor: the `.unleash/*.json` export files of every workspace folder, listed and read
 * through the editor's file system (remote and virtual workspaces, and the browser build's web worker, too) within
 * the export budget (model/offlineFiles.ts). The desktop connection and the browser build's both use it; they differ
 * only in where the reader comes from (the core bundle, loaded on first need; or the one browser bundle).
 */
import * as vscode from 'vscode';
import { DeferredSource } from '../model/store/deferredSource';
import { ExportFilesError } from '../model/export/exportFilesError';
import { segmentsPathFor } from '../model/export/exportSegmentsPath';
import type { FlagSource } from '../model/store/flagSource';
import { joinValues } from '../model/text/intl';
import { clean } from '../model/text/plainText';
import type { ExportIntake } from '../model/export/exportIntake';
import type { JobRunner } from '../model/jobs/jobTypes';
import type { ExportBudget, ExportFileReader, ExportFiles, ExportFolder, ListedFile, SkippedFile } from '../model/store/offlineFiles';
import type { Logger } from '../base/logger';
import type { ConnectionState } from './connectionState';
import type { Core } from './core';
import { exportFolders } from './exportFolders';
import { compare } from '../base/compare';

/** What reading the files takes: the reader, its budget, the notes on files left out or cut, the source they make. */
type OfflineReading = Pick<Core, 'ExportFileReader' | 'EXPORT_BUDGET' | 'skippedNote' | 'cutsNote' | 'OfflineSource' | 'offlineExports' | 'InThreadJobs'>;

/**
 * The `.unleash` folders of the workspace, through the editor's file system (`uriOf` finds a listed file's URI;
 * `links` names the `.unleash` folders of the last listing that are links, and so were not read).
 */
export function workspaceExportFolder(): ExportFolder & { uriOf(file: ListedFile): vscode.Uri; links: string[] } {
  const uris = new Map<string, vscode.Uri>();
  const uriOf = (file: ListedFile) => uris.get(file.key) ?? vscode.Uri.parse(file.key);
  const links: string[] = [];
  return {
    links,
    async list() {
      const files: ListedFile[] = [];
      links.length = 0;
      for (const { dir, files: names, link } of await exportFolders()) {
        if (link) links.push(vscode.workspace.asRelativePath(dir));
        const listed = (name: string): ListedFile => {
          const uri = vscode.Uri.joinPath(dir, name);
          uris.set(uri.toString(), uri);
          return { path: vscode.workspace.asRelativePath(uri), key: uri.toString(), ...(uri.scheme === 'file' ? { localPath: uri.fsPath } : {}) };
        };
        for (const name of names) {
          if (!name.endsWith('.json')) continue;
          const segments = names.has(segmentsPathFor(name)) ? listed(segmentsPathFor(name)) : undefined;
          files.push({ ...listed(name), ...(segments ? { segments } : {}) });
        }
      }
      return files;
    },
    uriOf,
    stat: async (file) => vscode.workspace.fs.stat(uriOf(file)),
    read: async (file) => vscode.workspace.fs.readFile(uriOf(file)),
  };
}

/** One log line per file left out (the files past `maxFiles` in one line): the whole reason, in English. */
function skippedLog(skipped: readonly SkippedFile[], budget: ExportBudget): string[] {
  const megabytes = (bytes: number) => Math.floor(bytes / 2 ** 20);
  const tooMany = skipped.filter((file) => file.why === 'tooMany');
  const lines = skipped.flatMap((file) => {
    switch (file.why) {
      case 'tooLarge':
        return [`Skipped ${file.path}: larger than ${megabytes(budget.maxFileBytes)} MB, the most one export file may hold.`];
      case 'overBudget':
        return [`Skipped ${file.path}: with it the export files would hold more than ${megabytes(budget.maxTotalBytes)} MB together.`];
      case 'failed':
        return [`Skipped ${file.path}: ${file.reason ?? ''}`];
      default:
        return [];
    }
  });
  if (tooMany.length > 0) {
    const names = tooMany.slice(0, 20).map((file) => file.path).join(', ');
    lines.push(`Skipped ${tooMany.length} export files after the first ${budget.maxFiles} by name: ${names}${tooMany.length > 20 ? ', …' : ''}.`);
  }
  return lines;
}

/** Why export files behind a `.unleash` link are not read, and what to do. */
export function linkedNote(links: readonly string[]): string {
  return vscode.l10n.t(
    'Not read: {0} is a symbolic link, which a cloned repository could point anywhere. Move the export files into a real .unleash folder of the workspace.',
    joinValues(links.map((link) => clean(link, 80))),
  );
}

interface WorkspaceExportsOptions {
  /** The reader and the source, loaded the first time the files are read. */
  load: () => Promise<OfflineReading>;
  /** Where the files are read (a worker on the desktop); on this thread, in time slices, without one. */
  jobs?: JobRunner;
  /** A sentence the view shows above the files left out (the browser build: that these are the committed exports). */
  lead?: (read: ExportFiles<ExportIntake>) => string;
}

export class WorkspaceExports {
  /** Reads the export files, and remembers each one's result until it changes. */
  private reader: ExportFileReader<ExportIntake> | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly options: WorkspaceExportsOptions,
  ) {}

  /**
   * Lists the files: none at all is the welcome state (`noServer`). Else a source that reads them on first need. When
   * every file fails, `fail` gets the state that names them (the connection announces it while it is current).
   */
  async state(fail: (next: ConnectionState) => void): Promise<ConnectionState> {
    const folder = workspaceExportFolder();
    const listed = (await folder.list()).map((file) => file.path).sort(compare);
    const linked = folder.links.length > 0 ? linkedNote(folder.links) : undefined;
    if (linked) this.logger.warn(linked);
    if (!listed.length) return linked ? { state: 'error', problem: new ExportFilesError(linked) } : { state: 'noServer' };
    const known = { kind: 'files' as const, label: () => joinValues(listed), fileCount: listed.length };
    return { state: 'ready', source: new DeferredSource(known, () => this.read(folder, fail)) };
  }

  /**
   * Reads the export files within the export budget; a file left out or failing is logged and named in the view, the
   * others still show. Files that all fail make the state an error that names them.
   */
  private async read(folder: ReturnType<typeof workspaceExportFolder>, fail: (next: ConnectionState) => void): Promise<FlagSource> {
    const reading = await this.options.load();
    if (!this.reader) {
      const jobs = this.options.jobs ?? new reading.InThreadJobs();
      this.reader = new reading.ExportFileReader<ExportIntake>({
        take: (input) => jobs.run('exportFile', input),
        segments: (input) => jobs.run('segmentsFile', input),
        byPath: jobs.readsLocalFiles,
      });
    }
    const read = await this.reader.read(folder);
    for (const line of skippedLog(read.skipped, reading.EXPORT_BUDGET)) this.logger.warn(line);
    const cuts = reading.cutsNote(read.files.flatMap((file) => [
      { path: file.path, cuts: file.value.cuts, cutCount: file.value.cutCount },
      ...(file.segments ? [{ path: `${file.path}.segments`, cuts: file.segments.cuts, cutCount: file.segments.cutCount }] : []),
    ]));
    if (cuts) this.logger.warn(cuts);
    const linked = folder.links.length > 0 ? linkedNote(folder.links) : undefined;
    const skipped = [reading.skippedNote(read.skipped), cuts, linked].filter((part) => part !== undefined).join(' ') || undefined;
    if (read.files.length) this.logger.info(`Offline mode: ${read.files.length} export file(s).`);
    else {
      const next: ConnectionState = skipped ? { state: 'error', problem: new ExportFilesError(skipped) } : { state: 'noServer' };
      fail(next);
      if (next.problem) throw next.problem;
    }
    const note = [this.options.lead?.(read), skipped].filter((part) => part !== undefined).join(' ');
    return reading.OfflineSource.read(reading.offlineExports(read), { note: note || undefined });
  }
}
