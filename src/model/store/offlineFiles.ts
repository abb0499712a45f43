/**
 * Which export files the offline mode reads: one budget for all of them together (how many, how large each, how
 * large together), decided from the folder listing and file sizes alone, so that a file beyond it is never read.
 * Each file is parsed on its own: one that fails or is left out is named, with why and what to do, and the others
 * still show. Files are reached through `ExportFolder` (the editor's file system in the extension).
 */
import * as l10n from '@vscode/l10n';
import { TimeSlices } from '../../base/timeSlices';
import type { SegmentDefinition } from '../../api/schemas';
import { parseExportFile } from '../export/exportFile';
import { parseSegmentsFile } from '../export/exportSegmentsFile';
import type { ExportFile } from './offlineSource';
import { clean, formatList } from '../text/plainText';
import { compare } from '../../base/compare';
import { INTAKE_BUDGET } from '../../base/intakeBudget';

/** An export file the folder lists: its workspace-relative path (shown to people) and a key that names it (a URI). */
export interface ListedFile {
  path: string;
  key: string;
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

const MIB = 1024 * 1024;

/**
 * The default budget: a 50,000-flag export (about 75 MB) fits. Memory grows with what the files hold together, so the
 * total has the same bound; 32 files is more environments and partial exports than a project keeps.
 */
export const EXPORT_BUDGET: ExportBudget = { maxFiles: INTAKE_BUDGET.files, maxFileBytes: INTAKE_BUDGET.fileBytes, maxTotalBytes: INTAKE_BUDGET.totalFileBytes };

/** A file that was not read, or failed: why, in words. */
export interface SkippedFile {
  path: string;
  why: 'tooMany' | 'tooLarge' | 'overBudget' | 'failed';
  /** For `failed`: the reason (the parse or validation error, or why the file could not be read). */
  reason?: string;
}

export interface ExportFiles {
  /** The files read and parsed, by path. */
  files: ExportFile[];
  /** The files left out, by path. */
  skipped: SkippedFile[];
  /** When the newest of the files read last changed (ms since 1970), as the file system says; 0 when it does not. */
  changedAt: number;
}

interface Parsed<T = ExportFile['result']> {
  size: number;
  mtime: number;
  outcome: T | Error;
}

/**
 * Reads the export files within a budget, remembering each file's result until its size or time changes. Readings
 * that overlap (file events come in bursts) share each file's parse, so that no file is held twice. An export's
 * segments file counts within the same budget; one that is left out or fails is named, and its export still shows
 * (its segments by name only).
 */
export class ExportFileReader {
  private parsed = new Map<string, Parsed<unknown>>();
  private readonly parsing = new Map<string, Promise<Parsed<unknown>>>();

  constructor(private readonly budget: ExportBudget = EXPORT_BUDGET) {}

  async read(folder: ExportFolder, slices = new TimeSlices()): Promise<ExportFiles> {
    const { maxFiles, maxFileBytes, maxTotalBytes } = this.budget;
    const listed = (await folder.list()).sort((a, b) => compare(a.path, b.path));
    const files: ExportFile[] = [];
    const skipped: SkippedFile[] = [];
    const next = new Map<string, Parsed<unknown>>();
    let total = 0;
    let changedAt = 0;
    /** One file within the budget: its parse (remembered in `next`), or why it was left out (in `skipped`). */
    const readOne = async <T>(file: ListedFile, parser: Parser<T>): Promise<T | undefined> => {
      const { path } = file;
      let entry: Parsed<T>;
      try {
        const { size, mtime } = await folder.stat(file);
        if (size > maxFileBytes) {
          skipped.push({ path, why: 'tooLarge' });
          return undefined;
        }
        if (total + size > maxTotalBytes) {
          skipped.push({ path, why: 'overBudget' });
          return undefined;
        }
        total += size;
        const known = this.parsed.get(file.key) as Parsed<T> | undefined;
        entry = known && known.size === size && known.mtime === mtime ? known : await this.parse(folder, file, { size, mtime }, slices, parser);
      } catch (error) {
        skipped.push({ path, why: 'failed', reason: error instanceof Error ? error.message : String(error) });
        return undefined;
      }
      next.set(file.key, entry);
      if (!(entry.outcome instanceof Error)) {
        changedAt = Math.max(changedAt, entry.mtime);
        return entry.outcome;
      }
      skipped.push({ path, why: 'failed', reason: entry.outcome.message });
      return undefined;
    };
    for (const [index, file] of listed.entries()) {
      if (index >= maxFiles) {
        skipped.push({ path: file.path, why: 'tooMany' });
        continue;
      }
      const result = await readOne(file, parseExportFile);
      if (!result) continue;
      const definitions = file.segments ? await readOne(file.segments, parseSegmentsFile) : undefined;
      files.push({ path: file.path, result: definitions ? withDefinitions(result, definitions) : result });
    }
    this.parsed = next;
    return { files, skipped, changedAt };
  }

  /** One file's content, or why it is not what `parser` reads, parsed once however many readings ask for it. */
  private parse<T>(folder: ExportFolder, file: ListedFile, stat: { size: number; mtime: number }, slices: TimeSlices, parser: Parser<T>): Promise<Parsed<T>> {
    const id = `${stat.size}:${stat.mtime}:${file.key}`;
    let parsing = this.parsing.get(id) as Promise<Parsed<T>> | undefined;
    if (!parsing) {
      parsing = parseFile(folder, file, stat.size, slices, parser).then((outcome) => ({ ...stat, outcome }));
      this.parsing.set(id, parsing);
      const done = () => this.parsing.delete(id);
      parsing.then(done, done);
    }
    return parsing;
  }
}

/** Reads a file's bytes into what it holds (an export, a segments file), or throws why it cannot. */
type Parser<T> = (bytes: Uint8Array, slices: TimeSlices) => Promise<T>;

/** A file's content, or why it is not what `parser` reads; a file that grew past its listed size is refused. */
async function parseFile<T>(folder: ExportFolder, file: ListedFile, size: number, slices: TimeSlices, parser: Parser<T>): Promise<T | Error> {
  try {
    const bytes = await folder.read(file);
    if (bytes.length > size) return new Error(l10n.t('The file grew while it was read. Refresh once it is written.'));
    return await parser(bytes, slices);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** The export with the definitions of its segments file (they win over those of a file written with them inside). */
function withDefinitions(result: ExportFile['result'], definitions: SegmentDefinition[]): ExportFile['result'] {
  const byId = new Map((result.segmentDefinitions ?? []).map((definition) => [definition.id, definition]));
  for (const definition of definitions) byId.set(definition.id, definition);
  return { ...result, segmentDefinitions: [...byId.values()] };
}

/**
 * What the view says about the files left out: which, why and what to do, in one line of at most about 400
 * characters (the log names each file with its whole reason). Undefined when every file was read.
 */
export function skippedNote(skipped: readonly SkippedFile[], budget: ExportBudget = EXPORT_BUDGET): string | undefined {
  if (skipped.length === 0) return undefined;
  const megabytes = (bytes: number) => Math.floor(bytes / MIB);
  const paths = (why: SkippedFile['why']) => skipped.filter((file) => file.why === why).map((file) => file.path);
  const list = (values: string[], chars: number) => formatList(values, { maxItems: values.length, maxItem: chars, budget: chars });
  const tooMany = paths('tooMany').length;
  const tooLarge = paths('tooLarge');
  const overBudget = paths('overBudget');
  const failing = skipped.filter((file) => file.why === 'failed');
  // Each reason gets its share of the line, so that several failing files are all named.
  const reasonChars = Math.max(40, Math.floor(160 / failing.length));
  const failed = failing.map((file) => `${clean(file.path, 80)} (${clean(file.reason ?? '', reasonChars)})`);
  const groups = [
    failed.length > 0 && list(failed, 260),
    tooLarge.length > 0 && l10n.t('{0} (larger than {1} MB)', list(tooLarge, 80), megabytes(budget.maxFileBytes)),
    overBudget.length > 0 && l10n.t('{0} (past {1} MB for all files together)', list(overBudget, 80), megabytes(budget.maxTotalBytes)),
    tooMany > 0 && l10n.t('{0} files after the first {1}', tooMany, budget.maxFiles),
  ].filter((group): group is string => typeof group === 'string');
  return [
    l10n.t('Not read: {0}.', groups.join('; ')),
    skipped.some((file) => file.why !== 'failed') &&
      l10n.t('At most {0} files, {1} MB together, are read: move the others out of .unleash/.', budget.maxFiles, megabytes(budget.maxTotalBytes)),
    failed.length > 0 && l10n.t('Export the environment again, or remove the file.'),
  ]
    .filter((part): part is string => typeof part === 'string')
    .join(' ');
}

