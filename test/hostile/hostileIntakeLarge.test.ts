/**
 * The largest hostile inputs of issue 39 (bench/hostile; see hostileInputs.test.ts): a million rows of a 37 MB export
 * on the desktop and in the browser build, one name in 320,000 projects, four links of a 44 MB export for the drift
 * check. They write and read tens of megabytes, so they have a test file, and so a time budget, of their own.
 */
import { describe } from 'node:test';
import { hostileTests } from '../support/hostileTests';

const LARGE = /^(offlineMillion|browserMillion|offlineOneName|driftHardLinks)/;

describe('hostile large inputs of the intake (bench/hostile)', () => hostileTests((name) => LARGE.test(name)));
