/**
 * An export file as it enters (offline mode's source, the drift check's snapshot): parsed, held to the intake budget
 * and checked. Rows past the budget are cut before anything looks at them (a file of a million rows costs the check
 * of the flags budget's worth), and every cut is kept, so that the view names it.
 */
import type { ExportResult } from '../../api/exportSchemas';
import { INTAKE_BUDGET } from '../../base/intakeBudget';
import { CutLog, cutList, cutNested, type IntakeCut } from '../../base/intakeCuts';
import type { TimeSlices } from '../../base/timeSlices';
import { checkExport, parseExportJson } from './exportFile';
import { exportSnapshot, setFlagLines, type ExportedFlag } from './exportDrift';

/** What an export file holds within the budget, and what was cut to keep it there. */
export interface ExportIntake {
  result: ExportResult;
  cuts: IntakeCut[];
  /** How many cuts were made (`cuts` lists the first ones). */
  cutCount: number;
}

/** Reads an export file's bytes within the intake budget; throws InvalidExportFileError for a file that is no export. */
export async function takeExport(bytes: Uint8Array, slices: TimeSlices): Promise<ExportIntake> {
  const data = await parseExportJson(bytes, slices);
  const log = new CutLog();
  // Lengths first, so that the schema checks only rows that are kept.
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    for (const [key, value] of Object.entries(data)) {
      if (Array.isArray(value)) cutList(value, key, key === 'features' ? INTAKE_BUDGET.flags : INTAKE_BUDGET.rowsPerList, log);
    }
  }
  await checkExport(data, slices);
  const result = data as ExportResult;
  await cutProjectsPerName(result, slices, log);
  await cutNested(result as unknown as Record<string, unknown>, slices, log);
  return { result, cuts: log.cuts, cutCount: log.count };
}

/** The rows of a name past `projectsPerName` projects are left out (the first ones in the file stay). */
async function cutProjectsPerName(result: ExportResult, slices: TimeSlices, log: CutLog): Promise<void> {
  const max = INTAKE_BUDGET.projectsPerName;
  const counts = new Map<string, number>();
  let over = false;
  for (let i = 0; i < result.features.length; i++) {
    if (slices.due()) await slices.next();
    const name = (result.features[i] as { name: string }).name;
    const count = (counts.get(name) ?? 0) + 1;
    counts.set(name, count);
    if (count > max) over = true;
  }
  if (!over) return;
  const kept: ExportResult['features'] = [];
  const seen = new Map<string, number>();
  for (const feature of result.features) {
    if (slices.due()) await slices.next();
    const count = (seen.get(feature.name) ?? 0) + 1;
    seen.set(feature.name, count);
    if (count <= max) kept.push(feature);
  }
  for (const [name, total] of counts) if (total > max) log.add({ at: 'features', kind: 'projects', name, kept: max, total });
  result.features = kept;
}

/** What the drift check keeps of an export file: its flags' states in its environment, within the budget. */
export interface ExportSnapshotIntake {
  environment: string;
  whole: boolean;
  flags: ExportedFlag[];
  cuts: IntakeCut[];
  cutCount: number;
}

/** The drift check's snapshot of an export file named `fileName` (`development.json`: a whole environment). */
export async function takeExportSnapshot(bytes: Uint8Array, fileName: string, slices: TimeSlices): Promise<ExportSnapshotIntake> {
  const { result, cuts, cutCount } = await takeExport(bytes, slices);
  const snapshot = exportSnapshot(result, fileName);
  const flags = [...snapshot.flags];
  await setFlagLines(new TextDecoder().decode(bytes), flags, slices);
  return { environment: snapshot.environment, whole: snapshot.whole, flags, cuts, cutCount };
}
