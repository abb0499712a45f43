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
  // An explicit stack: depth is bounded by the parser, but recursion would still cost a frame per level.
  const stack: Array<{ value: unknown; at: string }> = [];
  for (const [key, value] of Object.entries(root)) {
    if (typeof value === 'string') cutText(root, key, value, key, budget.maxChars, cuts);
    else if (value !== null && typeof value === 'object') stack.push({ value, at: key });
  }
  let seen = 0;
  while (stack.length > 0) {
    const { value, at } = stack.pop() as { value: object; at: string };
    if (++seen % CHECK_EVERY === 0 && slices.due()) await slices.next();
    if (Array.isArray(value)) {
      if (at.includes('.') || at.includes('[')) cutList(value, at, budget.maxEntries, cuts);
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (typeof item === 'string') cutText(value, i, item, `${at}[${i}]`, budget.maxChars, cuts);
        else if (item !== null && typeof item === 'object') stack.push({ value: item, at: `${at}[${i}]` });
      }
    } else {
      const entries = Object.entries(value);
      if (entries.length > budget.maxObjectEntries) {
        cuts.add({ at, kind: 'entries', kept: budget.maxObjectEntries, total: entries.length });
        for (const [key] of entries.splice(budget.maxObjectEntries)) delete (value as Record<string, unknown>)[key];
      }
      for (const [key, item] of entries) {
        if (typeof item === 'string') cutText(value as Record<string, unknown>, key, item, `${at}.${key}`, budget.maxChars, cuts);
        else if (item !== null && typeof item === 'object') stack.push({ value: item, at: `${at}.${key}` });
      }
    }
  }
}

/** Cuts `list` to `max` entries, recording it. */
export function cutList(list: unknown[], at: string, max: number, cuts: CutLog): void {
  if (list.length <= max) return;
  cuts.add({ at, kind: 'entries', kept: max, total: list.length });
  list.length = max;
}

function cutText(holder: Record<string | number, unknown> | unknown[], key: string | number, text: string, at: string, max: number, cuts: CutLog): void {
  if (text.length <= max) return;
  cuts.add({ at, kind: 'characters', kept: max, total: text.length });
  (holder as Record<string | number, unknown>)[key] = text.slice(0, max);
}
