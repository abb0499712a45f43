/**
 * Everything the benchmark measures from src/, in one entry point. bench/run.ts bundles this file with esbuild the
 * way `npm run package` bundles the extension (CommonJS, node20, minified, undici and zod inside), so the figures
 * are those of the code that ships, not of the TypeScript source under tsx (whose keep-names helper wraps every
 * closure). `--source` runs the source instead.
 */
export { UnleashClient } from '../src/api/client';
export { serializeExport, serializeExportBytes } from '../src/model/export/exportBytes';
export { exportToFile } from '../src/model/export/exportToFile';
export { FlagStore } from '../src/model/store/flagStore';
export { ServerSource } from '../src/services/serverSource';
export { writeFileAtomic } from '../src/base/atomicWrite';
export { rootNodes } from '../src/model/tree/root';
export { featureSearchSchema } from '../src/api/schemas';
export { exportResultSchema } from '../src/api/exportSchemas';
// The desktop's worker thread for large answers (its script: subject-build.ts builds dist/worker.js beside the bundle).
export { WorkerJobs } from '../src/model/jobs/workerJobs';
export { nodeWorker } from '../src/services/nodeWorker';
