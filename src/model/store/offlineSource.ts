/**
 * The offline mode: a FlagSource built from export files, so that the tree and hovers work with no server. A flag in
 * several files shows once, from the file that sorts last. The files come from a cloned repository: every index is
 * built in one pass over each list, and what a list gives a name is one array shared by every row of that name, so
 * that repeated rows, a name in many projects or one parent of many flags never cost rows × rows.
 */
import * as l10n from '@vscode/l10n';
import { joinValues } from '../text/intl';
import type {
  Feature,
  FeatureEnvironment,
  FeatureSummary,
  ParentDependency,
  Segment,
  Strategy,
  Tag,
} from '../../api/schemas';
import type { ExportResult } from '../../api/exportSchemas';
import type { SegmentDefinition } from '../../api/schemas';
import type { ExportIntake } from '../export/exportIntake';
import type { ExportFiles } from './offlineFiles';
import { eachInSlices as each, TimeSlices } from '../../base/timeSlices';
import { flagKey } from './catalog';
import type { FlagSource } from './flagSource';
import { compare } from '../../base/compare';
import { INTAKE_BUDGET } from '../../base/intakeBudget';
import { exportEnvironment } from '../export/exportEnvironment';

/** Marks a segment that an export file names without its definition (files written before `segmentDefinitions`). */
const DEFINITION_MISSING = 'definitionNotInFile';

/** True for a segment read from an export file that does not hold its constraints. */
export function segmentDefinitionMissing(segment: Segment): boolean {
  return (segment as Record<string, unknown>)[DEFINITION_MISSING] === true;
}

interface ExportFile {
  /** Workspace-relative path, for the source's label. */
  path: string;
  result: ExportResult;
}

/** The segments one file names, each built once, when a strategy that uses it is first read. */
class FileSegments {
  private readonly names: Map<number, string>;
  private readonly definitions: Map<number, NonNullable<ExportResult['segmentDefinitions']>[number]>;
  private readonly built = new Map<number, Segment>();

  constructor(result: ExportResult) {
    this.names = new Map((result.segments ?? []).map((segment) => [segment.id, segment.name]));
    this.definitions = new Map((result.segmentDefinitions ?? []).map((segment) => [segment.id, segment]));
  }

  get(id: number): Segment {
    let segment = this.built.get(id);
    if (!segment) {
      const definition = this.definitions.get(id);
      segment = definition
        ? { ...definition, createdAt: '' }
        : { id, name: this.names.get(id) ?? `segment ${id}`, constraints: [], createdAt: '', [DEFINITION_MISSING]: true };
      this.built.set(id, segment);
    }
    return segment;
  }
}

/** What one file says about each flag name, by name: a flag's details are built from it when the flag is read. */
class FileIndex {
  /** The flags the file lists (by `flagKey`). */
  readonly flags = new Set<string>();
  readonly strategies = new Map<string, Strategy[]>();
  readonly strategiesById = new Map<string, Strategy>();
  readonly states = new Map<string, NonNullable<ExportResult['featureEnvironments']>[number]>();
  readonly dependencies = new Map<string, ParentDependency[]>();
  readonly links = new Map<string, NonNullable<Feature['links']>>();
  /** The parents of a name that lists many, as a set. */
  readonly parentSets = new Map<string, Set<string>>();

  constructor(
    readonly environment: string,
    readonly segments: FileSegments,
  ) {}

  /** Whether the file lists `parent` among the parents of the flags named `name`. */
  dependsOn(name: string, parent: string): boolean {
    const many = this.parentSets.get(name);
    return many ? many.has(parent) : (this.dependencies.get(name) ?? []).some((dependency) => dependency.feature === parent);
  }

  /** The flag's environment as this file holds it. */
  environmentOf(name: string): FeatureEnvironment {
    const state = this.states.get(name);
    return {
      name: this.environment,
      environment: this.environment,
      enabled: state?.enabled ?? false,
      variants: state?.variants ?? [],
      strategies: this.strategies.get(name) ?? [],
    };
  }
}

export class OfflineSource implements FlagSource {
  readonly kind = 'files' as const;
  readonly label: string;
  /** How many export files were read (the status bar says "offline: N export files"). */
  readonly fileCount: number;
  private readonly summaries = new Map<string, FeatureSummary>();
  /** The files, in the order they are read (by path). */
  private readonly files: FileIndex[] = [];
  /** Each name's projects. */
  private readonly projects = new Map<string, string[]>();
  /** Each parent name: the names of flags that depend on it, in some project (a child is in its parent's project). */
  private readonly childNames = new Map<string, Set<string>>();
  /** Each parent name's children by project, made when a flag of that name is first read. */
  private readonly children = new Map<string, Map<string, string[]>>();
  private readonly environmentNames: string[];
  /** Rows left out to keep the files together within the intake budget (flags, projects per name). */
  private leftOut = 0;

  /**
   * The source of these files, indexed in slices (a yield to the event loop whenever one is used up). `note`: the
   * export files that were not read, and why (offlineFiles.ts); the view shows it.
   */
  static async read(files: readonly ExportFile[], options: { note?: string; slices?: TimeSlices } = {}): Promise<OfflineSource> {
    const source = new OfflineSource(files, options.note);
    const slices = options.slices ?? new TimeSlices();
    for (const file of [...files].sort((a, b) => compare(a.path, b.path))) await source.add(environmentOf(file), file.result, slices);
    return source;
  }

  /** What the view says about the files: those not read, the cuts, and the rows left out of the files together. */
  get listingNote(): string | undefined {
    const together =
      this.leftOut > 0
        ? l10n.t('Showing {0} flags of the export files together; {1} more rows are left out (at most {2} projects per flag name).',
            this.summaries.size.toLocaleString('en-US'), this.leftOut.toLocaleString('en-US'), INTAKE_BUDGET.projectsPerName.toLocaleString('en-US'))
        : undefined;
    return [this.note, together].filter((part) => part !== undefined).join(' ') || undefined;
  }

  private constructor(files: readonly ExportFile[], private readonly note: string | undefined) {
    this.label = files.length ? joinValues(files.map((file) => file.path).sort(compare)) : l10n.t('no export files');
    this.fileCount = files.length;
    this.environmentNames = [...new Set(files.map(environmentOf))].sort(compare);
  }

  async listFeatures(): Promise<FeatureSummary[]> {
    return [...this.summaries.values()];
  }

  /**
   * A flag's details: its row from the first file that lists it (with that file's parents and links), each
   * environment from the last file that holds it, the tags of all, and the flags of its project that depend on it.
   */
  async getFeature(project: string, name: string): Promise<Feature> {
    const key = flagKey(project, name);
    const summary = this.summaries.get(key);
    if (!summary) throw new Error(l10n.t('No flag named "{0}" in project "{1}" in the export files.', name, project));
    const holding = this.files.filter((file) => file.flags.has(key));
    const environments = new Map(holding.map((file) => [file.environment, file.environmentOf(name)]));
    const feature: Feature = { ...summary };
    feature.environments = [...environments.values()].sort((a, b) => compare(a.name, b.name));
    feature.dependencies = holding[0]?.dependencies.get(name) ?? [];
    feature.links = holding[0]?.links.get(name) ?? [];
    const children = (await this.childrenOf(name)).get(project);
    if (children) feature.children = children;
    return feature;
  }

  async getStrategySegments(strategyId: string): Promise<Segment[]> {
    // The last file that holds the strategy.
    for (let i = this.files.length - 1; i >= 0; i--) {
      const file = this.files[i] as FileIndex;
      const strategy = file.strategiesById.get(strategyId);
      if (!strategy) continue;
      const segments: Segment[] = [];
      await each(strategy.segments ?? [], new TimeSlices(), (id) => segments.push(file.segments.get(id)));
      return segments;
    }
    return [];
  }

  async listEnvironments(): Promise<string[]> {
    return this.environmentNames;
  }

  /**
   * The flags that depend on a parent name, by project, sorted: a flag of the parent's project whose details list it
   * (the parents of the first file that lists the flag). Each child name is matched against the fewer of its own
   * projects and the parent's, so a name in thousands of projects costs what the rows hold, once.
   */
  private async childrenOf(parent: string): Promise<Map<string, string[]>> {
    const known = this.children.get(parent);
    if (known) return known;
    const byProject = new Map<string, string[]>();
    const parentProjects = this.projects.get(parent) ?? [];
    await each([...(this.childNames.get(parent) ?? [])], new TimeSlices(), (child) => {
      const childProjects = this.projects.get(child) ?? [];
      const [few, other] = childProjects.length <= parentProjects.length ? [childProjects, parent] : [parentProjects, child];
      for (const project of few) {
        if (!this.summaries.has(flagKey(project, other))) continue;
        const key = flagKey(project, child);
        if (!this.files.find((file) => file.flags.has(key))?.dependsOn(child, parent)) continue;
        const list = byProject.get(project);
        if (list) list.push(child);
        else byProject.set(project, [child]);
      }
    });
    for (const list of byProject.values()) list.sort(compare);
    this.children.set(parent, byProject);
    return byProject;
  }

  private async add(environment: string, result: ExportResult, slices: TimeSlices): Promise<void> {
    const file = new FileIndex(environment, new FileSegments(result));
    this.files.push(file);
    const fileNumber = this.files.length;
    await each(result.featureStrategies, slices, (strategy) => {
      const name = strategy.featureName ?? '';
      const list = file.strategies.get(name);
      if (list) list.push(strategy);
      else file.strategies.set(name, [strategy]);
      // The extension's exports leave out the ids a server assigns: each strategy gets one of this source's own, by
      // which the tree and the details ask for its segments.
      strategy.id ||= `offline-${fileNumber}-${file.strategiesById.size}`;
      file.strategiesById.set(strategy.id, strategy);
    });
    await each(result.featureEnvironments ?? [], slices, (env) => file.states.set(env.featureName ?? env.name, env));
    for (const dep of result.dependencies ?? []) {
      if (slices.due()) await slices.next();
      file.dependencies.set(dep.feature, dep.dependencies);
      const many = dep.dependencies.length > MANY_PARENTS ? new Set<string>() : undefined;
      if (many) file.parentSets.set(dep.feature, many);
      else file.parentSets.delete(dep.feature);
      // Every name that lists a parent; getFeature keeps those whose flag in the parent's project does.
      await each(dep.dependencies, slices, (parent) => {
        many?.add(parent.feature);
        const names = this.childNames.get(parent.feature);
        if (names) names.add(dep.feature);
        else this.childNames.set(parent.feature, new Set([dep.feature]));
      });
    }
    await each(result.links ?? [], slices, (entry) => file.links.set(entry.feature, entry.links));
    // Each name's tags, each `type:value` once (a file may repeat a row).
    const tagMaps = new Map<string, Map<string, Tag>>();
    await each(result.featureTags ?? [], slices, (row) => {
      const tag = { type: row.tagType ?? row.type ?? '', value: row.tagValue };
      let tags = tagMaps.get(row.featureName);
      if (!tags) tagMaps.set(row.featureName, (tags = new Map()));
      tags.set(`${tag.type}:${tag.value}`, tag);
    });
    const tags = new Map<string, Tag[]>();
    await each([...tagMaps], slices, ([name, byKey]) => tags.set(name, [...byKey.values()]));
    // A flag's tags from an earlier file and this one's, merged once per pair of lists (flags of one name share both).
    const merged = new Map<readonly Tag[], Tag[]>();
    const mergeTags = (earlier: Tag[], added: Tag[]): Tag[] => {
      if (added.length === 0) return earlier;
      if (earlier.length === 0) return added;
      let both = merged.get(earlier);
      if (!both) merged.set(earlier, (both = uniqueTags([earlier, added])));
      return both;
    };

    await each(result.features, slices, (exported) => {
      const key = flagKey(exported.project, exported.name);
      // A repeated row names the same flag, environment, strategies and tags again: it adds nothing.
      if (file.flags.has(key)) return;
      file.flags.add(key);
      const earlier = this.summaries.get(key);
      if (!earlier && (this.summaries.size >= INTAKE_BUDGET.flags || (this.projects.get(exported.name)?.length ?? 0) >= INTAKE_BUDGET.projectsPerName)) {
        this.leftOut++;
        return;
      }
      // The two lists before the row's fields, and set after them: an object spread first and extended after takes
      // four times the memory (V8 gives each such object its own shape).
      const summary = earlier ?? { environments: [], tags: NO_TAGS, ...exported };
      summary.environments = [
        ...(earlier?.environments ?? []).filter((env) => env.name !== environment),
        { name: environment, enabled: file.states.get(exported.name)?.enabled ?? false },
      ];
      summary.tags = mergeTags(earlier?.tags ?? NO_TAGS, tags.get(exported.name) ?? NO_TAGS);
      if (earlier) return;
      this.summaries.set(key, summary);
      const projects = this.projects.get(exported.name);
      if (projects) projects.push(exported.project ?? '');
      else this.projects.set(exported.name, [exported.project ?? '']);
    });
  }
}

/** Past this many parents, a name's parents are also kept as a set (children are matched against it). */
const MANY_PARENTS = 16;

/** Shared by flags without tags (never changed: merging makes a new list). */
const NO_TAGS = Object.freeze([]) as unknown as Tag[];

/** The tags of several lists, each `type:value` once, in the order first seen. */
function uniqueTags(lists: ReadonlyArray<readonly Tag[]>): Tag[] {
  const seen = new Map<string, Tag>();
  for (const list of lists) for (const tag of list) seen.set(`${tag.type}:${tag.value}`, tag);
  return [...seen.values()];
}

/** The export files as offline mode reads them (offlineFiles.ts), each with its segments file's definitions. */
export function offlineExports(read: ExportFiles<ExportIntake>): ExportFile[] {
  return read.files.map((file) => ({
    path: file.path,
    result: file.segments ? withDefinitions(file.value.result, file.segments.definitions) : file.value.result,
  }));
}

/** The export with the definitions of its segments file (they win over those of a file written with them inside). */
function withDefinitions(result: ExportResult, definitions: readonly SegmentDefinition[]): ExportResult {
  const byId = new Map((result.segmentDefinitions ?? []).map((definition) => [definition.id, definition]));
  for (const definition of definitions) byId.set(definition.id, definition);
  return { ...result, segmentDefinitions: [...byId.values()] };
}

/** The environment of an export file (exportEnvironment.ts). */
function environmentOf(file: ExportFile): string {
  return exportEnvironment(file.result, file.path);
}
