/**
 * 1 GB of export files (bench/hostile/offlineGigabyte.scenario.ts; see hostileInputs.test.ts): it writes hundreds of
 * megabytes, so it has a test file, and so a time budget, of its own.
 */
import { describe } from 'node:test';
import { hostileTests } from '../support/hostileTests';

describe('hostile gigabyte of offline exports (bench/hostile)', () => hostileTests((name) => name === 'offlineGigabyte.scenario.ts'));
