/**
 * The browser build's web worker (dist/web/worker.js): the jobs on what comes in (model/jobs/), away from the web
 * worker the extension host runs in. services/webWorker.ts starts it from the bundle's text; its first message is
 * the editor's translations, and it says it is ready once loaded.
 */
import { serveJob, setUpWorker } from './model/jobs/jobServer';
import type { JobRequest, WorkerSetup } from './model/jobs/jobWire';

/** What a web worker's global scope offers the jobs (no DOM types in this project's compilation). */
const scope = globalThis as unknown as {
  postMessage(message: unknown, transfer?: ArrayBuffer[]): void;
  onmessage: ((event: { data: JobRequest | { setup: WorkerSetup } }) => void) | null;
};

scope.onmessage = (event) => {
  const data = event.data;
  if ('setup' in data) {
    setUpWorker(data.setup);
    return;
  }
  void serveJob(data).then(({ reply, transfer }) => scope.postMessage(reply, transfer));
};
scope.postMessage({ ready: true });
