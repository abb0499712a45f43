/**
 * Every hostile input of bench/hostile/ (the reliability review's findings): its operation, run in a fresh Node with
 * a 256 MB heap, finishes (no crash, no hang) and shows the user what the scenario expects. The figures (time, heap,
 * event-loop block) are the bench's to print (`npm run bench:hostile`), never asserted here.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { measure, scenarioFiles } from '../../bench/hostile/run';

describe('hostile inputs (bench/hostile)', () => {
  for (const file of scenarioFiles()) {
    test(file.split('/').pop() ?? file, { timeout: 150_000 }, async () => {
      const m = await measure(file);
      assert.equal(m.failure, undefined, `${m.scenario.input}: ${m.failure}`);
      assert.match(m.seen ?? '', m.scenario.expect, m.scenario.input);
    });
  }
});
