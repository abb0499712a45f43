/**
 * One test per hostile scenario of bench/hostile/ whose file name `pick` accepts: it finishes and shows what it
 * expects. Its operation may take SCENARIO_MS, the bench's bound being too tight for a machine running two suites.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { measure, scenarioFiles } from '../../bench/hostile/run';

/**
 * The scenarios of issue 39's findings (one intake, heavy work off the host's thread): typo suggestions, the drift
 * check, rows and projects past the budget, a large segments file. hostileIntake*.test.ts run them.
 */
export const INTAKE = /^(typo|drift|segments|browserSegments|offlineMillion|browserMillion|offlineOneName)/;

const SCENARIO_MS = 6 * 60_000;

export function hostileTests(pick: (fileName: string) => boolean): void {
  for (const file of scenarioFiles().filter((candidate) => pick(path.basename(candidate)))) {
    test(path.basename(file), { timeout: SCENARIO_MS + 60_000 }, async () => {
      const m = await measure(file, SCENARIO_MS);
      assert.equal(m.failure, undefined, `${m.scenario.input}: ${m.failure}`);
      assert.match(m.seen ?? '', m.scenario.expect, m.scenario.input);
    });
  }
}
