/**
 * An export of 50,000 flags (bench/hostile/exportLarge.scenario.ts; see hostileInputs.test.ts): about 73 MB streamed
 * and laid out, so it has a test file, and so a time budget, of its own.
 */
import { describe } from 'node:test';
import { hostileTests } from '../support/hostileTests';

describe('hostile 50,000-flag export (bench/hostile)', () => hostileTests((name) => name === 'exportLarge.scenario.ts'));
