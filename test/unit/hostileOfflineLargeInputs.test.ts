/**
 * Offline mode's large hostile inputs of bench/hostile/ (see hostileInputs.test.ts): 1 GB of export files and the
 * largest export the budget admits, each writing hundreds of megabytes: a file of their own, within its time.
 */
import { describe } from 'node:test';
import { hostileTests } from '../support/hostileTests';

describe('hostile large offline inputs (bench/hostile)', () => hostileTests((name) => ['offlineGigabyte.scenario.ts', 'offlineLargest.scenario.ts'].includes(name)));
