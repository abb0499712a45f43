/**
 * The core: the code that talks to servers (the Admin API client: undici, every answer checked with zod; the
 * operating system's certificates) and reads export files. esbuild.js makes it a bundle file of its own, dist/core.js,
 * which services/connection.ts loads with `import()` the first time something needs the flags: a window that never
 * needs them never loads it. Under tsx (the tests) it is an ordinary module.
 */
export { UnleashClient } from '../api/client';
export { loadSystemCertificates } from '../api/systemCertificates';
export { EXPORT_BUDGET, ExportFileReader } from './store/offlineFiles';
export { cutsNote, skippedNote } from './store/offlineNotes';
export { OfflineSource, offlineExports } from './store/offlineSource';
export { InThreadJobs } from './jobs/inThreadJobs';
export { exportMessage } from './export/exportMessage';
export { exportContent, exportToFile } from './export/exportToFile';
export { ExportWriteError } from './export/exportWriteError';
