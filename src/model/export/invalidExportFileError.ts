/**
 * A file that is not a valid export result (or segments file); `fieldPath` names the first bad field (empty for bad
 * JSON). In a file of its own, without zod, so that the extension's start-up bundle knows it (it comes back from the
 * worker that reads the files).
 */
export class InvalidExportFileError extends Error {
  constructor(message: string, readonly fieldPath: string) {
    super(message);
    this.name = 'InvalidExportFileError';
  }
}
