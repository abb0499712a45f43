/**
 * Reading the workspace's export files (`.unleash/*.json`) as they enter, for offline mode and for the drift check:
 * one budget for all of them together (how many, how large each, how large together), decided from the folder
 * listing and file sizes alone, so that a file beyond it is never read. Each file is read by a job (model/jobs/: in
 * a worker on the desktop), which holds what it holds to the intake budget; one that fails or is left out is named,
 * with why and what to do, and the others still show. Files are reached through `ExportFolder`.
 */
import * as l10n from '@vscode/l10n';
import { compare } from '../../base/compare';
import { INTAKE_BUDGET } from '../../base/intakeBudget';
import type { IntakeCut } from '../../base/intakeCuts';
import type { SegmentsIntake } from '../export/exportSegmentsFile';

/** An export file the folder lists: its workspace-relative path (shown to people) and a key that names it (a URI). */
export interface ListedFile {
  path: string;
  key: string;
  /** Its path on this machine's disk, when it is a local file (a worker reads it there itself). */
  localPath?: string;
  /** The segments file beside it (`<file>.segments`, exportSegments.ts), when the folder lists one. */
  segments?: ListedFile;
}

/** The export folders of the workspace. */
export interface ExportFolder {
  /** Every `*.json` regular file of the export folders (links and folders left out), in any order, with its segments file. */
  list(): Promise<ListedFile[]>;
  stat(file: ListedFile): Promise<{ size: number; mtime: number }>;
  read(file: ListedFile): Promise<Uint8Array>;
}

export interface ExportBudget {
  /** Most files read (the first ones by path). */
  maxFiles: number;
  /** Largest file read. */
  maxFileBytes: number;
  /** Most bytes of all files read together. */
  maxTotalBytes: number;
}

/** The default budget, the intake's: a 50,000-flag export (about 75 MB) fits; 32 files is more than a project keeps. */
export const EXPORT_BUDGET: ExportBudget = { maxFiles: INTAKE_BUDGET.files, maxFileBytes: INTAKE_BUDGET.fileBytes, maxTotalBytes: INTAKE_BUDGET.totalFileBytes };

/** A file that was not read, or failed: why, in words. */
export interface SkippedFile {
  path: string;
  /** The listed file's key (its URI). */
  key?: string;
  why: 'tooMany' | 'tooLarge' | 'overBudget' | 'failed';
  /** For `failed`: the reason (the parse or validation error, or why the file could not be read). */
  reason?: string;
}

/** What a file is read from: its bytes, or (a local file, read by a worker) its path and the most bytes it may hold. */
export type FileInput = { bytes: Uint8Array } | { file: string; maxBytes: number };

/** What a job answers for a file: what it holds, and what was cut from it to keep it within the intake budget. */
interface Taken {
  cuts: IntakeCut[];
  cutCount: number;
}

/** How one kind of reading takes each file. */
interface FileTaker<T extends Taken> {
  /** An export file's content (a job), or why it is not one (a thrown error). */
  take(input: FileInput, file: ListedFile): Promise<T>;
  /** Its segments file's (offline mode); without it, segments files are not read. */
  segments?(input: FileInput): Promise<SegmentsIntake>;
  /** Whether a local file may be handed over by its path (the worker reads it within its size). */
  byPath: boolean;
}

export interface ReadExportFile<T> {
  path: string;
  /** The listed file's key (its URI). */
  key: string;
  value: T;
  /** Its segments file's definitions, when it has one that was read. */
  segments?: SegmentsIntake;
}

export interface ExportFiles<T> {
  /** The files read, by path. */
  files: ReadExportFile<T>[];
  /** The files left out, by path. */
  skipped: SkippedFile[];
  /** When the newest of the files read last changed (ms since 1970), as the file system says; 0 when it does not. */
  changedAt: number;
}

interface Parsed<T> {
  size: number;
  mtime: number;
  outcome: T | Error;
}

/**
 * Reads the export files within a budget, remembering each file's result until its size or time changes. Readings
 * that overlap (file events come in bursts) share each file's reading, so that no file is held twice. An export's
 * segments file counts within the same budget; one that is left out or fails is named, and its export still shows
 * (its segments by name only).
 */
export class ExportFileReader<T extends Taken> {
  private parsed = new Map<string, Parsed<unknown>>();
  private readonly parsing = new Map<string, Promise<Parsed<unknown>>>();

  constructor(
    private readonly taker: FileTaker<T>,
    private readonly budget: ExportBudget = EXPORT_BUDGET,
  ) {}

  async read(folder: ExportFolder): Promise<ExportFiles<T>> {
    const { maxFiles, maxFileBytes, maxTotalBytes } = this.budget;
    const listed = (await folder.list()).sort((a, b) => compare(a.path, b.path));
    const files: ReadExportFile<T>[] = [];
    const skipped: SkippedFile[] = [];
    const next = new Map<string, Parsed<unknown>>();
    let total = 0;
    let changedAt = 0;
    /** One file within the budget: what `take` makes of it (remembered in `next`), or why it was left out (in `skipped`). */
    const readOne = async <V>(file: ListedFile, take: (input: FileInput) => Promise<V>): Promise<V | undefined> => {
      const { path } = file;
      let entry: Parsed<V>;
      try {
        const { size, mtime } = await folder.stat(file);
        if (size > maxFileBytes) {
          skipped.push({ path, key: file.key, why: 'tooLarge' });
          return undefined;
        }
        if (total + size > maxTotalBytes) {
          skipped.push({ path, key: file.key, why: 'overBudget' });
          return undefined;
        }
        total += size;
        const known = this.parsed.get(file.key) as Parsed<V> | undefined;
        entry = known && known.size === size && known.mtime === mtime ? known : await this.parse(folder, file, { size, mtime }, take);
      } catch (error) {
        skipped.push({ path, key: file.key, why: 'failed', reason: error instanceof Error ? error.message : String(error) });
        return undefined;
      }
      next.set(file.key, entry);
      if (!(entry.outcome instanceof Error)) {
        changedAt = Math.max(changedAt, entry.mtime);
        return entry.outcome;
      }
      skipped.push({ path, key: file.key, why: 'failed', reason: entry.outcome.message });
      return undefined;
    };
    for (const [index, file] of listed.entries()) {
      if (index >= maxFiles) {
        skipped.push({ path: file.path, key: file.key, why: 'tooMany' });
        continue;
      }
      const value = await readOne(file, (input) => this.taker.take(input, file));
      if (!value) continue;
      const takeSegments = this.taker.segments?.bind(this.taker);
      const segments = file.segments && takeSegments ? await readOne(file.segments, takeSegments) : undefined;
      files.push({ path: file.path, key: file.key, value, ...(segments ? { segments } : {}) });
    }
    this.parsed = next;
    return { files, skipped, changedAt };
  }

  /** One file's content, or why it is not what `take` reads, read once however many readings ask for it. */
  private parse<V>(folder: ExportFolder, file: ListedFile, stat: { size: number; mtime: number }, take: (input: FileInput) => Promise<V>): Promise<Parsed<V>> {
    const id = `${stat.size}:${stat.mtime}:${file.key}`;
    let parsing = this.parsing.get(id) as Promise<Parsed<V>> | undefined;
    if (!parsing) {
      parsing = this.readFile(folder, file, stat.size, take).then((outcome) => ({ ...stat, outcome }));
      this.parsing.set(id, parsing);
      const done = () => this.parsing.delete(id);
      parsing.then(done, done);
    }
    return parsing;
  }

  /** A file's content, or why it is not what `take` reads; a file that grew past its listed size is refused. */
  private async readFile<V>(folder: ExportFolder, file: ListedFile, size: number, take: (input: FileInput) => Promise<V>): Promise<V | Error> {
    try {
      if (file.localPath !== undefined && this.taker.byPath) return await take({ file: file.localPath, maxBytes: size });
      const bytes = await folder.read(file);
      if (bytes.length > size) return new Error(grewMessage());
      return await take({ bytes });
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }
}

/** Why a file that grew while it was read is refused. */
export function grewMessage(): string {
  return l10n.t('The file grew while it was read. Refresh once it is written.');
}
