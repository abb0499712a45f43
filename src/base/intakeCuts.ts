/**
 * Applying the intake budget (intakeBudget.ts) to parsed JSON: every list past its number of entries and every text
 * past its length is cut where it stands, and each cut is recorded (where, how much was kept of how much), so that the
 * user is told. Used once per input, where it enters; nothing after it sees more.
 */
import { INTAKE_BUDGET } from './intakeBudget';
import type { TimeSlices } from './timeSlices';

/**
 * One cut: the list or text at `at` (`features`, `featureStrategies[3].constraints[0].values`) kept `kept` of `total`
 * entries or characters; or (`projects`) the rows of the flag `name` kept in `kept` of its `total` projects.
 */
export interface IntakeCut {
  at: string;
  kind: 'entries' | 'characters' | 'projects';
  kept: number;
  total: number;
  name?: string;
}

/** Nodes between two looks at the clock. */
const CHECK_EVERY = 4096;
/** Cuts recorded one by one; past them, only counted. */
const MAX_RECORDED = 20;

/** The cuts made to one input: the first few in detail, and how many in all. */
export class CutLog {
  readonly cuts: IntakeCut[] = [];
  count = 0;

  add(cut: IntakeCut): void {
    this.count++;
    if (this.cuts.length < MAX_RECORDED) this.cuts.push(cut);
  }
}

/** What cutNested keeps: entries of a list, of an object, and characters of a text. */
interface NestedBudget {
  maxEntries: number;
  maxObjectEntries: number;
  maxChars: number;
}

const NESTED_BUDGET: NestedBudget = {
  maxEntries: INTAKE_BUDGET.rowsPerList,
  maxObjectEntries: INTAKE_BUDGET.entriesPerObject,
  maxChars: INTAKE_BUDGET.textChars,
};

/**
 * Cuts, in place, every list deeper than the top level past `maxEntries`, every object past `maxObjectEntries` and
 * every string past `maxChars` (top-level lists are the caller's, which knows what their rows are), recording each in
 * `cuts`.
 */
export async function cutNested(root: Record<string, unknown>, slices: TimeSlices, cuts: CutLog, budget: NestedBudget = NESTED_BUDGET): Promise<void> {
  // An explicit stack: depth is bounded by the parser, but recursion would still cost a frame per level. Where a node
  // is, is kept as its parent and key, and written out only for a cut (most inputs have none).
  const stack: Place[] = [];
  const visit = (holder: object, key: string | number, item: unknown, parent: Place | undefined) => {
    if (typeof item === 'string') {
      if (item.length > budget.maxChars) {
        cuts.add({ at: pathOf({ value: holder, parent, key }), kind: 'characters', kept: budget.maxChars, total: item.length });
        (holder as Record<string | number, unknown>)[key] = item.slice(0, budget.maxChars);
      }
    } else if (item !== null && typeof item === 'object') stack.push({ value: item, parent, key });
  };
  for (const key in root) if (Object.prototype.hasOwnProperty.call(root, key)) visit(root, key, root[key], undefined);
  let seen = 0;
  while (stack.length > 0) {
    const place = stack.pop() as Place;
    const value = place.value;
    if (++seen % CHECK_EVERY === 0 && slices.due()) await slices.next();
    if (Array.isArray(value)) {
      if (place.parent !== undefined && value.length > budget.maxEntries) cutList(value, pathOf(place), budget.maxEntries, cuts);
      for (let i = 0; i < value.length; i++) visit(value, i, value[i], place);
    } else {
      const record = value as Record<string, unknown>;
      let entries = 0;
      for (const key in record) {
        if (!Object.prototype.hasOwnProperty.call(record, key)) continue;
        if (++entries > budget.maxObjectEntries) delete record[key];
        else visit(record, key, record[key], place);
      }
      if (entries > budget.maxObjectEntries) cuts.add({ at: pathOf(place), kind: 'entries', kept: budget.maxObjectEntries, total: entries });
    }
  }
}

/** A list or object found inside the input: its parent's place, and its key or index there (none at the top level). */
interface Place {
  value: object;
  parent: Place | undefined;
  key: string | number;
}

/** `featureStrategies[3].constraints[0].values`: where a place is, from the top level. */
function pathOf(place: Place): string {
  const keys: Array<string | number> = [];
  for (let at: Place | undefined = place; at !== undefined; at = at.parent) keys.push(at.key);
  return keys.reverse().reduce<string>((path, key) => (typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`), '');
}

/** Cuts `list` to `max` entries, recording it. */
export function cutList(list: unknown[], at: string, max: number, cuts: CutLog): void {
  if (list.length <= max) return;
  cuts.add({ at, kind: 'entries', kept: max, total: list.length });
  list.length = max;
}
