/**
 * The offline mode: a FlagSource built from export files, so that the tree and hovers work with no server. Several
 * files may hold the same environment (a whole export and partial ones); a flag in two of them shows once, from the
 * file that sorts last. Segments show with their constraints when the file holds their definitions (exports written
 * by this extension); older files name segments only, and that is said where segments show.
 */
import * as l10n from '@vscode/l10n';
import { joinValues } from './intl';
import type { ExportResult, Feature, FeatureEnvironment, FeatureSummary, Segment, Strategy } from '../api/schemas';
import { compare, flagKey } from './catalog';
import type { FlagSource } from './flagSource';

/** Marks a segment that an export file names without its definition (files written before `segmentDefinitions`). */
const DEFINITION_MISSING = 'definitionNotInFile';

/** True for a segment read from an export file that does not hold its constraints. */
export function segmentDefinitionMissing(segment: Segment): boolean {
  return (segment as Record<string, unknown>)[DEFINITION_MISSING] === true;
}

export interface ExportFile {
  /** Workspace-relative path, for the source's label. */
  path: string;
  result: ExportResult;
}

export class OfflineSource implements FlagSource {
  readonly kind = 'files' as const;
  readonly label: string;
  /** How many export files were read (the status bar says "offline: N export files"). */
  readonly fileCount: number;
  private readonly summaries = new Map<string, FeatureSummary>();
  private readonly details = new Map<string, Feature>();
  private readonly strategySegments = new Map<string, Segment[]>();
  private readonly environmentNames: string[];

  constructor(files: readonly ExportFile[]) {
    this.label = files.length ? joinValues(files.map((file) => file.path).sort(compare)) : l10n.t('no export files');
    this.fileCount = files.length;
    const environments = new Set<string>();
    for (const file of [...files].sort((a, b) => compare(a.path, b.path))) {
      const environment = environmentOf(file);
      environments.add(environment);
      this.add(environment, file.result);
    }
    this.environmentNames = [...environments].sort(compare);
    this.linkChildren();
  }

  async listFeatures(): Promise<FeatureSummary[]> {
    return [...this.summaries.values()];
  }

  async getFeature(project: string, name: string): Promise<Feature> {
    const feature = this.details.get(flagKey(project, name));
    if (!feature) throw new Error(l10n.t('No flag named "{0}" in project "{1}" in the export files.', name, project));
    return feature;
  }

  async getStrategySegments(strategyId: string): Promise<Segment[]> {
    return this.strategySegments.get(strategyId) ?? [];
  }

  async listEnvironments(): Promise<string[]> {
    return this.environmentNames;
  }

  private add(environment: string, result: ExportResult): void {
    const segmentNames = new Map((result.segments ?? []).map((segment) => [segment.id, segment.name]));
    const definitions = new Map((result.segmentDefinitions ?? []).map((segment) => [segment.id, segment]));
    const byFeature = new Map<string, Strategy[]>();
    for (const strategy of result.featureStrategies) {
      const list = byFeature.get(strategy.featureName ?? '') ?? [];
      list.push(strategy);
      byFeature.set(strategy.featureName ?? '', list);
      if (strategy.id) {
        this.strategySegments.set(
          strategy.id,
          (strategy.segments ?? []).map((id): Segment => {
            const definition = definitions.get(id);
            if (definition) return { ...definition, createdAt: '' };
            return {
              id,
              name: segmentNames.get(id) ?? `segment ${id}`,
              constraints: [],
              createdAt: '',
              [DEFINITION_MISSING]: true,
            };
          }),
        );
      }
    }
    const states = new Map((result.featureEnvironments ?? []).map((env) => [env.featureName ?? env.name, env]));
    const dependencies = new Map((result.dependencies ?? []).map((dep) => [dep.feature, dep.dependencies]));
    const links = new Map((result.links ?? []).map((entry) => [entry.feature, entry.links]));
    // One pass over the tags, indexed by flag name: a lookup per flag, not a scan (flags × tags was quadratic).
    const tagsByFeature = new Map<string, Array<{ type: string; value: string }>>();
    for (const tag of result.featureTags ?? []) {
      const list = tagsByFeature.get(tag.featureName) ?? [];
      list.push({ type: tag.tagType ?? tag.type ?? '', value: tag.tagValue });
      tagsByFeature.set(tag.featureName, list);
    }

    for (const exported of result.features) {
      const key = flagKey(exported.project, exported.name);
      const state = states.get(exported.name);
      const environmentEntry: FeatureEnvironment = {
        name: environment,
        environment,
        enabled: state?.enabled ?? false,
        variants: state?.variants ?? [],
        strategies: byFeature.get(exported.name) ?? [],
      };
      const tags = tagsByFeature.get(exported.name) ?? [];

      const summary = this.summaries.get(key) ?? { ...exported, environments: [], tags: [] };
      summary.environments = [
        ...(summary.environments ?? []).filter((env) => env.name !== environment),
        { name: environment, enabled: environmentEntry.enabled },
      ];
      summary.tags = mergeTags(summary.tags ?? [], tags);
      this.summaries.set(key, summary);

      const detail = this.details.get(key) ?? {
        ...exported,
        environments: [],
        tags: [],
        dependencies: dependencies.get(exported.name) ?? [],
        links: links.get(exported.name) ?? [],
      };
      detail.environments = [...(detail.environments ?? []).filter((env) => env.name !== environment), environmentEntry].sort(
        (a, b) => compare(a.name, b.name),
      );
      detail.tags = mergeTags(detail.tags ?? [], tags);
      this.details.set(key, detail);
    }
  }

  /** Export files list each child's parents; a feature read from a server also lists its children. */
  private linkChildren(): void {
    for (const feature of this.details.values()) {
      for (const parent of feature.dependencies ?? []) {
        const parentFeature = this.details.get(flagKey(feature.project, parent.feature));
        if (parentFeature) parentFeature.children = [...new Set([...(parentFeature.children ?? []), feature.name])].sort(compare);
      }
    }
  }
}

/** The environment an export holds: from its feature environments, else the file name (`.unleash/<env>.json`). */
export function environmentOf(file: ExportFile): string {
  const named = file.result.featureEnvironments?.find((env) => env.environment)?.environment;
  if (named) return named;
  const base = file.path.split(/[\\/]/).pop() ?? file.path;
  return base.replace(/\.json$/i, '');
}

function mergeTags<T extends { type: string; value: string }>(a: T[], b: T[]): T[] {
  const seen = new Map<string, T>();
  for (const tag of [...a, ...b]) seen.set(`${tag.type}:${tag.value}`, tag);
  return [...seen.values()];
}
