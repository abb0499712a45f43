// A node:test reporter that names what was running when a test file hit the runner's timeout. Node 20's runner
// applies `--test-timeout` to each file's process as a whole and reports only the file; this reporter follows the
// tests each file starts and, when the file times out, prints the ones still running:
//
//   ✖ timed out: test/unit/x.test.ts (timed out after 120000ms) while running: group › a body larger than …
//
// Plain JavaScript: node loads reporters before tsx is registered. Used by test/run.ts beside the TAP reporter.

/** @param {AsyncIterable<{ type: string, data: { name: string, nesting: number, file?: string, details?: { error?: { failureType?: string, message?: string } } } }>} source */
export default async function* timeoutReporter(source) {
  /** Per file: the names of the tests started and not yet finished, by nesting level. @type {Map<string, string[]>} */
  const running = new Map();
  for await (const { type, data } of source) {
    const file = data.file;
    if (!file) continue;
    if (data.name === file) {
      if (type === 'test:fail' && isTimeout(data)) {
        const stack = (running.get(file) ?? []).filter(Boolean);
        const what = stack.length ? stack.join(' › ') : 'nothing started (a hook, or the file’s top level)';
        yield `✖ timed out: ${file} (${timeoutText(data)}) while running: ${what}\n`;
      }
      continue;
    }
    const stack = running.get(file) ?? [];
    if (type === 'test:dequeue') {
      stack.length = data.nesting;
      stack[data.nesting] = data.name;
    } else if (type === 'test:pass' || type === 'test:fail') {
      stack.length = Math.min(stack.length, data.nesting);
    }
    running.set(file, stack);
  }
}

function isTimeout(data) {
  const error = data.details?.error;
  return error?.failureType === 'testTimeoutFailure' || /timed out/i.test(error?.message ?? '');
}

function timeoutText(data) {
  return /timed out after \d+ ?ms/.exec(data.details?.error?.message ?? '')?.[0] ?? 'timed out';
}
