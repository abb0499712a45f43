/**
 * Runs a CommonJS bundle the way VS Code's web worker extension host does, as far as the bundle can tell: in a context
 * of its own with only a worker's globals (no `process`, `Buffer`, `setImmediate`, `global`), where `require` knows
 * only 'vscode'. For the browser build (dist/web/extension.js): test/checks/browserBundle.test.ts and the activation
 * benchmark.
 */
import * as vm from 'node:vm';

/** Evaluates `code` (named `filename` in stacks) with `vscode` as its one module; answers its `module.exports`. */
export function runInWorkerContext<T>(code: string, filename: string, vscode: unknown): T {
  const module = { exports: {} as T };
  const require = (id: string) => {
    if (id === 'vscode') return vscode;
    throw new Error(`a web worker extension host cannot load ${id}`);
  };
  const globals = {
    module,
    exports: module.exports,
    require,
    console,
    performance,
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval,
    queueMicrotask,
    TextEncoder,
    TextDecoder,
    URL,
    URLSearchParams,
    AbortController,
    AbortSignal,
    structuredClone,
  };
  vm.runInNewContext(code, globals, { filename });
  return module.exports;
}
