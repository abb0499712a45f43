/**
 * The linter and the dead-code check, as part of the checks layer: typescript-eslint's recommended rules
 * (eslint.config.mjs) and knip (knip.jsonc: files, exports, types and dependencies nothing uses). Each runs in its own
 * process, bounded in time; a finding fails the test with the tool's own report.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, it } from 'node:test';

const root = path.join(__dirname, '..', '..');
const TOOL_MS = 100_000;

/** Runs a tool's own script (node_modules/<package>/bin/…) with this Node. */
function run(script: string, args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules', script), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: TOOL_MS,
    maxBuffer: 16 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('the code as the tools read it', { timeout: 2 * TOOL_MS }, () => {
  it('has no finding of the linter (eslint . with typescript-eslint)', () => {
    const { status, output } = run('eslint/bin/eslint.js', ['.', '--max-warnings', '0']);
    assert.equal(status, 0, output);
  });

  it('has no unused file, export, type or dependency (knip)', () => {
    const { status, output } = run('knip/bin/knip.js', ['--reporter', 'compact', '--no-progress']);
    assert.equal(status, 0, output);
  });
});
