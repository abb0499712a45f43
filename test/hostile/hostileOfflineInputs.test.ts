/** Offline mode's small hostile inputs of bench/hostile/ (see hostileInputs.test.ts): duplicate rows, many children. */
import { describe } from 'node:test';
import { hostileTests, INTAKE } from '../support/hostileTests';

const LARGE = ['offlineGigabyte.scenario.ts', 'offlineLargest.scenario.ts'];

describe('hostile offline inputs (bench/hostile)', () => hostileTests((name) => name.startsWith('offline') && !LARGE.includes(name) && !INTAKE.test(name)));
