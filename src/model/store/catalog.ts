/**
 * The catalog: every flag a listing returned, sorted, and indexed by name and by project and name for O(1) lookups
 * from hovers, the tree and the quick pick. A name can exist in several projects, so lookups by name answer a list.
 */
import type { FeatureSummary } from '../../api/schemas';
import { FlagNameIndex } from '../code/flagNameIndex';
import { isValidFlagName } from '../code/flagNameRule';
import { compare } from '../../base/compare';

export class Catalog {
  static readonly empty = new Catalog([]);

  readonly flags: readonly FeatureSummary[];
  private readonly index = new Map<string, FeatureSummary[]>();
  private invalidCount: number | undefined;
  private nameIndexValue: FlagNameIndex | undefined;
  private readonly byKey = new Map<string, FeatureSummary>();

  constructor(features: readonly FeatureSummary[]) {
    this.flags = [...features].sort((a, b) => compare(a.name, b.name) || compare(a.project ?? '', b.project ?? ''));
    for (const flag of this.flags) {
      const list = this.index.get(flag.name);
      if (list) list.push(flag);
      else this.index.set(flag.name, [flag]);
      const key = flagKey(flag.project, flag.name);
      if (!this.byKey.has(key)) this.byKey.set(key, flag);
    }
  }

  get size(): number {
    return this.flags.length;
  }

  /** How many flags have a name that breaks Unleash's naming rule (`isValidFlagName`); counted once. */
  get invalidNames(): number {
    this.invalidCount ??= this.flags.reduce((count, flag) => (isValidFlagName(flag.name) ? count : count + 1), 0);
    return this.invalidCount;
  }

  /** Distinct flag names. */
  names(): IterableIterator<string> {
    return this.index.keys();
  }

  /** The names as code recognition looks them up: built once per catalog, shared by every feature that reads code. */
  get nameIndex(): FlagNameIndex {
    this.nameIndexValue ??= new FlagNameIndex(this.names());
    return this.nameIndexValue;
  }

  byName(name: string): readonly FeatureSummary[] {
    return this.index.get(name) ?? [];
  }

  /** The flag of a project (`''`: a row without one). */
  get(project: string, name: string): FeatureSummary | undefined {
    return this.byKey.get(flagKey(project, name));
  }

  /** Projects present, sorted. */
  projects(): string[] {
    return [...new Set(this.flags.map((flag) => flag.project ?? ''))].sort(compare);
  }

  /** Environment names in the order the listing gives them (their sortOrder), across all flags. */
  environments(): string[] {
    const order = new Map<string, number>();
    for (const flag of this.flags) {
      for (const env of flag.environments ?? []) {
        if (!order.has(env.name)) order.set(env.name, env.sortOrder ?? order.size);
      }
    }
    return [...order.entries()].sort((a, b) => a[1] - b[1] || compare(a[0], b[0])).map(([name]) => name);
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

/** Key of one flag across the store's maps. */
export function flagKey(project: string | undefined, name: string): string {
  return `${project ?? ''}\u0000${name}`;
}
