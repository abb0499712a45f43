/**
 * What reading the export files takes (the reader within its budget, the note on files left out, the source they
 * make; zod checks each file). The browser build loads it with `import()` on the first need of the flags, which
 * esbuild turns into a module evaluated only then: a window that never needs the flags never evaluates zod.
 */
export { EXPORT_BUDGET, ExportFileReader } from './offlineFiles';
export { cutsNote, skippedNote } from './offlineNotes';
export { OfflineSource, offlineExports } from './offlineSource';
export { InThreadJobs } from '../jobs/inThreadJobs';
