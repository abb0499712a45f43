/**
 * Why the offline mode shows nothing at all: every export file failed or was left out (`message` says which and
 * why). Apart from the reader (offlineFiles.ts), which loads with the core bundle, so that formatError.ts can tell it.
 */
export class ExportFilesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportFilesError';
  }
}
