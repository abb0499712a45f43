/**
 * Drift between an export file of the workspace and the server, from what the Flags tree already has (no request):
 * each file kept as a small snapshot (exportIntake.ts makes it off the extension host's thread), compared with the
 * catalog of the last refresh a map lookup per flag, in time slices. Flags of projects the listing does not cover are
 * left out: the catalog cannot speak for them.
 */
import type { FeatureSummary } from '../../api/schemas';
import type { ExportResult } from '../../api/exportSchemas';
import { compare } from '../../base/compare';
import { eachInSlices, type TimeSlices } from '../../base/timeSlices';
import type { Catalog } from '../store/catalog';
import { exportEnvironment } from './exportEnvironment';

export interface ExportedFlag {
  project: string;
  name: string;
  /** On in the file's environment. */
  enabled: boolean;
  /** The file says the flag is archived (an export names an archived flag only when asked for it by name). */
  archived: boolean;
  /** The line (0-based) of its entry in the file's text, when known (exportIntake.ts finds it). */
  line?: number;
}

/** What the check needs of one export file. */
export interface ExportSnapshot {
  environment: string;
  /** A file of all the flags of its environment (so a flag missing from it was added since). */
  whole: boolean;
  /** Each flag once (by project and name), in the file's order. */
  flags: readonly ExportedFlag[];
}

/**
 * The flags of an export result named `fileName`, each once by project and name, with their state in its
 * environment: the file's own, else the name's (`development.json`). A file named after its environment holds it whole.
 */
export function exportSnapshot(result: ExportResult, fileName: string): ExportSnapshot {
  const environment = exportEnvironment(result, fileName);
  const enabled = new Map<string, boolean>();
  for (const env of result.featureEnvironments ?? []) {
    const name = env.featureName ?? env.name;
    if (env.environment === undefined || env.environment === environment) enabled.set(name, env.enabled === true);
  }
  const flags: ExportedFlag[] = [];
  const seen = new Set<string>();
  for (const feature of result.features) {
    const project = feature.project ?? 'default';
    const key = `${project}\u0000${feature.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    flags.push({ project, name: feature.name, enabled: enabled.get(feature.name) === true, archived: feature.archived === true });
  }
  return { environment, whole: fileName === `${environment}.json`, flags };
}

export interface DriftFlag {
  project: string;
  name: string;
}

export interface Drift {
  /** Listed but not in the file; only for a file of a whole environment (part of one cannot say what it should hold). */
  added: DriftFlag[];
  /** In the file, not listed any more (archived or deleted: the listing leaves archived flags out). */
  removed: ExportedFlag[];
  /** Listed, and on or off in the file's environment where the file says the opposite. */
  enabled: ExportedFlag[];
  disabled: ExportedFlag[];
}

interface DriftScope {
  /** Projects the listing covers; undefined when it lists every project. */
  projects?: ReadonlySet<string>;
  /** Projects whose flags the listing could not read. */
  failed: ReadonlySet<string>;
}

/** How many changes a drift holds. */
export function driftCount(drift: Drift): number {
  return drift.added.length + drift.removed.length + drift.enabled.length + drift.disabled.length;
}

/** The changes since the file was written, each list sorted by name then project; linear in file and catalog. */
export async function exportDrift(snapshot: ExportSnapshot, catalog: Catalog, scope: DriftScope, slices: TimeSlices): Promise<Drift> {
  const everyProject = scope.projects === undefined && scope.failed.size === 0;
  const covered = (project: string) => everyProject || (!scope.failed.has(project) && (scope.projects === undefined || scope.projects.has(project)));
  const drift: Drift = { added: [], removed: [], enabled: [], disabled: [] };
  const inFile = new Set<string>();
  await eachInSlices(snapshot.flags, slices, (flag) => {
    inFile.add(`${flag.project}\u0000${flag.name}`);
    if (!covered(flag.project)) return;
    const listed = catalog.get(flag.project, flag.name) ?? (flag.project === 'default' ? catalog.get('', flag.name) : undefined);
    if (listed === undefined) {
      if (!flag.archived) drift.removed.push(flag);
      return;
    }
    const state = stateIn(listed, snapshot.environment);
    if (state === true && !flag.enabled) drift.enabled.push(flag);
    if (state === false && flag.enabled) drift.disabled.push(flag);
  });
  if (snapshot.whole) {
    await eachInSlices(catalog.flags, slices, (listed) => {
      const project = listed.project ?? 'default';
      if (covered(project) && !inFile.has(`${project}\u0000${listed.name}`)) drift.added.push({ project, name: listed.name });
    });
  }
  const byName = (a: DriftFlag, b: DriftFlag) => compare(a.name, b.name) || compare(a.project, b.project);
  for (const list of [drift.added, drift.removed, drift.enabled, drift.disabled] as DriftFlag[][]) {
    if (slices.due()) await slices.next();
    list.sort(byName);
  }
  return drift;
}

/** Whether the listed flag is on in `environment`; undefined when the listing does not say (no such environment). */
function stateIn(flag: FeatureSummary, environment: string): boolean | undefined {
  for (const env of flag.environments ?? []) if (env.name === environment) return env.enabled;
  return undefined;
}

/**
 * Sets each flag's `line`: the line (0-based) of the first `"name": "<flag>"` of the file's text (the `features` list
 * comes first in the layout this extension writes). One pass over the text, whatever the number of flags.
 */
export async function setFlagLines(text: string, flags: readonly ExportedFlag[], slices: TimeSlices): Promise<void> {
  const wanted = new Map<string, ExportedFlag[]>();
  for (const flag of flags) {
    const list = wanted.get(flag.name);
    if (list) list.push(flag);
    else wanted.set(flag.name, [flag]);
  }
  const marker = '"name": "';
  let line = 0;
  let counted = 0;
  for (let at = text.indexOf(marker); at >= 0 && wanted.size > 0; at = text.indexOf(marker, at + marker.length)) {
    if (slices.due()) await slices.next();
    const start = at + marker.length - 1;
    const end = stringEnd(text, start);
    if (end < 0) break;
    let name: unknown;
    try {
      name = JSON.parse(text.slice(start, end + 1));
    } catch {
      continue;
    }
    const named = typeof name === 'string' ? wanted.get(name) : undefined;
    if (!named) continue;
    for (let i = text.indexOf('\n', counted); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) line++;
    counted = at;
    for (const flag of named) flag.line = line;
    wanted.delete(name as string);
  }
}

/** The index of the quote that closes the JSON string opening at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) return i;
    else if (c === 0x0a) return -1;
  }
  return -1;
}
