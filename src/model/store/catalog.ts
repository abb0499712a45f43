/**
 * The catalog: every flag a listing returned, sorted, and indexed by name and by project and name for O(1) lookups
 * from hovers, the tree and the quick pick. A name can exist in several projects, so lookups by name answer a list.
 * The store builds it in time slices (`Catalog.build`), indexes included, so that a catalog of 100,000 flags never
 * blocks the editor and every lookup after answers from memory.
 */
import type { FeatureSummary } from '../../api/schemas';
import { FlagNameIndex } from '../code/flagNameIndex';
import { isValidFlagName } from '../code/flagNameRule';
import { compare } from '../../base/compare';
import { sortInSlices } from '../../base/sortInSlices';
import { eachInSlices, type TimeSlices } from '../../base/timeSlices';

/** What a catalog holds beside its flags, built once. */
interface Indexes {
  byName: Map<string, FeatureSummary[]>;
  byKey: Map<string, FeatureSummary>;
  invalidNames: number;
  projects: string[];
  environments: string[];
  nameIndex: FlagNameIndex;
}

const byNameThenProject = (a: FeatureSummary, b: FeatureSummary) => compare(a.name, b.name) || compare(a.project ?? '', b.project ?? '');

export class Catalog {
  static readonly empty = new Catalog([]);

  readonly flags: readonly FeatureSummary[];
  private readonly indexes: Indexes;

  /** A catalog built at once (small lists, tests); the store builds its own with `Catalog.build`. */
  constructor(features: readonly FeatureSummary[], built?: { flags: readonly FeatureSummary[]; indexes: Indexes }) {
    if (built) {
      this.flags = built.flags;
      this.indexes = built.indexes;
      return;
    }
    this.flags = [...features].sort(byNameThenProject);
    const indexes = emptyIndexes();
    for (const flag of this.flags) addFlag(indexes, flag);
    this.indexes = finish(indexes, new FlagNameIndex(indexes.byName.keys()));
  }

  /** The catalog of `features`, sorted and indexed in time slices. */
  static async build(features: readonly FeatureSummary[], slices: TimeSlices): Promise<Catalog> {
    const flags = await sortInSlices([...features], byNameThenProject, slices);
    const indexes = emptyIndexes();
    await eachInSlices(flags, slices, (flag) => addFlag(indexes, flag));
    const nameIndex = await FlagNameIndex.build(indexes.byName.keys(), slices);
    return new Catalog(flags, { flags, indexes: finish(indexes, nameIndex) });
  }

  get size(): number {
    return this.flags.length;
  }

  /** How many flags have a name that breaks Unleash's naming rule (`isValidFlagName`). */
  get invalidNames(): number {
    return this.indexes.invalidNames;
  }

  /** Distinct flag names. */
  names(): IterableIterator<string> {
    return this.indexes.byName.keys();
  }

  /** The names as code recognition looks them up: one per catalog, shared by every feature that reads code. */
  get nameIndex(): FlagNameIndex {
    return this.indexes.nameIndex;
  }

  byName(name: string): readonly FeatureSummary[] {
    return this.indexes.byName.get(name) ?? [];
  }

  /** The flag of a project (`''`: a row without one). */
  get(project: string, name: string): FeatureSummary | undefined {
    return this.indexes.byKey.get(flagKey(project, name));
  }

  /** Projects present, sorted. */
  projects(): readonly string[] {
    return this.indexes.projects;
  }

  /** Environment names in the order the listing gives them (their sortOrder), across all flags. */
  environments(): readonly string[] {
    return this.indexes.environments;
  }

  /** Flags carrying the tag `type:value`. A tag list several flags share (offline mode) is looked through once. */
  withTag(type: string, value: string): FeatureSummary[] {
    const found = new Map<readonly unknown[], boolean>();
    return this.flags.filter((flag) => {
      const tags = flag.tags;
      if (!tags) return false;
      let has = found.get(tags);
      if (has === undefined) found.set(tags, (has = tags.some((tag) => tag.type === type && tag.value === value)));
      return has;
    });
  }
}

interface Building {
  byName: Map<string, FeatureSummary[]>;
  byKey: Map<string, FeatureSummary>;
  invalidNames: number;
  projects: Set<string>;
  /** Each environment's sortOrder (or the order it was first seen in). */
  environmentOrder: Map<string, number>;
}

function emptyIndexes(): Building {
  return { byName: new Map(), byKey: new Map(), invalidNames: 0, projects: new Set(), environmentOrder: new Map() };
}

function addFlag(building: Building, flag: FeatureSummary): void {
  const list = building.byName.get(flag.name);
  if (list) list.push(flag);
  else building.byName.set(flag.name, [flag]);
  if (!isValidFlagName(flag.name)) building.invalidNames += 1;
  const key = flagKey(flag.project, flag.name);
  if (!building.byKey.has(key)) building.byKey.set(key, flag);
  building.projects.add(flag.project ?? '');
  for (const env of flag.environments ?? []) {
    if (!building.environmentOrder.has(env.name)) building.environmentOrder.set(env.name, env.sortOrder ?? building.environmentOrder.size);
  }
}

function finish(building: Building, nameIndex: FlagNameIndex): Indexes {
  const environments = [...building.environmentOrder.entries()].sort((a, b) => a[1] - b[1] || compare(a[0], b[0])).map(([name]) => name);
  return {
    byName: building.byName,
    byKey: building.byKey,
    invalidNames: building.invalidNames,
    projects: [...building.projects].sort(compare),
    environments,
    nameIndex,
  };
}

/** Key of one flag across the store's maps. */
export function flagKey(project: string | undefined, name: string): string {
  return `${project ?? ''}\u0000${name}`;
}
