// A node:test reporter for test/runner/runFiles.ts: appends one JSON line per test event to the file that
// UNLEASH_TEST_EVENTS names, synchronously, so that what a test file had done is on disk even when the runner kills
// it mid-way. The runner reads it to count what passed and failed and to name the test a killed file was in. It
// writes nothing to its destination. Plain JavaScript: node loads reporters before tsx is registered.
import { appendFileSync } from 'node:fs';
import { Transform } from 'node:stream';

const file = process.env.UNLEASH_TEST_EVENTS;

export default new Transform({
  writableObjectMode: true,
  /** @param {{ type: string, data: { name: string, nesting: number, skip?: unknown, todo?: unknown, details?: { type?: string, error?: { message?: string, cause?: unknown } } } }} event */
  transform({ type, data }, _encoding, callback) {
    const line = file ? eventLine(type, data) : undefined;
    if (line) appendFileSync(file, `${JSON.stringify(line)}\n`);
    callback();
  },
});

function eventLine(type, data) {
  if (type === 'test:dequeue') return { event: 'start', nesting: data.nesting, name: data.name };
  if (type !== 'test:pass' && type !== 'test:fail') return undefined;
  return {
    event: type === 'test:pass' ? (data.skip || data.todo ? 'skip' : 'pass') : 'fail',
    nesting: data.nesting,
    name: data.name,
    ...(data.details?.type === 'suite' ? { suite: true } : {}),
    ...(type === 'test:fail' ? { error: errorText(data.details?.error) } : {}),
  };
}

/** The error's message (its cause's, when node wraps it), on one line and at most 300 characters. */
function errorText(error) {
  const cause = error?.cause;
  const message = cause instanceof Error ? cause.message : typeof cause === 'string' ? cause : error?.message;
  return String(message ?? '').replace(/\s+/g, ' ').trim().slice(0, 300);
}
