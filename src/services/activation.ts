/**
 * activate()'s own bookkeeping: how long activation took as VS Code counts it (loading the bundle and activate()),
 * and work deferred until activate() has returned (so that activation only registers).
 */
import { BUNDLE_TIMES_GLOBAL } from '../base/constants';
import type { Disposable } from '../base/emitter';
import type { Logger } from '../base/logger';

/** The bundle's (dist/extension.js, dist/web/extension.js) first and last statement's `performance.now()` (esbuild.js writes them); 0 under tsx. */
function bundleLoadMs(): number {
  const times = (globalThis as Record<string, { start?: unknown; loaded?: unknown } | undefined>)[BUNDLE_TIMES_GLOBAL];
  return typeof times?.start === 'number' && typeof times.loaded === 'number' ? times.loaded - times.start : 0;
}

/**
 * Activation since `started` (activate()'s first statement) plus loading the bundle, logged. What VS Code does between
 * the two (it reads the extension's storage first) is not counted.
 */
export function activationTimes(started: number, logger: Logger): { activationMs: number; bundleLoadMs: number } {
  const loading = bundleLoadMs();
  const activationMs = loading + performance.now() - started;
  logger.info(`Activated in ${activationMs.toFixed(1)} ms (${loading.toFixed(1)} ms of it loading the bundle).`);
  return { activationMs, bundleLoadMs: loading };
}

/** Runs `work` once activate() has returned (a zero timeout: there is no setImmediate in a web worker); disposing first cancels it. */
export function afterActivation(work: () => void): Disposable {
  const scheduled = setTimeout(work, 0);
  return { dispose: () => clearTimeout(scheduled) };
}
