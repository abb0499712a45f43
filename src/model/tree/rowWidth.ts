/**
 * A flag row at the default side bar width (300 px): VS Code cuts the description before the label, so a long name is
 * cut instead, leaving room for the environment strip and the status (tooltip and screen-reader label keep it whole).
 * Widths in label characters (a flag name averages 7.1 px), measured in test/e2e/browser.test.ts (`rowFit`).
 */

/** Label characters a flag row shows at the default side bar width: inside a project, and at the top level. */
export const ROW_WIDTH = { inProject: 31, topLevel: 32 } as const;

/** The least of a name a row keeps: past this the status is cut rather than the name. */
export const MIN_NAME = 12;

/** Width of a description's character, in label characters: drawn smaller, except the state marks, drawn wider. */
const DESCRIPTION_CHARACTER = 0.7;
const MARK = 1.3;
const MARKS = new Set(['●', '○']);

/** How wide `description` is drawn, in label characters. */
export function descriptionWidth(description: string): number {
  let width = 0;
  for (const ch of description) width += MARKS.has(ch) ? MARK : DESCRIPTION_CHARACTER;
  return width;
}

/**
 * How many characters of the name a row shows (for `flagName`, which cuts with `…`): what fits beside `kept` (the
 * part of the description that must stay in view: the strip and the status words), at least MIN_NAME.
 */
export function rowNameWidth(kept: string, inProject: boolean): number {
  const width = inProject ? ROW_WIDTH.inProject : ROW_WIDTH.topLevel;
  // One character between label and description.
  const room = kept === '' ? width : width - 1 - descriptionWidth(kept);
  return Math.max(MIN_NAME, Math.floor(room));
}
