/**
 * The hostile inputs of issue 39 that each read a few megabytes (bench/hostile; see hostileInputs.test.ts): "Did you
 * mean" in a file of hundreds of unknown names, the drift check on export files past the budget, a 38 MB segments
 * file on the desktop and in the browser build. Each shows the user what its scenario expects.
 */
import { describe } from 'node:test';
import { hostileTests, INTAKE } from '../support/hostileTests';

const LARGE = /^(offlineMillion|browserMillion|offlineOneName|driftHardLinks)/;

describe('hostile inputs of the intake (bench/hostile)', () => hostileTests((name) => INTAKE.test(name) && !LARGE.test(name)));
