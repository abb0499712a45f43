/**
 * Show Flag Details and Compare Environments on a flag of about 33 MB (bench/hostile/hugeFlag*.scenario.ts; see
 * hostileInputs.test.ts): each builds the flag and writes up to 8,000,000 characters, so they have a test file, and
 * so a time budget, of their own.
 */
import { describe } from 'node:test';
import { hostileTests } from '../support/hostileTests';

describe('hostile 33 MB flag (bench/hostile)', () => hostileTests((name) => name.startsWith('hugeFlag') && name.endsWith('.scenario.ts')));
