/**
 * Whether each export file of the workspace (`.unleash/*.json`) still says what the server has, checked at every
 * refresh of the store against the catalog it holds (no request). A file is read once per version (size and
 * modification time), kept as a snapshot of its flags' states. In offline mode the export files are the source:
 * nothing to compare, no report.
 */
import * as vscode from 'vscode';
import type { ExportScope } from '../api/exportQuery';
import { driftCount, exportDrift, exportSnapshot, type Drift, type ExportSnapshot } from '../model/export/exportDrift';
import type { FlagStore } from '../model/store/flagStore';
import { environmentOf } from '../model/store/offlineSource';
import type { Logger } from '../base/logger';
import { loadCore } from './core';
import { DisposableStore } from './disposables';
import { watchExportFiles } from './exportFilesWatch';
import { exportFolders } from './exportFolders';
import { readSettings } from './settings';
import { compare } from '../base/compare';

/** Largest export file read. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;
/** Export files of one folder looked at; a folder of thousands of JSON files is not an export folder. */
const MAX_FILES = 100;

export interface ExportFileReport {
  uri: vscode.Uri;
  /** The workspace folder holding it (where an update writes). */
  folder: vscode.Uri;
  /** As the user knows it: `.unleash/development.json` (with the folder's name in a multi-root workspace). */
  path: string;
  environment: string;
  /** A file of every flag of its environment (`.unleash/<environment>.json`). */
  whole: boolean;
  /**
   * What a fresh export of the file takes in: every flag for a whole file; otherwise the flags it holds (a file of
   * part of an environment does not say how it was chosen).
   */
  scope: ExportScope;
  /** What changed on the server since the file was written; undefined when it could not be checked (`problem`). */
  drift?: Drift;
  problem?: string;
}

interface ReadFile {
  size: number;
  mtime: number;
  snapshot: ExportSnapshot;
  uri: vscode.Uri;
  folder: vscode.Uri;
  path: string;
}

export class ExportDrift implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** The reports changed. */
  readonly onDidChange = this.changed.event;
  private reportsValue: readonly ExportFileReport[] = [];
  private files = new Map<string, ReadFile>();
  /** The files must be read again before the next check (none read yet, or one changed on disk). */
  private stale = true;
  private reading: Promise<void> | undefined;
  /** Watching the files, from their first read on (a window that never compares them never watches them). */
  private watching = false;
  private readonly owned: DisposableStore;

  constructor(
    private readonly store: FlagStore,
    private readonly logger: Logger,
  ) {
    this.owned = new DisposableStore(
      this.changed,
      store.onDidChange(() => {
        // A refresh lists the files again too: one added or removed that no watcher reported is found then.
        if (store.state === 'loading') this.stale = true;
        void this.check();
      }),
    );
  }

  /** From the first reading on, a change on disk (settled by watchExportFiles) reads the files again. */
  private watchFiles(): void {
    if (this.watching) return;
    this.watching = true;
    this.owned.add(
      watchExportFiles(() => {
        this.stale = true;
        void this.check();
      }),
    );
  }

  get reports(): readonly ExportFileReport[] {
    return this.reportsValue;
  }

  /** The files that differ from the server. */
  get outOfDateFiles(): readonly ExportFileReport[] {
    return this.reportsValue.filter((report) => report.drift !== undefined && driftCount(report.drift) > 0);
  }

  /** Where the compared flags come from (the server's host), for messages. */
  get server(): string {
    return this.store.currentSource?.label ?? '';
  }

  /** Reads every file again and checks (after an export wrote one, before the file watcher says so). */
  recheck(): Promise<void> {
    this.stale = true;
    return this.check();
  }

  /** Checks again (after reading the files that changed); resolves once the reports are current. */
  async check(): Promise<void> {
    const source = this.store.currentSource;
    if (source?.kind !== 'server' || this.store.state === 'idle' || this.store.state === 'noServer') {
      this.publish([]);
      return;
    }
    if (this.store.state !== 'ready' || this.store.partial) return;
    if (this.stale) {
      this.watchFiles();
      this.stale = false;
      // After the reading in progress: a later change is never overtaken by an earlier reading.
      const previous = this.reading;
      this.reading = (async () => {
        await previous;
        await this.readFiles();
      })();
    }
    await this.reading;
    if (this.store.currentSource !== source || this.store.state !== 'ready') return;
    this.publish(this.compare());
  }

  private compare(): ExportFileReport[] {
    const started = performance.now();
    const catalog = this.store.catalog;
    const projects = readSettings().projects;
    const covered = { projects: projects.length > 0 ? new Set(projects) : undefined, failed: new Set(this.store.failures.map((failure) => failure.project)) };
    const outOfDate = this.store.outOfDate !== undefined;
    const reports = [...this.files.values()].map((file): ExportFileReport => {
      const { snapshot } = file;
      const scope: ExportScope = snapshot.whole
        ? { kind: 'all' }
        : { kind: 'features', names: [...snapshot.projects.keys()].sort(compare) };
      const base = { uri: file.uri, folder: file.folder, path: file.path, environment: snapshot.environment, whole: snapshot.whole, scope };
      if (outOfDate) return { ...base, problem: vscode.l10n.t('not checked: the last refresh of the flags failed') };
      return { ...base, drift: exportDrift(snapshot, catalog, covered) };
    });
    this.logger.debug(`Compared ${reports.length} export file(s) with ${catalog.size} flags in ${(performance.now() - started).toFixed(1)} ms.`);
    return reports;
  }

  /** Reads `.unleash/*.json` of every folder: unchanged files from memory, the others parsed again. */
  private async readFiles(): Promise<void> {
    const next = new Map<string, ReadFile>();
    for (const { folder, dir, files } of await exportFolders()) {
      const names = [...files].filter((name) => name.endsWith('.json')).sort();
      for (const name of names.slice(0, MAX_FILES)) {
        const uri = vscode.Uri.joinPath(dir, name);
        const key = uri.toString();
        const path = vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
        try {
          const { size, mtime } = await vscode.workspace.fs.stat(uri);
          const known = this.files.get(key);
          if (known && known.size === size && known.mtime === mtime) {
            next.set(key, known);
            continue;
          }
          if (size > MAX_FILE_BYTES) throw new Error(`larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
          // The reader is in the core bundle, loaded by the listing this check follows.
          const result = await (await loadCore()).parseExportFile(await vscode.workspace.fs.readFile(uri));
          const environment = environmentOf({ path: name, result });
          next.set(key, { size, mtime, uri, folder, path, snapshot: exportSnapshot(result, environment, name === `${environment}.json`) });
        } catch (error) {
          this.logger.debug(`Not compared with the server: ${path} (${error instanceof Error ? error.message : String(error)})`);
        }
      }
    }
    this.files = next;
  }

  private publish(reports: ExportFileReport[]): void {
    if (reports.length === 0 && this.reportsValue.length === 0) return;
    this.reportsValue = reports;
    this.changed.fire();
  }

  dispose(): void {
    this.owned.dispose();
  }
}
