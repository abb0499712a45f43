/**
 * Where an export's segment definitions go: a file beside it (`development.json.segments`), which the export-file
 * glob (`*.json`) never takes for an export. Apart from exportSegments.ts so that finding the files costs nothing.
 */
export const SEGMENTS_SUFFIX = '.segments';

/** The segments file of the export at `exportPath`. */
export function segmentsPathFor(exportPath: string): string {
  return `${exportPath}${SEGMENTS_SUFFIX}`;
}
