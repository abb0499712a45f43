/**
 * Every hostile input of bench/hostile/ but offline mode's (the reliability review's findings): its operation, run
 * in a fresh Node with a 256 MB heap, finishes (no crash, no hang) and shows the user what the scenario expects. The
 * figures (time, heap, event-loop block) are the bench's to print (`npm run bench:hostile`), never asserted here.
 * Offline mode's scenarios write hundreds of megabytes of export files: hostileOfflineInputs.test.ts runs them, so
 * that each file stays well inside the hostile layer's per-file time.
 */
import { describe } from 'node:test';
import { hostileTests, INTAKE } from '../support/hostileTests';

/** Scenarios that write or move tens of megabytes: a test file each. */
const LARGE = ['exportLarge.scenario.ts', 'hugeFlagDetails.scenario.ts', 'hugeFlagComparison.scenario.ts'];

describe('hostile inputs (bench/hostile)', () => hostileTests((name) => !name.startsWith('offline') && !LARGE.includes(name) && !INTAKE.test(name)));
