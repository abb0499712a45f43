/**
 * The extension's export files (exportResultSchema, already read within the intake budget by offline mode) turned into
 * the engine's model: each file is one environment (exportEnvironment), its `featureEnvironments` say whether a flag
 * is on there and its variants, its `featureStrategies` the strategies, `dependencies` the parents, and the segments
 * are those `segmentDefinitions` (the `.segments` file) define, or only named by `segments` when it is missing. A flag
 * in several files of one environment comes from the file that sorts last by path, as in offline mode.
 */
import type { ExportResult } from '../../api/exportSchemas';
import type { Strategy } from '../../api/schemas';
import { compare } from '../../base/compare';
import { exportEnvironment } from '../export/exportEnvironment';
import type { EvaluationModel, FlagEnvironmentModel, FlagModel, ParentRequirement, SegmentModel } from './model';
import { segmentModel, strategyModel, variantModel } from './schemaModel';

/** An export file as offline mode holds it (store/offlineFiles.ts `ExportFile`). */
interface ExportInput {
  readonly path: string;
  readonly result: ExportResult;
}

interface FlagBuilder {
  name: string;
  dependencies: readonly ParentRequirement[];
  environments: Map<string, FlagEnvironmentModel>;
}

/** The strategies in the server's order when every one has a sortOrder; otherwise as the file lists them. */
function ordered(strategies: readonly Strategy[]): { strategies: readonly Strategy[]; known: boolean } {
  if (strategies.length <= 1) return { strategies, known: true };
  if (!strategies.every((strategy) => typeof strategy.sortOrder === 'number')) return { strategies, known: false };
  return { strategies: [...strategies].sort((a, b) => (a.sortOrder as number) - (b.sortOrder as number)), known: true };
}

function group<T>(rows: readonly T[] | undefined, key: (row: T) => string | undefined): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows ?? []) {
    const name = key(row);
    if (name === undefined) continue;
    const list = groups.get(name);
    if (list) list.push(row);
    else groups.set(name, [row]);
  }
  return groups;
}

export function modelOfExports(files: readonly ExportInput[]): EvaluationModel {
  const flags = new Map<string, FlagBuilder>();
  const segments = new Map<number, SegmentModel>();
  const environments = new Set<string>();
  for (const file of [...files].sort((a, b) => compare(a.path, b.path))) {
    const { result } = file;
    const environment = exportEnvironment(result, file.path);
    environments.add(environment);
    const states = new Map((result.featureEnvironments ?? []).filter((state) => (state.environment ?? environment) === environment).map((state) => [state.featureName ?? state.name, state]));
    const strategies = group(result.featureStrategies, (strategy) => strategy.featureName);
    const parents = new Map((result.dependencies ?? []).map((entry) => [entry.feature, entry.dependencies]));
    const seen = new Set<string>();
    for (const feature of result.features) {
      if (seen.has(feature.name)) continue;
      seen.add(feature.name);
      let flag = flags.get(feature.name);
      if (!flag) flags.set(feature.name, (flag = { name: feature.name, dependencies: [], environments: new Map() }));
      const state = states.get(feature.name);
      const order = ordered(strategies.get(feature.name) ?? []);
      flag.environments.set(environment, {
        enabled: state?.enabled ?? false,
        strategies: order.strategies.map(strategyModel),
        variants: (state?.variants ?? feature.variants ?? []).map(variantModel),
        strategyOrderKnown: order.known,
      });
      const required = parents.get(feature.name) ?? feature.dependencies;
      if (required) flag.dependencies = required.map((parent) => ({ feature: parent.feature, enabled: parent.enabled !== false, variants: parent.variants ?? [] }));
    }
    for (const named of result.segments ?? []) {
      if (!segments.get(named.id)?.constraints) segments.set(named.id, { id: named.id, name: named.name, constraints: undefined });
    }
    for (const definition of result.segmentDefinitions ?? []) segments.set(definition.id, segmentModel(definition));
  }
  return { flags: flags as ReadonlyMap<string, FlagModel>, segments, environments: [...environments].sort(compare) };
}
