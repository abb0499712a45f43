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
 * Joins `pieces` (taken as they are: a piece holds its own line breaks) in the slices of `slices`, within `budget`.
 * The pieces are made as they are pulled, so the work of making them is sliced too: a piece must be small to make
 * (a line, a chunk of a long value), and a generator that needs a long computation awaits `slices` itself.
 */
export async function textInSlices(
  pieces: AsyncIterable<string> | Iterable<string>,
  budget: TextBudget,
  slices: TimeSlices,
  cancelled: () => boolean = () => false,
): Promise<SlicedText> {
  const started = performance.now();
  const out: string[] = [];
  let length = 0;
  let cut: SlicedText['cut'];
  for await (const piece of pieces) {
    out.push(piece);
    length += piece.length;
    if (length >= budget.chars) {
      cut = 'chars';
      break;
    }
    if (slices.due()) {
      if (performance.now() - started > budget.ms) {
        cut = 'time';
        break;
      }
      await slices.next();
      if (cancelled()) throw new TextCancelled();
    }
  }
  let text = out.join('');
  if (cut === 'chars' && text.length > budget.chars) {
    // At the end of the last whole line that fits.
    const end = text.lastIndexOf('\n', budget.chars - 1);
    text = text.slice(0, end >= 0 ? end + 1 : budget.chars);
  }
  return cut === undefined ? { text } : { text, cut };
}
