/**
 * A long text (a document) made from pieces in time slices: the pieces are pulled one by one, and whenever the slice
 * is used up the work yields to the event loop, so no document, however large its data, blocks the editor. The text
 * is bounded: past `chars` characters, or `ms` of work, no further piece is pulled and the result says which bound
 * stopped it (the caller says so in the text).
 */
import { TimeSlices } from './timeSlices';

export interface TextBudget {
  /** Characters the text may hold; the piece that passes it is the last one taken. */
  chars: number;
  /** Milliseconds the whole text may take, pauses included. */
  ms: number;
}

interface SlicedText {
  text: string;
  /** The bound that stopped it early, when one did. */
  cut?: 'chars' | 'time';
}

/** Thrown by `textInSlices` when `cancelled()` says the text is no longer wanted. */
export class TextCancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/**
 * Joins `pieces` (taken as they are: a piece holds its own line breaks) in the slices of `slices`, within `budget`;
 * a text a bound stopped ends with `options.ending`. The pieces are made as they are pulled (a generator), so the
 * work of making them is sliced too: each must be quick to make (a line, a chunk of a long value), and a generator
 * in the middle of a long computation yields empty pieces to let the clock be looked at.
 */
export async function textInSlices(
  pieces: Iterable<string>,
  budget: TextBudget,
  slices: TimeSlices,
  options: {
    /** True once the text is no longer wanted: `TextCancelled` is thrown at the next pause. */
    cancelled?: () => boolean;
    /** What ends a text that a bound stopped (said in the text's own words), joined with it in one copy. */
    ending?: (cut: 'chars' | 'time', text: string) => string;
  } = {},
): Promise<SlicedText> {
  const started = performance.now();
  // Pieces are joined a thousand at a time, so the last join copies a few hundred strings, not a million.
  const joined: string[] = [];
  let batch: string[] = [];
  let length = 0;
  let cut: SlicedText['cut'];
  for (const piece of pieces) {
    if (length + piece.length > budget.chars) {
      // The part of this piece that fits, up to its last line break (a piece longer than the budget: what fits).
      const room = budget.chars - length;
      const end = piece.lastIndexOf('\n', room - 1);
      batch.push(end >= 0 ? piece.slice(0, end + 1) : length === 0 ? piece.slice(0, room) : '');
      cut = 'chars';
      break;
    }
    batch.push(piece);
    length += piece.length;
    if (batch.length === BATCH) {
      joined.push(batch.join(''));
      batch = [];
    }
    if (slices.due()) {
      if (performance.now() - started > budget.ms) {
        cut = 'time';
        break;
      }
      await slices.next();
      if (options.cancelled?.() === true) throw new TextCancelled();
    }
  }
  joined.push(batch.join(''));
  if (cut !== undefined && options.ending) joined.push(options.ending(cut, joined.at(-1) ?? ''));
  return { text: joined.join(''), cut };
}

/** Pieces joined into one string at a time. */
const BATCH = 1_000;
