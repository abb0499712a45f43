/**
 * Whether each export file of the workspace (`.unleash/*.json`) still says what the server has, checked at every
 * refresh of the store against the catalog it holds (no request). A file is read once per version (size and
 * modification time), kept as a snapshot of its flags' states. In offline mode the export files are the source:
 * nothing to compare, no report.
 */
import * as vscode from 'vscode';
import type { ExportScope } from '../api/exportQuery';
import { compare } from '../base/compare';
import { sortInSlices } from '../base/sortInSlices';
import { TimeSlices } from '../base/timeSlices';
import { driftCount, exportDrift, type Drift, type ExportSnapshot } from '../model/export/exportDrift';
import type { ExportSnapshotIntake } from '../model/export/exportIntake';
import type { JobRunner } from '../model/jobs/jobTypes';
import { EXPORT_BUDGET, type ExportFileReader, type SkippedFile } from '../model/store/offlineFiles';
import { exportEnvironment } from '../model/export/exportEnvironment';
import { clean } from '../model/text/plainText';
import type { FlagStore } from '../model/store/flagStore';
import type { Logger } from '../base/logger';
import { loadCore } from './core';
import { DisposableStore } from './disposables';
import { watchExportFiles } from './exportFilesWatch';
import { readSettings } from './settings';
import { linkedNote, workspaceExportFolder } from './workspaceExports';

/** Changes on disk within this time are read together. */
const SETTLE_MS = 300;

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
  private files: ReadFile[] = [];
  /** The files the budget left out or that failed: each shows as not compared, with why. */
  private skipped: readonly SkippedFile[] = [];
  /** Reads each file once per version (size and time), within the intake budget, by the snapshot job. */
  private reader: ExportFileReader<ExportSnapshotIntake> | undefined;
  /** The files must be read again before the next check (none read yet, or one changed on disk). */
  private stale = true;
  private reading: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Watching the files, from their first read on (a window that never compares them never watches them). */
  private watching = false;
  private readonly owned: DisposableStore;

  constructor(
    private readonly store: FlagStore,
    private readonly logger: Logger,
    private readonly jobs: JobRunner,
  ) {
    this.owned = new DisposableStore(this.changed, store.onDidChange(() => void this.check()));
  }

  private watchFiles(): void {
    if (this.watching) return;
    this.watching = true;
    this.owned.add(
      watchExportFiles(() => {
        this.stale = true;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.check(), SETTLE_MS);
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
      this.reading = this.readFiles();
    }
    await this.reading;
    if (this.store.currentSource !== source || this.store.state !== 'ready') return;
    const catalog = this.store.catalog;
    const reports = await this.compare();
    // A newer listing or another source came meanwhile: its own check publishes.
    if (this.store.currentSource === source && this.store.catalog === catalog) this.publish(reports);
  }

  /** Each file against the catalog, in time slices (a file of 100,000 flags never blocks the editor). */
  private async compare(): Promise<ExportFileReport[]> {
    const started = performance.now();
    const slices = new TimeSlices();
    const catalog = this.store.catalog;
    const projects = readSettings().projects;
    const covered = { projects: projects.length > 0 ? new Set(projects) : undefined, failed: new Set(this.store.failures.map((failure) => failure.project)) };
    const outOfDate = this.store.outOfDate !== undefined;
    const reports: ExportFileReport[] = [];
    for (const file of this.files) {
      const { snapshot } = file;
      const scope: ExportScope = snapshot.whole ? { kind: 'all' } : { kind: 'features', names: await namesOf(snapshot, slices) };
      const base = { uri: file.uri, folder: file.folder, path: file.path, environment: snapshot.environment, whole: snapshot.whole, scope };
      if (outOfDate) reports.push({ ...base, problem: vscode.l10n.t('not checked: the last refresh of the flags failed') });
      else reports.push({ ...base, drift: await exportDrift(snapshot, catalog, covered, slices) });
    }
    for (const file of this.skipped) {
      const uri = vscode.Uri.parse(file.key ?? '');
      const environment = exportEnvironment({ features: [], featureStrategies: [], tagTypes: [] }, file.path);
      const base = { uri, folder: vscode.workspace.getWorkspaceFolder(uri)?.uri ?? uri, path: file.path, environment, whole: false };
      reports.push({ ...base, scope: { kind: 'features', names: [] }, problem: notComparedWhy(file) });
    }
    this.logger.debug(`Compared ${reports.length} export file(s) with ${catalog.size} flags in ${(performance.now() - started).toFixed(1)} ms.`);
    return reports;
  }

  /** Reads `.unleash/*.json` of every folder within the export files' budget: unchanged files from memory, the others again. */
  private async readFiles(): Promise<void> {
    const core = await loadCore();
    const jobs = this.jobs;
    this.reader ??= new core.ExportFileReader<ExportSnapshotIntake>({
      take: (input, file) => jobs.run('exportSnapshot', { ...input, fileName: file.path.split(/[\\/]/).pop() ?? file.path }),
      byPath: jobs.readsLocalFiles,
    });
    const folder = workspaceExportFolder();
    const read = await this.reader.read(folder);
    if (folder.links.length > 0) this.logger.warn(linkedNote(folder.links));
    for (const file of read.skipped) this.logger.debug(`Not compared with the server: ${file.path} (${file.reason ?? file.why})`);
    this.skipped = read.skipped;
    const cuts = core.cutsNote(read.files.map((file) => ({ path: file.path, cuts: file.value.cuts, cutCount: file.value.cutCount })));
    if (cuts) this.logger.warn(`Compared with the server in part: ${cuts}`);
    this.files = read.files.map(({ path, key, value }) => {
      const uri = folder.uriOf({ path, key });
      return { uri, folder: vscode.workspace.getWorkspaceFolder(uri)?.uri ?? uri, path, snapshot: value };
    });
  }

  private publish(reports: ExportFileReport[]): void {
    if (reports.length === 0 && this.reportsValue.length === 0) return;
    this.reportsValue = reports;
    this.changed.fire();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.owned.dispose();
  }
}

/** The names a partial export holds, sorted (what an update of it asks the server for). */
async function namesOf(snapshot: ExportSnapshot, slices: TimeSlices): Promise<string[]> {
  const names = new Set<string>();
  for (const flag of snapshot.flags) {
    if (slices.due()) await slices.next();
    names.add(flag.name);
  }
  return sortInSlices([...names], compare, slices);
}

/** Why a file the budget left out, or that failed, is not compared: what the Export Files view says. */
function notComparedWhy(file: SkippedFile): string {
  const megabytes = (bytes: number) => Math.floor(bytes / 2 ** 20);
  switch (file.why) {
    case 'tooLarge':
      return vscode.l10n.t('not compared: larger than {0} MB, the most one export file may hold', megabytes(EXPORT_BUDGET.maxFileBytes));
    case 'overBudget':
      return vscode.l10n.t('not compared: past {0} MB for all export files together', megabytes(EXPORT_BUDGET.maxTotalBytes));
    case 'tooMany':
      return vscode.l10n.t('not compared: only the first {0} export files are read', EXPORT_BUDGET.maxFiles);
    case 'failed':
      return vscode.l10n.t('not compared: {0}', clean(file.reason ?? '', 300));
  }
}
