/**
 * A bad `unleash.export.path`. Apart from the path rules (exportPath.ts, which need Node's path and crypto) so that
 * the error formatter knows it in the browser build too.
 */

/** The setting that holds the export path template; named in every path error. */
export const EXPORT_PATH_SETTING = 'unleash.export.path';

/** A bad `unleash.export.path`; `setting` is the setting's id, for a "Configure" action. */
export class ExportPathError extends Error {
  readonly setting = EXPORT_PATH_SETTING;
  constructor(message: string) {
    super(message);
    this.name = 'ExportPathError';
  }
}
