/**
 * The largest export the offline budget admits (bench/hostile/offlineLargest.scenario.ts; see hostileInputs.test.ts):
 * it writes a 100 MB file, so it has a test file, and so a time budget, of its own.
 */
import { describe } from 'node:test';
import { hostileTests } from '../support/hostileTests';

describe('hostile largest offline export (bench/hostile)', () => hostileTests((name) => name === 'offlineLargest.scenario.ts'));
