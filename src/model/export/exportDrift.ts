/**
 * Drift between an export file of the workspace and the server, from what the Flags tree already has (no request):
 * each file kept as a small snapshot, compared with the catalog of the last refresh a map lookup per flag. Flags of
 * projects the listing does not cover are left out: the catalog cannot speak for them.
 */
import type { FeatureSummary } from '../../api/schemas';
import type { ExportResult } from '../../api/exportSchemas';
import type { Catalog } from '../store/catalog';
import { compare } from '../../base/compare';

export interface ExportedFlag {
  project: string;
  name: string;
  /** On in the file's environment. */
  enabled: boolean;
  /** The file says the flag is archived (an export names an archived flag only when asked for it by name). */
  archived: boolean;
}

/** What the check needs of one export file. */
export interface ExportSnapshot {
  environment: string;
  /** A file of all the flags of its environment (so a flag missing from it was added since). */
  whole: boolean;
  /** Each flag once (by project and name), in the file's order. */
  flags: readonly ExportedFlag[];
  /** The projects of each name in the file: what a check looks up for every listed flag. */
  projects: ReadonlyMap<string, readonly string[]>;
}

/** The flags of an export result, keyed by project and name, with their state in its environment. */
export function exportSnapshot(result: ExportResult, environment: string, whole: boolean): ExportSnapshot {
  const enabled = new Map<string, boolean>();
  for (const env of result.featureEnvironments ?? []) {
    const name = env.featureName ?? env.name;
    if (env.environment === undefined || env.environment === environment) enabled.set(name, env.enabled === true);
  }
  const flags: ExportedFlag[] = [];
  const projects = new Map<string, string[]>();
  for (const feature of result.features) {
    const project = feature.project ?? 'default';
    const known = projects.get(feature.name);
    if (known?.includes(project)) continue;
    if (known) known.push(project);
    else projects.set(feature.name, [project]);
    flags.push({ project, name: feature.name, enabled: enabled.get(feature.name) === true, archived: feature.archived === true });
  }
  return { environment, whole, flags, projects };
}

export interface DriftFlag {
  project: string;
  name: string;
}

export interface Drift {
  /** Listed but not in the file; only for a file of a whole environment (part of one cannot say what it should hold). */
  added: DriftFlag[];
  /** In the file, not listed any more (archived or deleted: the listing leaves archived flags out). */
  removed: DriftFlag[];
  /** Listed, and on or off in the file's environment where the file says the opposite. */
  enabled: DriftFlag[];
  disabled: DriftFlag[];
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

/** The changes since the file was written, each list sorted by name then project. */
export function exportDrift(snapshot: ExportSnapshot, catalog: Catalog, scope: DriftScope): Drift {
  const everyProject = scope.projects === undefined && scope.failed.size === 0;
  const covered = (project: string) => everyProject || (!scope.failed.has(project) && (scope.projects === undefined || scope.projects.has(project)));
  const drift: Drift = { added: [], removed: [], enabled: [], disabled: [] };
  for (const flag of snapshot.flags) {
    if (!covered(flag.project)) continue;
    const listed = listedFlag(catalog.byName(flag.name), flag.project);
    if (listed === undefined) {
      if (!flag.archived) drift.removed.push(flag);
      continue;
    }
    const state = stateIn(listed, snapshot.environment);
    if (state === true && !flag.enabled) drift.enabled.push(flag);
    if (state === false && flag.enabled) drift.disabled.push(flag);
  }
  if (snapshot.whole) {
    for (const listed of catalog.flags) {
      const project = listed.project ?? 'default';
      if (covered(project) && !snapshot.projects.get(listed.name)?.includes(project)) drift.added.push({ project, name: listed.name });
    }
  }
  for (const list of [drift.added, drift.removed, drift.enabled, drift.disabled]) list.sort((a, b) => compare(a.name, b.name) || compare(a.project, b.project));
  return drift;
}

/** The listed flag of this name in `project` (a listing row without a project is in `default`). */
function listedFlag(named: readonly FeatureSummary[], project: string): FeatureSummary | undefined {
  for (const flag of named) if ((flag.project ?? 'default') === project) return flag;
  return undefined;
}

/** Whether the listed flag is on in `environment`; undefined when the listing does not say (no such environment). */
function stateIn(flag: FeatureSummary, environment: string): boolean | undefined {
  for (const env of flag.environments ?? []) if (env.name === environment) return env.enabled;
  return undefined;
}

/**
 * The line (0-based) of each flag's entry in an export file's text: the first `"name": "<flag>"` (the `features`
 * list comes first in the layout this extension writes). Flags not found are left out. One search per flag and one
 * pass over the text up to the last one found.
 */
export function flagLines(text: string, names: readonly string[]): Map<string, number> {
  const found: Array<[string, number]> = [];
  for (const name of new Set(names)) {
    const at = text.indexOf(`"name": ${JSON.stringify(name)}`);
    if (at >= 0) found.push([name, at]);
  }
  found.sort((a, b) => a[1] - b[1]);
  const lines = new Map<string, number>();
  let line = 0;
  let from = 0;
  for (const [name, at] of found) {
    for (let i = text.indexOf('\n', from); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) line++;
    from = at;
    lines.set(name, line);
  }
  return lines;
}
